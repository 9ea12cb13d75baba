import { useId, useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { ApiError, apiFetch } from "~/lib/api-client";

export type ReportTexts = {
  title: string;
  label: string;
  send: string;
  failedPrefix: string;
  failedDefault: string;
  success?: string;
};

/**
 * The report dialog of the runner and of the summary. `onSent` decides what follows a success
 * (the runner closes at once, the summary shows 'Segnalazione inviata ✓' and closes after 0.9 s).
 */
export function ReportModal(props: {
  texts: ReportTexts;
  questionNumber: number;
  payload: Record<string, unknown>;
  messageField: "message" | "note";
  onClose: () => void;
  onSent: () => void;
}) {
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const id = useId();
  const send = async () => {
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/report-question", { method: "POST", json: { ...props.payload, [props.messageField]: message } });
      if (props.texts.success) setSent(true);
      props.onSent();
    } catch (err) {
      setError(props.texts.failedPrefix + (err instanceof ApiError && err.message && err.message !== "Errore di rete" ? err.message : props.texts.failedDefault));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={props.texts.title}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={props.onClose}>
            Annulla
          </button>
          <button type="button" className="btn btn--primary" onClick={send} disabled={busy || sent}>
            {props.texts.send}
          </button>
        </>
      }
    >
      <div className="practice-stack">
        <p className="muted" style={{ margin: 0 }}>
          Domanda {props.questionNumber}
        </p>
        <div className="field">
          <label htmlFor={id}>{props.texts.label}</label>
          <textarea id={id} className="textarea" maxLength={2000} value={message} onChange={(e) => setMessage(e.target.value)} disabled={busy || sent} />
        </div>
        {error ? (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        ) : null}
        {sent && props.texts.success ? (
          <p className="alert" role="status">
            {props.texts.success}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}
