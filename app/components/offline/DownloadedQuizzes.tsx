import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { formatDateTime } from "~/components/quiz/messages";
import { ApiError, apiFetch } from "~/lib/api-client";
import { OFFLINE_QUIZZES_KEPT } from "~/lib/constants";
import type { DownloadedCopy, StoredQuiz } from "~/lib/offline-quizzes";
import { CHANGED_EVENT, offlineQuizzes } from "~/lib/offline-store";
import { offlineQuizPath } from "~/lib/offline-routes";
import { O } from "./messages";
import { useOnline } from "./use-online";

/** The downloaded quizzes of `account` on this device, kept up to date as they change (here or in another tab). */
export function useDownloadedQuizzes(account: number): StoredQuiz[] | null {
  const [quizzes, setQuizzes] = useState<StoredQuiz[] | null>(null);
  useEffect(() => {
    const read = () => {
      if (typeof indexedDB === "undefined") return setQuizzes([]);
      void offlineQuizzes()
        .then(({ listQuizzes }) => listQuizzes(account))
        .then(setQuizzes)
        .catch(() => setQuizzes([]));
    };
    read();
    window.addEventListener(CHANGED_EVENT, read);
    return () => window.removeEventListener(CHANGED_EVENT, read);
  }, [account]);
  return quizzes;
}

/** Still to be done or sent: what takes one of the device's places. */
const occupies = (q: StoredQuiz) => q.state === "new" || q.state === "started" || q.state === "queued";

const STATE_TEXT: Record<StoredQuiz["state"], string> = {
  new: O.statusNew,
  started: O.statusStarted,
  queued: O.statusQueued,
  sent: O.statusSent,
  refused: O.statusRefused,
};

/**
 * "Quiz per l'offline": the download button (on /test/nuovo, with the form's settings as `request`; none on
 * /test/offline) and the list of the quizzes on this device, each to start, resume, review or remove.
 */
export function DownloadedQuizzes({ account, request }: { account: number; request?: Record<string, string> | null }) {
  const quizzes = useDownloadedQuizzes(account);
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const full = (quizzes ?? []).filter(occupies).length >= OFFLINE_QUIZZES_KEPT;

  const download = useCallback(async () => {
    if (!request) return;
    setBusy(true);
    setMessage(null);
    try {
      const copy = await apiFetch<DownloadedCopy>("/api/quiz", { method: "POST", json: { ...request, offline: true } });
      const { quizId, subjectName, timeLimitSec, startedAt, expiresAt, gapBoxes, questions } = copy;
      const { keepDownload } = await offlineQuizzes();
      await keepDownload(account, { quizId, subjectName, timeLimitSec, startedAt, expiresAt, gapBoxes, questions });
      // The runner's page, kept now by the service worker for this account: it opens with no network.
      navigator.serviceWorker?.controller?.postMessage({ type: "KEEP_PAGE", path: "/test/offline" });
      setMessage({ text: O.downloaded, error: false });
    } catch (error) {
      setMessage({ text: error instanceof ApiError ? error.message : O.downloadOffline, error: true });
    } finally {
      setBusy(false);
    }
  }, [account, request]);

  return (
    <section className="practice-card practice-stack" aria-labelledby="offline-quizzes-title">
      <h2 id="offline-quizzes-title" style={{ margin: 0, fontSize: "1.1rem" }}>
        {O.downloadTitle}
      </h2>
      {request !== undefined ? (
        <>
          <p className="muted small" style={{ margin: 0 }}>
            {O.downloadHint}
          </p>
          <div>
            <button
              type="button"
              className="btn"
              onClick={() => void download()}
              disabled={busy || !request || !online || full || quizzes == null}
            >
              {busy ? O.downloading : O.download}
            </button>
          </div>
          {!online ? (
            <p className="muted small">{O.downloadOffline}</p>
          ) : !request ? (
            <p className="muted small">{O.downloadNeedsSubject}</p>
          ) : full ? (
            <p className="muted small">{O.downloadFull}</p>
          ) : null}
        </>
      ) : null}
      {message ? (
        <p className={message.error ? "alert alert--error" : "notice"} role={message.error ? "alert" : "status"}>
          {message.text}
        </p>
      ) : null}
      <h3 style={{ margin: 0, fontSize: "1rem" }}>{O.downloadedList}</h3>
      {quizzes && quizzes.length === 0 ? <p className="muted">{O.noneDownloaded}</p> : null}
      <ul className="list" aria-label={O.downloadedList}>
        {(quizzes ?? []).map((q) => (
          <li key={q.quizId} className="list-item" data-testid="downloaded-quiz">
            <div>
              <h4 style={{ margin: 0 }}>
                {q.copy.subjectName ?? "Quiz"} · {O.questions(q.copy.questions.length)}
              </h4>
              <p className="muted small" style={{ margin: 0 }}>
                {O.downloadedOn(formatDateTime(new Date(q.savedAt).toISOString()))}
                {occupies(q) ? ` · ${O.expiresOn(formatDateTime(q.copy.expiresAt))}` : ""}
              </p>
              <span className={`chip${q.state === "refused" ? " chip--bad" : q.state === "sent" ? " chip--ok" : ""}`}>
                {STATE_TEXT[q.state]}
              </span>
              {q.refusal ? <p className="small">{q.refusal}</p> : null}
            </div>
            <div className="row">
              {q.state === "sent" && q.attemptId ? (
                <Link className="btn btn--small" to={`/test/riepilogo/${q.attemptId}`}>
                  {O.seeSummary}
                </Link>
              ) : (
                <a className="btn btn--small" href={offlineQuizPath(q.quizId)}>
                  {q.state === "new" ? O.startOffline : q.state === "started" ? O.resumeOffline : O.seeAnswers}
                </a>
              )}
              {q.state !== "queued" ? (
                <button
                  type="button"
                  className="btn btn--small"
                  onClick={() => {
                    if (q.state === "sent" || window.confirm(O.removeConfirm))
                      void offlineQuizzes().then(({ removeQuiz }) => removeQuiz(account, q.quizId));
                  }}
                >
                  {O.remove}
                </button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
