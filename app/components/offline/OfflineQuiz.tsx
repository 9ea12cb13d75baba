import { useCallback, useEffect, useMemo, useState } from "react";
import { Link } from "react-router";
import { QuizRunner, type RunnerSubmission } from "~/components/quiz/QuizRunner";
import { CHANGED_EVENT, readQuiz, sendQueued, type StoredQuiz, updateQuiz } from "~/lib/offline-quizzes";
import type { Answers, RunnerQuiz, Spent } from "~/lib/quiz-answers";
import { O } from "./messages";
import { useOnline } from "./use-online";

/** The runner's quiz from the device's copy: its countdown and elapsed time on the device's clock, from its start. */
function runnerQuiz(stored: StoredQuiz, now: number): RunnerQuiz {
  const elapsed = Math.max(0, (now - (stored.startedAt ?? now)) / 1000);
  const limit = stored.copy.timeLimitSec;
  return {
    quizId: stored.quizId,
    timeLimitSec: limit,
    remainingSec: limit != null ? Math.max(0, Math.round(limit - elapsed)) : null,
    elapsedSec: Math.round(elapsed),
    gapBoxes: stored.copy.gapBoxes,
    questions: stored.copy.questions,
  };
}

/**
 * A downloaded quiz in the same runner as any other, with or without network: every answer is written to the device
 * as it is given, 'Consegna' queues the submission (sent now if there is network, else at the next connection), and
 * what the server said stays on screen with the answers.
 */
export function OfflineQuiz({ account, quizId }: { account: number; quizId: number }) {
  const online = useOnline();
  const [stored, setStored] = useState<StoredQuiz | null | undefined>(undefined);
  const [opened] = useState(() => Date.now());

  useEffect(() => {
    let live = true;
    const read = () =>
      void readQuiz(account, quizId)
        .then((q) => live && setStored(q ?? null))
        .catch(() => live && setStored(null));
    // Opened for the first time: its start on this device.
    void updateQuiz(account, quizId, (q) => (q.state === "new" ? { ...q, state: "started", startedAt: Date.now() } : q))
      .catch(() => undefined)
      .finally(read);
    window.addEventListener(CHANGED_EVENT, read);
    return () => {
      live = false;
      window.removeEventListener(CHANGED_EVENT, read);
    };
  }, [account, quizId]);

  // The runner's quiz and what was kept are read once, when it opens: later changes are the runner's own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  const quiz = useMemo(() => (stored ? runnerQuiz(stored, opened) : null), [stored?.quizId, opened]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  const saved = useMemo(
    () => (stored ? { answers: stored.answers, spent: stored.spent } : undefined),
    [stored?.quizId],
  );

  const onSave = useCallback(
    (answers: Answers, spent: Spent) => {
      void updateQuiz(account, quizId, (q) => (q.state === "started" ? { ...q, answers, spent } : q));
    },
    [account, quizId],
  );

  const onSubmit = useCallback(
    (submission: RunnerSubmission) => {
      void updateQuiz(account, quizId, (q) =>
        q.state === "started" ? { ...q, state: "queued", timeTaken: submission.timeTaken } : q,
      ).then(() => sendQueued(account));
    },
    [account, quizId],
  );

  if (stored === undefined) return <p role="status">Caricamento…</p>;
  if (stored === null || !quiz) {
    return (
      <section className="page practice-stack">
        <p className="alert alert--error" role="alert">
          {O.runnerNotFound}
        </p>
        <p>
          <Link className="btn" to="/test/nuovo">
            Nuovo test
          </Link>
        </p>
      </section>
    );
  }

  const notice = (
    <div className="practice-stack">
      <p className="chip" data-testid="offline-runner">
        {O.runnerBadge}
      </p>
      {stored.state === "queued" ? (
        <p className="notice" role="status">
          {O.queued}
        </p>
      ) : null}
      {stored.state === "sent" ? (
        <p className="notice" role="status">
          {O.sentNow} {stored.attemptId ? <Link to={`/test/riepilogo/${stored.attemptId}`}>{O.seeSummary}</Link> : null}
        </p>
      ) : null}
      {stored.state === "refused" ? (
        <div className="alert alert--error" role="alert">
          <strong>{O.refusedTitle}</strong>: {stored.refusal} {O.refusedKept}
        </div>
      ) : null}
    </div>
  );

  return (
    <QuizRunner
      key={stored.quizId}
      quiz={quiz}
      saved={saved}
      onSave={onSave}
      onSubmit={onSubmit}
      submitting={false}
      locked={stored.state !== "started"}
      error={null}
      notice={notice}
      reportNote={online ? null : O.reportOffline}
    />
  );
}
