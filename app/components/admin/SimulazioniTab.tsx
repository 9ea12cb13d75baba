/** Admin console tab 'Simulazioni': list (attempts, edit, start, delete) and the create/edit form. */
import { useCallback, useEffect, useState } from "react";
import { formatDateTime } from "~/components/admin/admin-shared";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { ApiError, apiFetch } from "~/lib/api-client";
import { RefusedError, succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { SEMESTRE_FILTRO_TEMPLATE, SIMULATION_ROW_DEFAULT } from "~/lib/constants";
import { AudiencePicker, type Chip } from "./AudiencePicker";
import { ClassResultsDialog } from "./ClassResults";
import "~/styles/admin-simulations.css";

type AdminSimulation = {
  id: string;
  title: string;
  started: boolean;
  startTime: number | null;
  graded: boolean;
  subjects: {
    subjectId: number;
    name: string;
    timeMin: number;
    breakAfterMin: number;
    questionCount: number;
    questions: number[];
  }[];
  allowedUsers: number[];
  allowedClasses: number[];
  allowedUserLabels: Chip[];
  allowedClassLabels: Chip[];
};
type AttemptRow = {
  id: number;
  userId: number;
  userName: string;
  score: number;
  perc: number;
  timeSec: number;
  date: number;
  pos: number;
};
type Row = {
  subjectId: string;
  timeMin: string;
  questionCount: string;
  breakAfterMin: string;
  questions: unknown[] | null;
  fileName: string | null;
};

// The built-in subject list (spec section 7) until /api/subjects answers.
const FALLBACK_SUBJECTS = [
  { id: 1, name: "Biologia" },
  { id: 2, name: "Chimica" },
  { id: 3, name: "Matematica" },
  { id: 4, name: "Fisica" },
  { id: 5, name: "Ragionamento Logico" },
];

const TXT = {
  missing: "Compila tutti i campi",
  badFile: "File domande non valido",
  created: "Simulazione creata",
  drawShort: "Estrazione per unità incompleta:",
  updated: "Simulazione aggiornata",
  deleted: "Simulazione eliminata",
  createError: "Errore creazione",
  updateError: "Errore aggiornamento",
  deleteError: "Errore eliminazione",
  started: "Simulazione avviata",
  startError: "Errore avvio simulazione",
  noAttempts: "Nessun tentativo",
  empty: "Nessuna simulazione: creane una con il modulo qui sotto.",
} as const;

const newRow = (): Row => ({
  subjectId: "",
  timeMin: String(SIMULATION_ROW_DEFAULT.timeMin),
  questionCount: String(SIMULATION_ROW_DEFAULT.questionCount),
  breakAfterMin: "0",
  questions: null,
  fileName: null,
});

const emptyForm = () => ({
  id: "",
  title: "",
  rows: [newRow()],
  users: [] as Chip[],
  classIds: [] as number[],
  editing: false,
});

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

export function SimulazioniTab() {
  const toast = useToast();
  // Writes post to this tab's action (/admin/simulazioni); the lists are the JSON calls', reloaded after.
  const write = useFormAction<{ drawNotes?: string[] }>("/admin/simulazioni").call;
  const [list, setList] = useState<AdminSimulation[] | null>(null);
  const [subjects, setSubjects] = useState(FALLBACK_SUBJECTS);
  const [form, setForm] = useState(emptyForm);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [attempts, setAttempts] = useState<{ id: string; rows: AttemptRow[] | null } | null>(null);
  const [results, setResults] = useState<AdminSimulation | null>(null);

  const reload = useCallback(async () => {
    try {
      setList(await apiFetch<AdminSimulation[]>("/api/admin/simulations"));
    } catch {
      setList([]);
    }
  }, []);

  useEffect(() => {
    void reload();
    apiFetch<{ id: number; name: string }[]>("/api/subjects", { sessionOverlay: false })
      .then((s) => Array.isArray(s) && s.length && setSubjects(s))
      .catch(() => {});
  }, [reload]);

  const setRow = (i: number, patch: Partial<Row>) =>
    setForm((f) => ({ ...f, rows: f.rows.map((r, k) => (k === i ? { ...r, ...patch } : r)) }));

  const applyTemplate = () => {
    const t = SEMESTRE_FILTRO_TEMPLATE;
    setForm((f) => ({
      ...f,
      title: f.title || "Semestre filtro",
      rows: t.subjects.map((subjectId, i) => ({
        subjectId: String(subjectId),
        timeMin: String(t.timeMin),
        questionCount: String(t.mc + t.gap),
        breakAfterMin: String(i < t.subjects.length - 1 ? t.breakAfterMin : 0),
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
      setFormError(TXT.badFile);
      toast(TXT.badFile, "error");
    }
  };

  const edit = (sim: AdminSimulation) => {
    setFormError(null);
    setForm({
      id: sim.id,
      title: sim.title,
      editing: true,
      users: sim.allowedUserLabels,
      classIds: sim.allowedClasses,
      rows: sim.subjects.map((s) => ({
        subjectId: String(s.subjectId),
        timeMin: String(s.timeMin),
        questionCount: String(s.questionCount),
        breakAfterMin: String(s.breakAfterMin),
        questions: s.questions,
        fileName: null,
      })),
    });
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
      setFormError(TXT.missing);
      toast(TXT.missing, "error");
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
    setSaving(true);
    setFormError(null);
    try {
      const saved = succeeded(
        await write({ intent: "save", ...payload }),
        form.editing ? TXT.updateError : TXT.createError,
      );
      toast(form.editing ? TXT.updated : TXT.created, "success");
      // Units that ran short in the weighted draw: said to the admin, the simulation is saved anyway.
      if (saved?.drawNotes?.length) toast(`${TXT.drawShort} ${saved.drawNotes.join(" ")}`, "success");
      setForm(emptyForm());
      await reload();
    } catch (error) {
      const message =
        error instanceof RefusedError
          ? error.message
          : error instanceof ApiError && error.body.error
            ? String(error.body.error)
            : form.editing
              ? TXT.updateError
              : TXT.createError;
      setFormError(message);
      toast(message, "error");
    } finally {
      setSaving(false);
    }
  };

  const start = async (id: string) => {
    try {
      succeeded(await write({ intent: "start", id }), TXT.startError);
      toast(TXT.started, "success");
    } catch (error) {
      toast(error instanceof RefusedError ? error.message : TXT.startError, "error");
    }
    await reload();
  };

  const remove = async (id: string) => {
    setConfirmDelete(null);
    try {
      succeeded(await write({ intent: "delete", id }), TXT.deleteError);
      toast(TXT.deleted, "success");
      if (form.id === id) setForm(emptyForm());
    } catch {
      toast(TXT.deleteError, "error");
    }
    await reload();
  };

  const showAttempts = async (id: string) => {
    setAttempts({ id, rows: null });
    try {
      setAttempts({
        id,
        rows: await apiFetch<AttemptRow[]>(`/api/admin/simulations/${encodeURIComponent(id)}/attempts`),
      });
    } catch {
      setAttempts({ id, rows: [] });
    }
  };

  return (
    <div className="adm-sim">
      <h2>Simulazioni</h2>
      {list === null ? (
        <p className="muted">Caricamento…</p>
      ) : list.length === 0 ? (
        <p className="muted">{TXT.empty}</p>
      ) : (
        <div className="adm-sim__scroll">
          <table className="adm-sim__table">
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Titolo</th>
                <th scope="col">Materie</th>
                <th scope="col">Stato</th>
                <th scope="col">Azioni</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id} data-testid={`sim-row-${s.id}`}>
                  <td>{s.id}</td>
                  <td>{s.title}</td>
                  <td>
                    {s.subjects.map((x) => `${x.name} (${x.timeMin} min, ${x.questionCount} dom.)`).join(" · ")}
                    {s.allowedClassLabels.length ? (
                      <div className="muted small">Classi: {s.allowedClassLabels.map((c) => c.label).join(", ")}</div>
                    ) : null}
                  </td>
                  <td>{s.graded ? "Conclusa" : s.started ? "Avviata" : "Non avviata"}</td>
                  <td className="adm-sim__actions">
                    <button type="button" className="btn" onClick={() => void showAttempts(s.id)}>
                      Tentativi
                    </button>
                    {s.graded && s.allowedClasses.length ? (
                      <button type="button" className="btn" onClick={() => setResults(s)}>
                        Risultati per classe
                      </button>
                    ) : null}
                    <button type="button" className="btn" disabled={s.started} onClick={() => edit(s)}>
                      Modifica
                    </button>
                    <button
                      type="button"
                      className="btn btn--primary"
                      disabled={s.started}
                      onClick={() => void start(s.id)}
                    >
                      Avvia
                    </button>
                    <button type="button" className="btn btn--ghost" onClick={() => setConfirmDelete(s.id)}>
                      Elimina
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <form className="adm-sim__form" onSubmit={submit} noValidate>
        <h3>{form.editing ? `Modifica simulazione ${form.id}` : "Nuova simulazione"}</h3>
        <div className="adm-sim__fields">
          <label>
            ID (facoltativo)
            <input
              value={form.id}
              disabled={form.editing}
              onChange={(e) => setForm((f) => ({ ...f, id: e.target.value }))}
              placeholder="generato dal titolo"
            />
          </label>
          <label>
            Titolo
            <input value={form.title} onChange={(e) => setForm((f) => ({ ...f, title: e.target.value }))} />
          </label>
        </div>
        <button type="button" className="btn" onClick={applyTemplate}>
          Modello Semestre filtro
        </button>
        {form.rows.map((r, i) => (
          <fieldset key={i} className="adm-sim__row">
            <legend>Materia {i + 1}</legend>
            <label>
              Materia
              <select
                aria-label="Materia"
                value={r.subjectId}
                onChange={(e) => setRow(i, { subjectId: e.target.value })}
              >
                <option value="">Scegli…</option>
                {subjects.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Minuti
              <input type="number" min={1} value={r.timeMin} onChange={(e) => setRow(i, { timeMin: e.target.value })} />
            </label>
            <label>
              Domande
              <input
                type="number"
                min={1}
                value={r.questionCount}
                disabled={r.questions !== null}
                onChange={(e) => setRow(i, { questionCount: e.target.value })}
              />
            </label>
            <label>
              Pausa dopo (min)
              <input
                type="number"
                min={0}
                value={r.breakAfterMin}
                onChange={(e) => setRow(i, { breakAfterMin: e.target.value })}
              />
            </label>
            <label>
              File domande (JSON)
              <input
                type="file"
                accept="application/json,.json"
                onChange={(e) => void onFile(i, e.target.files?.[0])}
              />
            </label>
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
        <div className="adm-sim__submit">
          <button type="submit" className="btn btn--primary" disabled={saving}>
            {form.editing ? "Salva modifiche" : "Crea simulazione"}
          </button>
          {form.editing ? (
            <button type="button" className="btn btn--ghost" onClick={() => setForm(emptyForm())}>
              Annulla
            </button>
          ) : null}
        </div>
      </form>

      {confirmDelete ? (
        <Modal
          title="Eliminare la simulazione?"
          onClose={() => setConfirmDelete(null)}
          footer={
            <>
              <button type="button" className="btn btn--ghost" onClick={() => setConfirmDelete(null)}>
                Annulla
              </button>
              <button type="button" className="btn btn--primary" onClick={() => void remove(confirmDelete)}>
                Elimina
              </button>
            </>
          }
        >
          <p>La simulazione «{confirmDelete}» e i suoi tentativi saranno eliminati definitivamente.</p>
        </Modal>
      ) : null}

      {results ? (
        <ClassResultsDialog simulationId={results.id} title={results.title} onClose={() => setResults(null)} />
      ) : null}

      {attempts ? (
        <Modal title={`Tentativi - ${attempts.id}`} onClose={() => setAttempts(null)} maxWidth={760}>
          {attempts.rows === null ? (
            <p className="muted">Caricamento…</p>
          ) : attempts.rows.length === 0 ? (
            <p className="muted">{TXT.noAttempts}</p>
          ) : (
            <table className="adm-sim__table">
              <thead>
                <tr>
                  <th scope="col">Posizione</th>
                  <th scope="col">Utente</th>
                  <th scope="col">Punteggio</th>
                  <th scope="col">Corrette</th>
                  <th scope="col">Tempo</th>
                  <th scope="col">Data</th>
                </tr>
              </thead>
              <tbody>
                {attempts.rows.map((a) => (
                  <tr key={a.id}>
                    <td>#{a.pos}</td>
                    <td>{a.userName}</td>
                    <td>{a.score}/31</td>
                    <td>{a.perc}%</td>
                    <td>{Math.round(a.timeSec / 60)} min</td>
                    <td>{formatDateTime(a.date)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Modal>
      ) : null}
    </div>
  );
}
