// Admin console tab 'Segnalazioni' (moderators see only this one): filter Aperta/Risolta, open first
// then newest, CSV export, 'Segna risolta', 'Apri' (edit the question and the report), bulk delete.
import { useState } from "react";
import { useSearchParams } from "react-router";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { downloadCsv, toCsv } from "~/lib/csv";
import { ErrorText, formatDateTime, Loading, T, TableWrap, useBulkSelection, useSave } from "./admin-shared";
import { QuestionFields, useQuestion, useSaveQuestion, type EditableQuestion } from "./QuestionEditor";

export type AdminReport = {
  id: number;
  questionId: number;
  attemptId: number | null;
  byUser: string;
  reason: string;
  message: string;
  status: string;
  state: "open" | "resolved";
  createdAt: string;
  updatedAt: string | null;
  userAnswerKey: string | null;
  assignedScore: number | null;
  adminNotes: string | null;
  questionText: string;
};

const STATE_LABEL = { open: "Aperta", resolved: "Risolta" } as const;
const STATUS_DETAIL: Record<string, string> = { open: "Aperta", in_review: "In revisione", resolved: "Risolta" };

const CSV_COLUMNS = [
  { key: "id", label: "ID" },
  { key: "questionId", label: "Domanda" },
  { key: "questionText", label: "Testo domanda" },
  { key: "byUser", label: "Utente" },
  { key: "message", label: "Messaggio" },
  { key: "stateLabel", label: "Stato" },
  { key: "createdAt", label: "Creata il" },
  { key: "userAnswerKey", label: "Risposta utente" },
  { key: "assignedScore", label: "Punteggio assegnato" },
] as const;

function ReportDialog({ report, onClose, onSaved }: { report: AdminReport; onClose: () => void; onSaved: () => void }) {
  const toast = useToast();
  const { question, setQuestion, error } = useQuestion(report.questionId);
  const [original, setOriginal] = useState<string | null>(null);
  const [answerKey, setAnswerKey] = useState(report.userAnswerKey ?? "");
  const [score, setScore] = useState(report.assignedScore == null ? "" : String(report.assignedScore));
  const [status, setStatus] = useState("");
  const saving = useSave();
  const saveQuestion = useSaveQuestion();
  const { call } = useFormAction("/admin/segnalazioni");
  if (question && original === null) setOriginal(JSON.stringify(question));

  const save = () =>
    saving.run(async () => {
      if (question && JSON.stringify(question) !== original)
        await saveQuestion(report.questionId, question as EditableQuestion);
      // Without a forced status, saving moves an open report to in_review (spec section 4).
      succeeded(
        await call({
          intent: "update-report",
          id: report.id,
          userAnswerKey: answerKey.trim() || null,
          assignedScore: score.trim() === "" ? null : Number(score.replace(",", ".")),
          status: status || null,
        }),
        T.saveError,
      );
      toast(T.reportUpdated, "success");
      onSaved();
    });

  return (
    <Modal
      title={`Segnalazione ${report.id} – domanda ${report.questionId}`}
      onClose={onClose}
      maxWidth={860}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Annulla
          </button>
          <button type="button" className="btn btn--primary" onClick={() => void save()} disabled={saving.busy}>
            Salva
          </button>
        </>
      }
    >
      <p>
        <strong>{report.byUser}</strong> · {formatDateTime(report.createdAt)} ·{" "}
        {STATUS_DETAIL[report.status] ?? report.status}
      </p>
      <blockquote className="alert">{report.message}</blockquote>
      <h3>Domanda</h3>
      {error ? <ErrorText message={error} /> : null}
      {!question && !error ? <Loading /> : null}
      {question ? <QuestionFields id={report.questionId} value={question} onChange={setQuestion} /> : null}
      <h3>Segnalazione</h3>
      <div className="adm-form">
        <label className="adm-field">
          <span>Risposta dell'utente (userAnswerKey)</span>
          <input value={answerKey} onChange={(e) => setAnswerKey(e.target.value)} maxLength={200} />
        </label>
        <label className="adm-field">
          <span>Punteggio assegnato (0-31)</span>
          <input type="number" min={0} max={31} step={0.1} value={score} onChange={(e) => setScore(e.target.value)} />
        </label>
        <label className="adm-field">
          <span>Stato</span>
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">{report.status === "open" ? "Automatico (passa a In revisione)" : "Invariato"}</option>
            <option value="open">Aperta</option>
            <option value="in_review">In revisione</option>
            <option value="resolved">Risolta</option>
          </select>
        </label>
      </div>
      {saving.error ? <ErrorText message={saving.error} /> : null}
    </Modal>
  );
}

