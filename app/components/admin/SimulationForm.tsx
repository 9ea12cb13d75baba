/** The Simulazioni tab's create / edit form: subjects with time, questions and break, a JSON file per subject, who takes part. */
import { useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { ApiError } from "~/lib/api-client";
import { SIMULATION_ROW_DEFAULT } from "~/lib/constants";
import type { DayTemplate } from "~/lib/edition";
import { RefusedError, succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { Field } from "./admin-shared";
import { AudiencePicker, type Chip } from "./AudiencePicker";
import type { TeacherClass } from "./ClassiTab";
import type { AdminSimulation } from "./SimulazioniTab";

type Row = {
  subjectId: string;
  timeMin: string;
  questionCount: string;
  breakAfterMin: string;
  questions: unknown[] | null;
  fileName: string | null;
};

const FORM_TEXT = {
  missing: "Compila tutti i campi",
  badFile: "File domande non valido",
  created: "Simulazione creata",
  drawShort: "Estrazione per unità incompleta:",
  updated: "Simulazione aggiornata",
  createError: "Errore creazione",
  updateError: "Errore aggiornamento",
} as const;

const newRow = (): Row => ({
  subjectId: "",
  timeMin: String(SIMULATION_ROW_DEFAULT.timeMin),
  questionCount: String(SIMULATION_ROW_DEFAULT.questionCount),
  breakAfterMin: "0",
  questions: null,
  fileName: null,
});

/** The form empty (a new simulation), or filled with the simulation being edited. */
function initialForm(sim: AdminSimulation | null) {
  if (!sim) return { id: "", title: "", rows: [newRow()], users: [] as Chip[], classIds: [] as number[] };
  return {
    id: sim.id,
    title: sim.title,
    users: sim.allowedUserLabels,
    classIds: sim.allowedClasses,
    rows: sim.subjects.map(
      (s): Row => ({
        subjectId: String(s.subjectId),
        timeMin: String(s.timeMin),
        questionCount: String(s.questionCount),
        breakAfterMin: String(s.breakAfterMin),
        questions: s.questions,
        fileName: null,
      }),
    ),
  };
}

/** An id for a new simulation from its title (the teacher may leave the ID field empty). */
function idFromTitle(title: string) {
  const slug = title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(36).padStart(2, "0"))
    .join("")
    .slice(0, 5);
  return `${slug || "simulazione"}-${suffix}`;
}

/**
 * `editing`: the simulation being edited, or null for a new one (the parent keys this form by it, so a new choice
 * starts afresh). Saves post to the tab's action; `onDone` after a successful save or 'Annulla'.
 */
export function SimulationForm({
  editing,
  subjects,
  classes,
  template,
  onDone,
}: {
  editing: AdminSimulation | null;
  subjects: { id: number; name: string }[];
  classes: TeacherClass[];
  template: DayTemplate;
  onDone: () => void;
}) {
  const toast = useToast();
  const write = useFormAction<{ drawNotes?: string[] }>("/admin/simulazioni").call;
  const [form, setForm] = useState(() => initialForm(editing));
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const setRow = (i: number, patch: Partial<Row>) =>
    setForm((f) => ({ ...f, rows: f.rows.map((r, k) => (k === i ? { ...r, ...patch } : r)) }));

  // The default exam edition's day (its subjects, minutes and breaks), read by the tab's loader.
  const applyTemplate = () => {
    setForm((f) => ({
      ...f,
      title: f.title || template.title,
      rows: template.rows.map((r) => ({
        subjectId: String(r.subjectId),
        timeMin: String(r.timeMin),
        questionCount: String(r.questionCount),
        breakAfterMin: String(r.breakAfterMin),
        questions: null,
        fileName: null,
      })),
    }));
  };

  const onFile = async (i: number, file: File | undefined) => {
    if (!file) return;
    try {
      const parsed = JSON.parse(await file.text());
      if (!Array.isArray(parsed)) throw new Error("not an array");
      setRow(i, { questions: parsed, questionCount: String(parsed.length), fileName: file.name });
      setFormError(null);
    } catch {
      setRow(i, { questions: null, fileName: null });
      setFormError(FORM_TEXT.badFile);
      toast(FORM_TEXT.badFile, "error");
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const num = (v: string) => Number(v) || 0;
    const complete =
      form.title.trim() &&
      form.rows.every(
        (r) => r.subjectId && num(r.timeMin) > 0 && (r.questions ? r.questions.length > 0 : num(r.questionCount) > 0),
      );
    if (!complete) {
      setFormError(FORM_TEXT.missing);
      toast(FORM_TEXT.missing, "error");
      return;
    }
    const payload = {
      id: form.id.trim() || idFromTitle(form.title),
      title: form.title.trim(),
      subjects: form.rows.map((r) => ({
        subjectId: num(r.subjectId),
        timeMin: num(r.timeMin),
        breakAfterMin: num(r.breakAfterMin),
        ...(r.questions ? { questions: r.questions } : { questionCount: num(r.questionCount) }),
      })),
      allowedUsers: form.users.map((u) => u.id),
      allowedClasses: form.classIds,
    };
    const failure = editing ? FORM_TEXT.updateError : FORM_TEXT.createError;
    setSaving(true);
    setFormError(null);
    try {
      const saved = succeeded(await write({ intent: "save", ...payload }), failure);
      toast(editing ? FORM_TEXT.updated : FORM_TEXT.created, "success");
      // Units that ran short in the weighted draw: said to the admin, the simulation is saved anyway.
      if (saved?.drawNotes?.length) toast(`${FORM_TEXT.drawShort} ${saved.drawNotes.join(" ")}`, "success");
      setForm(initialForm(null));
      onDone();
    } catch (error) {
      const message =
        error instanceof RefusedError
          ? error.message
          : error instanceof ApiError && error.body.error
            ? String(error.body.error)
            : failure;
      setFormError(message);
      toast(message, "error");
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="adm-sim__form" onSubmit={submit} noValidate>
      <h3>{editing ? `Modifica simulazione ${editing.id}` : "Nuova simulazione"}</h3>
      <div className="adm-sim__fields">
        <Field label="ID (facoltativo)">
          <input
            value={form.id}
            disabled={Boolean(editing)}
            onChange={(e) => setForm((f) => ({ ...f, id: e.target.value }))}
            placeholder="generato dal titolo"
          />
        </Field>
        <Field label="Titolo">
          <input value={form.title} onChange={(e) => setForm((f) => ({ ...f, title: e.target.value }))} />
        </Field>
      </div>
      <button type="button" className="btn" onClick={applyTemplate}>
        Modello Semestre filtro
      </button>
      {form.rows.map((r, i) => (
        <fieldset key={i} className="adm-sim__row">
          <legend>Materia {i + 1}</legend>
          <Field label="Materia">
            <select aria-label="Materia" value={r.subjectId} onChange={(e) => setRow(i, { subjectId: e.target.value })}>
              <option value="">Scegli…</option>
              {subjects.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Minuti">
            <input type="number" min={1} value={r.timeMin} onChange={(e) => setRow(i, { timeMin: e.target.value })} />
          </Field>
          <Field label="Domande">
            <input
              type="number"
              min={1}
              value={r.questionCount}
              disabled={r.questions !== null}
              onChange={(e) => setRow(i, { questionCount: e.target.value })}
            />
          </Field>
          <Field label="Pausa dopo (min)">
            <input
              type="number"
              min={0}
              value={r.breakAfterMin}
              onChange={(e) => setRow(i, { breakAfterMin: e.target.value })}
            />
          </Field>
          <Field label="File domande (JSON)">
            <input type="file" accept="application/json,.json" onChange={(e) => void onFile(i, e.target.files?.[0])} />
          </Field>
          {r.questions ? (
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => setRow(i, { questions: null, fileName: null })}
            >
              Rimuovi file
            </button>
          ) : null}
          {form.rows.length > 1 ? (
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => setForm((f) => ({ ...f, rows: f.rows.filter((_, k) => k !== i) }))}
            >
              Rimuovi materia
            </button>
          ) : null}
        </fieldset>
      ))}
      <button type="button" className="btn" onClick={() => setForm((f) => ({ ...f, rows: [...f.rows, newRow()] }))}>
        Aggiungi materia
      </button>
      <AudiencePicker
        classes={classes}
        users={form.users}
        classIds={form.classIds}
        onUsers={(users) => setForm((f) => ({ ...f, users }))}
        onClasses={(classIds) => setForm((f) => ({ ...f, classIds }))}
      />
      {formError ? (
        <p className="alert alert--error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="adm-actions">
        <button type="submit" className="btn btn--primary" disabled={saving}>
          {editing ? "Salva modifiche" : "Crea simulazione"}
        </button>
        {editing ? (
          <button type="button" className="btn btn--ghost" onClick={onDone}>
            Annulla
          </button>
        ) : null}
      </div>
    </form>
  );
}
