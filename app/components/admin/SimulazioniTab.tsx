/** Admin console tab 'Simulazioni': list (attempts, results per class, edit, start, delete) and the create/edit form. */
import { useState } from "react";
import { rankScoreText } from "~/lib/rank-key";
import { Link, useSearchParams } from "react-router";
import { LIVE_UI } from "~/components/classes/progress-texts";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import type { ClassResult } from "~/lib/class-results";
import { RefusedError, succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { formatDateTime, TableWrap } from "./admin-shared";
import type { Chip } from "./AudiencePicker";
import { ClassResultsDialog } from "./ClassResults";
import type { TeacherClass } from "./ClassiTab";
import type { DayTemplate } from "~/lib/edition";
import { SimulationForm } from "./SimulationForm";
import "~/styles/admin-simulations.css";

export type AdminSimulation = {
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
  /** The ranking score (rankKey) and, for an edition's day, its section. */
  score: number;
  section?: number | null;
  perc: number;
  timeSec: number;
  date: number;
  pos: number;
  percentile?: number;
};

const TXT = {
  deleted: "Simulazione eliminata",
  deleteError: "Errore eliminazione",
  started: "Simulazione avviata",
  startError: "Errore avvio simulazione",
  noAttempts: "Nessun tentativo",
  attemptsRange: (from: number, to: number, total: number) => `Posizioni ${from}–${to} di ${total}`,
  previous: "Precedenti",
  next: "Successivi",
  csv: "Scarica la classifica (CSV)",
  empty: "Nessuna simulazione: creane una con il modulo qui sotto.",
} as const;

/**
 * Everything comes from the tab's loader (/admin/simulazioni): the list, the subjects and classes the form offers,
 * and the dialog the URL opens (?tentativi=ID, ?risultati=ID). React Router reloads it after each write.
 */
export function SimulazioniTab({
  simulations: list,
  subjects,
  classes,
  template,
  attempts,
  results,
}: {
  simulations: AdminSimulation[];
  subjects: { id: number; name: string }[];
  classes: TeacherClass[];
  template: DayTemplate;
  attempts: { id: string; rows: AttemptRow[]; total: number; page: number; pageSize: number } | null;
  results: { id: string; title: string; classes: ClassResult[] } | null;
}) {
  const toast = useToast();
  const write = useFormAction("/admin/simulazioni").call;
  const [editingId, setEditingId] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [, setParams] = useSearchParams();
  const openDialog = (key: "tentativi" | "risultati" | null, id = "", page = 1) =>
    setParams(key ? { [key]: id, ...(page > 1 ? { pagina: String(page) } : {}) } : {}, { preventScrollReset: true });
  const editing = list.find((s) => s.id === editingId) ?? null;

  const start = async (id: string) => {
    try {
      succeeded(await write({ intent: "start", id }), TXT.startError);
      toast(TXT.started, "success");
    } catch (error) {
      toast(error instanceof RefusedError ? error.message : TXT.startError, "error");
    }
  };

  const remove = async (id: string) => {
    setConfirmDelete(null);
    try {
      succeeded(await write({ intent: "delete", id }), TXT.deleteError);
      toast(TXT.deleted, "success");
      if (editingId === id) setEditingId(null);
    } catch {
      toast(TXT.deleteError, "error");
    }
  };

  return (
    <div className="adm-sim">
      <h2>Simulazioni</h2>
      {list.length === 0 ? (
        <p className="muted">{TXT.empty}</p>
      ) : (
        <TableWrap label="Simulazioni">
          <table className="adm-table">
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
                  <td>
                    <div className="adm-actions">
                      {s.started ? (
                        <Link
                          className="btn"
                          to={`/admin/simulazioni/${encodeURIComponent(s.id)}/diretta`}
                          aria-label={LIVE_UI.openLabel(s.title)}
                        >
                          {LIVE_UI.open}
                        </Link>
                      ) : null}
                      <button type="button" className="btn" onClick={() => openDialog("tentativi", s.id)}>
                        Tentativi
                      </button>
                      {s.graded && s.allowedClasses.length ? (
                        <button type="button" className="btn" onClick={() => openDialog("risultati", s.id)}>
                          Risultati per classe
                        </button>
                      ) : null}
                      <button type="button" className="btn" disabled={s.started} onClick={() => setEditingId(s.id)}>
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
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}

      <SimulationForm
        key={editing?.id ?? "new"}
        editing={editing}
        subjects={subjects}
        classes={classes}
        template={template}
        onDone={() => setEditingId(null)}
      />

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
        <ClassResultsDialog title={results.title} classes={results.classes} onClose={() => openDialog(null)} />
      ) : null}

      {attempts ? (
        <Modal title={`Tentativi - ${attempts.id}`} onClose={() => openDialog(null)} maxWidth={760}>
          {attempts.total > 0 ? (
            <div className="adm-actions" data-testid="attempts-pager">
              <span className="muted">
                {TXT.attemptsRange(
                  Math.min(attempts.total, (attempts.page - 1) * attempts.pageSize + 1),
                  Math.min(attempts.total, attempts.page * attempts.pageSize),
                  attempts.total,
                )}
              </span>
              <button
                type="button"
                className="btn btn--ghost"
                disabled={attempts.page <= 1}
                onClick={() => openDialog("tentativi", attempts.id, attempts.page - 1)}
              >
                {TXT.previous}
              </button>
              <button
                type="button"
                className="btn btn--ghost"
                disabled={attempts.page * attempts.pageSize >= attempts.total}
                onClick={() => openDialog("tentativi", attempts.id, attempts.page + 1)}
              >
                {TXT.next}
              </button>
              <a
                className="btn"
                href={`/api/admin/simulations/${encodeURIComponent(attempts.id)}/attempts?format=csv`}
                download
              >
                {TXT.csv}
              </a>
            </div>
          ) : null}
          {attempts.rows.length === 0 ? (
            <p className="muted">{TXT.noAttempts}</p>
          ) : (
            <TableWrap label={`Tentativi - ${attempts.id}`}>
              <table className="adm-table">
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
                      <td>{rankScoreText(a)}</td>
                      <td>{a.perc}%</td>
                      <td>{Math.round(a.timeSec / 60)} min</td>
                      <td>{formatDateTime(a.date)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </Modal>
      ) : null}
    </div>
  );
}