/**
 * `reports`: the tab loader's list (/admin/segnalazioni?stato=…), filtered by the URL and reloaded by React Router
 * after each write to the tab's action.
 */
export function SegnalazioniTab({ reports: list }: { reports: AdminReport[] }) {
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const stato = params.get("stato");
  const filter = stato === "open" || stato === "resolved" ? stato : "";
  const setFilter = (next: string) =>
    setParams(next ? { stato: next } : {}, { replace: true, preventScrollReset: true });
  const [opened, setOpened] = useState<AdminReport | null>(null);
  const remove = useFormAction<{ failed: number }>("/admin/segnalazioni").call;
  const { selected, allSelected, toggleAll, toggle, deleteSelected } = useBulkSelection(list, async (ids) =>
    succeeded(await remove({ intent: "delete", ids })),
  );

  const { call } = useFormAction("/admin/segnalazioni");
  const resolve = async (report: AdminReport) => {
    try {
      succeeded(await call({ intent: "resolve", id: report.id }));
      toast(T.reportResolved, "success");
    } catch {
      toast(T.saveError, "error");
    }
  };

  const exportCsv = () => {
    downloadCsv(
      "segnalazioni.csv",
      toCsv(
        list.map((r) => ({ ...r, stateLabel: STATE_LABEL[r.state] })),
        [...CSV_COLUMNS],
      ),
    );
  };

  return (
    <div>
      <div className="adm-toolbar">
        <label className="adm-field">
          <span>Stato</span>
          <select value={filter} onChange={(e) => setFilter(e.target.value)}>
            <option value="">Tutte</option>
            <option value="open">Aperta</option>
            <option value="resolved">Risolta</option>
          </select>
        </label>
        <span className="adm-toolbar__spacer" />
        <button type="button" className="btn" onClick={exportCsv} disabled={!list.length}>
          Esporta CSV
        </button>
        <button type="button" className="btn" onClick={() => void deleteSelected()} disabled={!selected.size}>
          Elimina selezionate{selected.size ? ` (${selected.size})` : ""}
        </button>
      </div>
      <TableWrap label="Tabella segnalazioni">
        <table className="adm-table" aria-label="Segnalazioni">
          <thead>
            <tr>
              <th>
                <input
                  type="checkbox"
                  aria-label="Seleziona tutte"
                  checked={allSelected}
                  onChange={(e) => toggleAll(e.target.checked)}
                />
              </th>
              <th className="num">ID</th>
              <th>Domanda</th>
              <th>Utente</th>
              <th>Messaggio</th>
              <th>Stato</th>
              <th>Data</th>
              <th>Azioni</th>
            </tr>
          </thead>
          <tbody>
            {list.length === 0 ? (
              <tr>
                <td colSpan={8} className="muted">
                  {T.noReports}
                </td>
              </tr>
            ) : null}
            {list.map((r) => (
              <tr key={r.id} data-report-id={r.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Seleziona la segnalazione ${r.id}`}
                    checked={selected.has(r.id)}
                    onChange={(e) => toggle(r.id, e.target.checked)}
                  />
                </td>
                <td className="num">{r.id}</td>
                <td>
                  <span className="muted">#{r.questionId}</span>{" "}
                  {r.questionText.length > 80 ? `${r.questionText.slice(0, 80)}…` : r.questionText}
                </td>
                <td>{r.byUser}</td>
                <td>{r.message}</td>
                <td>
                  <span className={`adm-badge ${r.state === "open" ? "adm-badge--warn" : "adm-badge--ok"}`}>
                    {STATE_LABEL[r.state]}
                  </span>
                  {r.status === "in_review" ? <div className="muted small">In revisione</div> : null}
                </td>
                <td>{formatDateTime(r.createdAt)}</td>
                <td>
                  <div className="adm-actions">
                    {r.state === "open" ? (
                      <button
                        type="button"
                        className="btn"
                        onClick={() => void resolve(r)}
                        aria-label={`Segna risolta la segnalazione ${r.id}`}
                      >
                        Segna risolta
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className="btn"
                      onClick={() => setOpened(r)}
                      aria-label={`Apri la segnalazione ${r.id}`}
                    >
                      Apri
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {opened ? <ReportDialog report={opened} onClose={() => setOpened(null)} onSaved={() => setOpened(null)} /> : null}
    </div>
  );
}
