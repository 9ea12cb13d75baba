/** Admin console tab 'Rush': Quiz Rush events, times entered and shown in Europe/Rome. */
import { useId, useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { succeeded } from "~/lib/forms";
import { rushEventInputSchema } from "~/lib/forms/rush-event";
import { issueMessage, labelsOf } from "~/lib/validation";
import { useFormAction } from "~/lib/use-form-action";
import { formatRomeDateTime, fromRomeInputValue, toRomeInputValue } from "~/lib/rush";
import { ErrorText, Field, TableWrap } from "./admin-shared";

export type RushEventRow = { id: number; title: string; startsAt: string; endsAt: string; published: boolean };
type FormState = { title: string; startsAt: string; endsAt: string; published: boolean };
type FormErrors = Partial<Record<keyof FormState, string>>;

const EMPTY: FormState = { title: "", startsAt: "", endsAt: "", published: false };

const TEXT = {
  title: "Eventi Quiz Rush",
  newEvent: "Nuovo evento",
  editing: "Modifica evento",
  fieldTitle: "Titolo",
  fieldStart: "Inizio (ora di Roma)",
  fieldEnd: "Fine (ora di Roma)",
  fieldPublished: "Pubblicato",
  save: "Salva",
  cancelEdit: "Annulla modifica",
  saved: "Salvato",
  saveError: "Errore salvataggio",
  deleted: "Eliminato",
  deleteError: "Errore eliminazione",
  confirmDelete: "Eliminare evento?",
  confirm: "Elimina",
  cancel: "Annulla",
  edit: "Modifica",
  remove: "Elimina",
  empty: "Nessun evento Rush",
  yes: "Sì",
  no: "No",
} as const;

/** The form checked by the server's own schema (app/lib/forms/rush-event.ts): the same rules and Italian messages. */
export function validateRushForm(form: FormState): FormErrors {
  const parsed = rushEventInputSchema.safeParse(form);
  const errors: FormErrors = {};
  if (parsed.success) return errors;
  const labels = labelsOf(rushEventInputSchema);
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof FormState;
    errors[key] ??= issueMessage(issue, labels);
  }
  return errors;
}

