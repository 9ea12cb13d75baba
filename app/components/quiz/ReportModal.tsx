import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { Modal } from "~/components/ui/Modal";
import { formError, type FormReply } from "~/lib/forms";
import { REPORT_UNREACHABLE } from "~/lib/forms/texts";

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
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const id = useId();
  // The report posts to /segnalato's action (app/lib/forms/report.ts is the schema of both sides).
  const fetcher = useFetcher<FormReply>();
  const busy = fetcher.state !== "idle";
  const send = () => {
    setError(null);
    const fields: Record<string, string> = { [props.messageField]: message };
    for (const [key, value] of Object.entries(props.payload)) if (value != null) fields[key] = String(value);
    void fetcher.submit(fields, { method: "post", action: "/segnalato" });
  };
  const reply = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!reply) return;
    const refused = formError(reply) ?? (reply.result.status === "success" ? null : props.texts.failedDefault);
    if (refused) {
      setError(props.texts.failedPrefix + (refused === REPORT_UNREACHABLE ? props.texts.failedDefault : refused));
      return;
    }
    if (props.texts.success) setSent(true);
    props.onSent();
    // Only a new reply: the props are the dialog's own.
    // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  }, [reply]);
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
          <textarea
            id={id}
            className="textarea"
            maxLength={2000}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            disabled={busy || sent}
          />
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
