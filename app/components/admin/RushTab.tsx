/** Admin console tab 'Rush': Quiz Rush events, times entered and shown in Europe/Rome. */
import { useCallback, useEffect, useId, useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { apiFetch } from "~/lib/api-client";
import { succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { formatRomeDateTime, fromRomeInputValue, toRomeInputValue } from "~/lib/rush";
import "~/styles/rush.css";

type RushEventRow = { id: number; title: string; startsAt: string; endsAt: string; published: boolean };
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
  loading: "Caricamento…",
  yes: "Sì",
  no: "No",
  titleRequired: "Il titolo è obbligatorio.",
  startInvalid: "Inserisci data e ora di inizio.",
  endInvalid: "Inserisci data e ora di fine.",
  endBeforeStart: "La fine deve essere successiva all'inizio.",
} as const;

/** Client-side check with the same rules as the server (title required, end after start). */
export function validateRushForm(form: FormState): FormErrors {
  const errors: FormErrors = {};
  if (!form.title.trim()) errors.title = TEXT.titleRequired;
  const start = fromRomeInputValue(form.startsAt);
  const end = fromRomeInputValue(form.endsAt);
  if (start == null) errors.startsAt = TEXT.startInvalid;
  if (end == null) errors.endsAt = TEXT.endInvalid;
  else if (start != null && end <= start) errors.endsAt = TEXT.endBeforeStart;
  return errors;
}

export function RushTab() {
  const toast = useToast();
  // Writes post to this tab's action (/admin/rush); the list is the JSON call's, reloaded after.
  const write = useFormAction("/admin/rush").call;
  const formId = useId();
  const [rows, setRows] = useState<RushEventRow[] | null>(null);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [toDelete, setToDelete] = useState<RushEventRow | null>(null);

  const load = useCallback(async () => {
    try {
      const list = await apiFetch<unknown>("/api/admin/rush-events");
      // Spec: the list is expected to be a JSON array; anything else is logged and ignored.
      if (Array.isArray(list)) setRows(list as RushEventRow[]);
      else console.warn("rush events: unexpected answer", list);
    } catch (error) {
      console.warn("rush events: load failed", error);
      setRows((r) => r ?? []);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

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
      await load();
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
      setRows((list) => (list ?? []).filter((r) => r.id !== row.id));
      if (editingId === row.id) resetForm();
      toast(TEXT.deleted, "success");
    } catch {
      toast(TEXT.deleteError, "error");
    }
  }

  const fieldError = (key: keyof FormState) =>
    errors[key] ? (
      <span className="rush-field-error" id={`${formId}-${key}-error`}>
        {errors[key]}
      </span>
    ) : null;
  const describedBy = (key: keyof FormState) => (errors[key] ? `${formId}-${key}-error` : undefined);

  return (
    <div className="rush-admin">
      <h2>{editingId == null ? TEXT.newEvent : TEXT.editing}</h2>
      <form
        className="rush-admin-form"
        onSubmit={save}
        noValidate
        aria-label={editingId == null ? TEXT.newEvent : TEXT.editing}
      >
        <label className="rush-admin-form__wide">
          {TEXT.fieldTitle}
          <input
            id={`${formId}-title`}
            type="text"
            className="input"
            value={form.title}
            maxLength={120}
            onChange={(e) => set("title", e.target.value)}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={describedBy("title")}
          />
          {fieldError("title")}
        </label>
        <label>
          {TEXT.fieldStart}
          <input
            type="datetime-local"
            className="input"
            value={form.startsAt}
            onChange={(e) => set("startsAt", e.target.value)}
            aria-invalid={errors.startsAt ? true : undefined}
            aria-describedby={describedBy("startsAt")}
          />
          {fieldError("startsAt")}
        </label>
        <label>
          {TEXT.fieldEnd}
          <input
            type="datetime-local"
            className="input"
            value={form.endsAt}
            onChange={(e) => set("endsAt", e.target.value)}
            aria-invalid={errors.endsAt ? true : undefined}
            aria-describedby={describedBy("endsAt")}
          />
          {fieldError("endsAt")}
        </label>
        <label className="rush-check rush-admin-form__wide">
          <input type="checkbox" checked={form.published} onChange={(e) => set("published", e.target.checked)} />
          {TEXT.fieldPublished}
        </label>
        {serverError ? (
          <p className="alert alert--error rush-admin-form__wide" role="alert">
            {serverError}
          </p>
        ) : null}
        <div className="rush-admin-actions rush-admin-form__wide">
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

      <h2>{TEXT.title}</h2>
      {rows == null ? (
        <p className="muted">{TEXT.loading}</p>
      ) : rows.length === 0 ? (
        <p className="muted">{TEXT.empty}</p>
      ) : (
        <div className="rush-table-wrap">
          <table className="rush-table">
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
                    <span className={`rush-badge ${row.published ? "rush-badge--yes" : "rush-badge--no"}`}>
                      {row.published ? TEXT.yes : TEXT.no}
                    </span>
                  </td>
                  <td>
                    <div className="rush-admin-actions">
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
        </div>
      )}

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