/** `rows`: the tab loader's list (/admin/rush), which reloads by itself after each write to the tab's action. */
export function RushTab({ rows }: { rows: RushEventRow[] }) {
  const toast = useToast();
  const write = useFormAction("/admin/rush").call;
  const formId = useId();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [toDelete, setToDelete] = useState<RushEventRow | null>(null);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  function resetForm() {
    setForm(EMPTY);
    setEditingId(null);
    setErrors({});
    setServerError(null);
  }

  function edit(row: RushEventRow) {
    setForm({
      title: row.title,
      startsAt: toRomeInputValue(Date.parse(row.startsAt)),
      endsAt: toRomeInputValue(Date.parse(row.endsAt)),
      published: row.published,
    });
    setEditingId(row.id);
    setErrors({});
    setServerError(null);
    document.getElementById(`${formId}-title`)?.focus();
  }

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const found = validateRushForm(form);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    const body = {
      title: form.title.trim(),
      startsAt: new Date(fromRomeInputValue(form.startsAt)!).toISOString(),
      endsAt: new Date(fromRomeInputValue(form.endsAt)!).toISOString(),
      published: form.published,
    };
    try {
      succeeded(await write({ intent: "save-event", id: editingId, event: body }), TEXT.saveError);
      toast(TEXT.saved, "success");
      resetForm();
    } catch (error) {
      toast(TEXT.saveError, "error");
      setServerError(error instanceof Error ? error.message : TEXT.saveError);
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    const row = toDelete;
    if (!row) return;
    setToDelete(null);
    try {
      succeeded(await write({ intent: "delete", id: row.id }), TEXT.deleteError);
      if (editingId === row.id) resetForm();
      toast(TEXT.deleted, "success");
    } catch {
      toast(TEXT.deleteError, "error");
    }
  }

  const errorId = (key: keyof FormState) => `${formId}-${key}-error`;
  const invalid = (key: keyof FormState) =>
    errors[key] ? { "aria-invalid": true, "aria-describedby": errorId(key) } : {};

  return (
    <div className="adm-grid">
      <section className="adm-card" aria-labelledby={`${formId}-form`}>
        <h2 id={`${formId}-form`}>{editingId == null ? TEXT.newEvent : TEXT.editing}</h2>
        <form
          className="adm-form"
          onSubmit={save}
          noValidate
          aria-label={editingId == null ? TEXT.newEvent : TEXT.editing}
        >
          <Field label={TEXT.fieldTitle} error={errors.title} errorId={errorId("title")} wide>
            <input
              id={`${formId}-title`}
              type="text"
              value={form.title}
              maxLength={120}
              onChange={(e) => set("title", e.target.value)}
              {...invalid("title")}
            />
          </Field>
          <Field label={TEXT.fieldStart} error={errors.startsAt} errorId={errorId("startsAt")}>
            <input
              type="datetime-local"
              value={form.startsAt}
              onChange={(e) => set("startsAt", e.target.value)}
              {...invalid("startsAt")}
            />
          </Field>
          <Field label={TEXT.fieldEnd} error={errors.endsAt} errorId={errorId("endsAt")}>
            <input
              type="datetime-local"
              value={form.endsAt}
              onChange={(e) => set("endsAt", e.target.value)}
              {...invalid("endsAt")}
            />
          </Field>
          <Field label={TEXT.fieldPublished} check wide>
            <input type="checkbox" checked={form.published} onChange={(e) => set("published", e.target.checked)} />
          </Field>
          {serverError ? (
            <div className="adm-field--wide">
              <ErrorText message={serverError} />
            </div>
          ) : null}
          <div className="adm-actions adm-field--wide">
            <button type="submit" className="btn btn--primary" disabled={saving}>
              {TEXT.save}
            </button>
            {editingId != null ? (
              <button type="button" className="btn" onClick={resetForm}>
                {TEXT.cancelEdit}
              </button>
            ) : null}
          </div>
        </form>
      </section>

      <section className="adm-card" aria-labelledby={`${formId}-list`}>
        <h2 id={`${formId}-list`}>{TEXT.title}</h2>
        {rows.length === 0 ? (
          <p className="muted">{TEXT.empty}</p>
        ) : (
          <TableWrap label={TEXT.title}>
            <table className="adm-table">
              <thead>
                <tr>
                  <th scope="col">Titolo</th>
                  <th scope="col">Inizio</th>
                  <th scope="col">Fine</th>
                  <th scope="col">Pubblicato</th>
                  <th scope="col">Azioni</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} data-event-id={row.id}>
                    <td>{row.title}</td>
                    <td>{formatRomeDateTime(Date.parse(row.startsAt))}</td>
                    <td>{formatRomeDateTime(Date.parse(row.endsAt))}</td>
                    <td>
                      <span className={`adm-badge${row.published ? " adm-badge--ok" : ""}`}>
                        {row.published ? TEXT.yes : TEXT.no}
                      </span>
                    </td>
                    <td>
                      <div className="adm-actions">
                        <button
                          type="button"
                          className="btn"
                          onClick={() => edit(row)}
                          aria-label={`${TEXT.edit} ${row.title}`}
                        >
                          {TEXT.edit}
                        </button>
                        <button
                          type="button"
                          className="btn"
                          onClick={() => setToDelete(row)}
                          aria-label={`${TEXT.remove} ${row.title}`}
                        >
                          {TEXT.remove}
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>

      {toDelete ? (
        <Modal
          title={TEXT.confirmDelete}
          onClose={() => setToDelete(null)}
          maxWidth={440}
          footer={
            <>
              <button type="button" className="btn" onClick={() => setToDelete(null)}>
                {TEXT.cancel}
              </button>
              <button type="button" className="btn btn--primary" onClick={confirmDelete}>
                {TEXT.confirm}
              </button>
            </>
          }
        >
          <p>{toDelete.title}</p>
        </Modal>
      ) : null}
    </div>
  );
}
