/**
 * Admin console tab 'Edizioni' (issue 29): the exam editions as data. An admin corrects an edition's split,
 * minutes, break, completamento boxes, status, source, sittings and unit credits in minutes, checked by the server's own schema
 * (app/lib/edition.ts: counts add up to the question total, minutes > 0, credits per subject sum to 6), and
 * makes one the default. Every save is in the audit log; the next draw follows it.
 */
import { useId, useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { EDITION_STATUSES, type EditionInput, type ExamEdition } from "~/lib/edition";
import { editionInputSchema } from "~/lib/edition-schema";
import { succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { issueMessage, labelsOf } from "~/lib/validation";
import { ErrorText, Field, TableWrap } from "./admin-shared";

const TEXT = {
  title: "Edizioni dell'esame",
  intro:
    "Il formato di ogni anno accademico: domande, minuti, pause, appelli e unità del programma. Le esercitazioni, i modelli di simulazione e la dashboard leggono l'edizione predefinita.",
  edit: "Modifica",
  makeDefault: "Rendi predefinita",
  isDefault: "Predefinita",
  save: "Salva edizione",
  cancel: "Annulla",
  saved: "Edizione salvata",
  saveError: "Errore salvataggio",
  defaultSet: "Edizione predefinita aggiornata",
  label: "Nome",
  status: "Stato",
  source: "Fonte",
  breakMin: "Pausa tra gli esami (minuti)",
  gapBoxes: "Caselle del completamento",
  subjects: "Materie, nell'ordine della giornata",
  mc: "Scelta multipla",
  gap: "Completamento",
  minutes: "Minuti",
  sittings: "Appelli",
  sittingDate: "Data",
  sittingTime: "Ora",
  sittingLabel: "Nome dell'appello",
  units: "Unità del programma (crediti)",
  credits: "Crediti",
} as const;

const STATUS_LABEL: Record<string, string> = { provvisorio: "Provvisorio", confermato: "Confermato" };

export type SubjectName = { id: number; name: string };

/** `editions` and `subjects`: the tab loader's data (/admin/edizioni), reloaded after each write. */
export function EdizioniTab({ editions, subjects }: { editions: ExamEdition[]; subjects: SubjectName[] }) {
  const toast = useToast();
  const write = useFormAction("/admin/edizioni").call;
  const [editing, setEditing] = useState<ExamEdition | null>(null);
  const headingId = useId();
  const nameOf = (id: number) => subjects.find((s) => s.id === id)?.name ?? `Materia ${id}`;

  async function makeDefault(edition: ExamEdition) {
    try {
      succeeded(await write({ intent: "default", id: edition.id }), TEXT.saveError);
      toast(TEXT.defaultSet, "success");
    } catch (error) {
      toast(error instanceof Error ? error.message : TEXT.saveError, "error");
    }
  }

  return (
    <div className="adm-grid">
      <section className="adm-card" aria-labelledby={headingId}>
        <h2 id={headingId}>{TEXT.title}</h2>
        <p className="muted small">{TEXT.intro}</p>
        <TableWrap label={TEXT.title}>
          <table className="adm-table">
            <thead>
              <tr>
                <th scope="col">Anno</th>
                <th scope="col">Stato</th>
                <th scope="col">Formato</th>
                <th scope="col">Appelli</th>
                <th scope="col">Azioni</th>
              </tr>
            </thead>
            <tbody>
              {editions.map((e) => (
                <tr key={e.id} data-testid={`edition-${e.academicYear}`}>
                  <td>
                    {e.label}
                    {e.isDefault ? <span className="chip"> {TEXT.isDefault}</span> : null}
                  </td>
                  <td>{STATUS_LABEL[e.status]}</td>
                  <td>
                    {e.format.subjects
                      .map((s) => `${nameOf(s.subjectId)} ${s.mc} + ${s.gap}, ${s.minutes}′`)
                      .join(" · ")}{" "}
                    · pausa {e.format.breakMin}′ · {e.format.gapBoxes} caselle
                  </td>
                  <td>{e.format.sittings.map((s) => `${s.label} ${s.date} ${s.time}`).join(" · ")}</td>
                  <td className="adm-actions">
                    <button type="button" className="btn btn--small" onClick={() => setEditing(e)}>
                      {TEXT.edit} <span className="visually-hidden">{e.label}</span>
                    </button>
                    {!e.isDefault ? (
                      <button type="button" className="btn btn--small" onClick={() => void makeDefault(e)}>
                        {TEXT.makeDefault} <span className="visually-hidden">{e.label}</span>
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>
      {editing ? (
        <EditionForm
          key={`${editing.id}:${editing.version}`}
          edition={editing}
          nameOf={nameOf}
          onDone={() => setEditing(null)}
          save={async (input) => {
            succeeded(await write({ intent: "save", id: editing.id, edition: input }), TEXT.saveError);
            toast(TEXT.saved, "success");
            setEditing(null);
          }}
        />
      ) : null}
    </div>
  );
}

function EditionForm({
  edition,
  nameOf,
  onDone,
  save,
}: {
  edition: ExamEdition;
  nameOf: (id: number) => string;
  onDone: () => void;
  save: (input: EditionInput) => Promise<void>;
}) {
  const formId = useId();
  const [form, setForm] = useState<EditionInput>(() => structuredClone(edition) as EditionInput);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const format = form.format;
  const setFormat = (patch: Partial<EditionInput["format"]>) =>
    setForm((f) => ({ ...f, format: { ...f.format, ...patch } }));
  const num = (value: string) => (value.trim() === "" ? Number.NaN : Number(value.replace(",", ".")));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = editionInputSchema.safeParse(form);
    if (!parsed.success) {
      setError(issueMessage(parsed.error.issues[0]!, labelsOf(editionInputSchema)));
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await save(parsed.data);
    } catch (e) {
      setError(e instanceof Error ? e.message : TEXT.saveError);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="adm-card" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`}>
        {TEXT.edit} {edition.label}
      </h2>
      <form className="adm-form" onSubmit={submit} noValidate aria-label={`${TEXT.edit} ${edition.label}`}>
        <Field label={TEXT.label} wide>
          <input
            type="text"
            value={form.label}
            maxLength={120}
            onChange={(e) => setForm({ ...form, label: e.target.value })}
          />
        </Field>
        <Field label={TEXT.status}>
          <select
            value={form.status}
            onChange={(e) => setForm({ ...form, status: e.target.value as EditionInput["status"] })}
          >
            {EDITION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={TEXT.breakMin}>
          <input
            type="number"
            min={0}
            value={Number.isNaN(format.breakMin) ? "" : format.breakMin}
            onChange={(e) => setFormat({ breakMin: num(e.target.value) })}
          />
        </Field>
        <Field label={TEXT.gapBoxes}>
          <input
            type="number"
            min={1}
            value={Number.isNaN(format.gapBoxes) ? "" : format.gapBoxes}
            onChange={(e) => setFormat({ gapBoxes: num(e.target.value) })}
          />
        </Field>
        <Field label={TEXT.source} wide>
          <textarea rows={3} value={form.source ?? ""} onChange={(e) => setForm({ ...form, source: e.target.value })} />
        </Field>
        <fieldset className="adm-field--wide">
          <legend>{TEXT.subjects}</legend>
          {format.subjects.map((s, i) => {
            const set = (patch: Partial<typeof s>) =>
              setFormat({ subjects: format.subjects.map((x, k) => (k === i ? { ...x, ...patch } : x)) });
            return (
              <div key={s.subjectId} className="adm-form" data-testid={`edition-subject-${s.subjectId}`}>
                <strong className="adm-field--wide">{nameOf(s.subjectId)}</strong>
                <Field label={`${TEXT.mc} (${nameOf(s.subjectId)})`}>
                  <input
                    type="number"
                    min={0}
                    value={Number.isNaN(s.mc) ? "" : s.mc}
                    onChange={(e) => set({ mc: num(e.target.value) })}
                  />
                </Field>
                <Field label={`${TEXT.gap} (${nameOf(s.subjectId)})`}>
                  <input
                    type="number"
                    min={0}
                    value={Number.isNaN(s.gap) ? "" : s.gap}
                    onChange={(e) => set({ gap: num(e.target.value) })}
                  />
                </Field>
                <Field label={`${TEXT.minutes} (${nameOf(s.subjectId)})`}>
                  <input
                    type="number"
                    min={1}
                    value={Number.isNaN(s.minutes) ? "" : s.minutes}
                    onChange={(e) => set({ minutes: num(e.target.value) })}
                  />
                </Field>
              </div>
            );
          })}
        </fieldset>
        <fieldset className="adm-field--wide">
          <legend>{TEXT.sittings}</legend>
          {format.sittings.map((s, i) => {
            const set = (patch: Partial<typeof s>) =>
              setFormat({ sittings: format.sittings.map((x, k) => (k === i ? { ...x, ...patch } : x)) });
            return (
              <div key={i} className="adm-form">
                <Field label={`${TEXT.sittingLabel} ${i + 1}`}>
                  <input type="text" value={s.label} onChange={(e) => set({ label: e.target.value })} />
                </Field>
                <Field label={`${TEXT.sittingDate} ${i + 1}`}>
                  <input type="date" value={s.date} onChange={(e) => set({ date: e.target.value })} />
                </Field>
                <Field label={`${TEXT.sittingTime} ${i + 1}`}>
                  <input type="time" value={s.time} onChange={(e) => set({ time: e.target.value })} />
                </Field>
              </div>
            );
          })}
        </fieldset>
        <fieldset className="adm-field--wide">
          <legend>{TEXT.units}</legend>
          {format.units.map((u, i) => (
            <Field key={`${u.subjectId}-${u.number}`} label={`${nameOf(u.subjectId)} ${u.number}. ${u.title}`} wide>
              <input
                type="number"
                step={0.05}
                min={0}
                value={Number.isNaN(u.credits) ? "" : u.credits}
                onChange={(e) =>
                  setFormat({
                    units: format.units.map((x, k) => (k === i ? { ...x, credits: num(e.target.value) } : x)),
                  })
                }
              />
            </Field>
          ))}
        </fieldset>
        {error ? (
          <div className="adm-field--wide">
            <ErrorText message={error} />
          </div>
        ) : null}
        <div className="adm-actions adm-field--wide">
          <button type="submit" className="btn btn--primary" disabled={saving}>
            {TEXT.save}
          </button>
          <button type="button" className="btn" onClick={onDone}>
            {TEXT.cancel}
          </button>
        </div>
      </form>
    </section>
  );
}
