import { useCallback, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { formError, type FormReply } from "~/lib/forms";
import type { Answers } from "~/lib/quiz-answers";
import type { DrawnQuiz } from "~/server/quiz.server";
import { T } from "./messages";
import { QuizRunner, type RunnerSubmission } from "./QuizRunner";

function storageKey(quizId: number) {
  return `quiz_answers_${quizId}`;
}

function readSaved(quizId: number): Answers {
  try {
    return JSON.parse(localStorage.getItem(storageKey(quizId)) ?? "{}") as Answers;
  } catch {
    return {}; // storage unavailable or unreadable: start empty
  }
}

function keep(quizId: number, answers: Answers) {
  try {
    localStorage.setItem(storageKey(quizId), JSON.stringify(answers));
  } catch {
    // storage unavailable: answers stay in memory
  }
}

/**
 * A quiz served by the server (/test?id=): the answers are kept in this browser's storage, and 'Consegna' posts to the
 * /test route's action, which grades it and redirects to the summary. A submission that fails (offline, refused) keeps
 * the answers and says why: an online quiz is never queued, since it must reach the server before its deadline.
 */
export function OnlineQuiz({ quiz }: { quiz: DrawnQuiz }) {
  const sender = useFetcher<FormReply>();
  const [saved, setSaved] = useState<{ answers: Answers } | undefined>(undefined);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [latest, setLatest] = useState<Answers>({});
  useEffect(() => setSaved({ answers: readSaved(quiz.quizId) }), [quiz.quizId]);

  const onSave = useCallback(
    (answers: Answers) => {
      setLatest(answers);
      keep(quiz.quizId, answers);
    },
    [quiz.quizId],
  );

  const onSubmit = useCallback(
    (submission: RunnerSubmission) => {
      setSubmitting(true);
      setError(null);
      const body = {
        ...submission,
        quizId: quiz.quizId,
        ...(quiz.rushEventId ? { rushEventId: quiz.rushEventId } : {}),
      };
      // The saved copy goes with the submission; a refusal puts it back (below).
      localStorage.removeItem(storageKey(quiz.quizId));
      void sender.submit(body, { method: "post", action: `/test?id=${quiz.quizId}`, encType: "application/json" });
    },
    [quiz.quizId, quiz.rushEventId, sender],
  );

  // A refused or failed submission: the server's message (or the network one), the answers saved again, the
  // controls back. A successful one has redirected to the summary.
  const reply = sender.state === "idle" ? sender.data : undefined;
  // Only a new reply: the answers change while the student goes on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!reply) return;
    setError(formError(reply) ?? T.submitError);
    setSubmitting(false);
    keep(quiz.quizId, latest);
  }, [reply, quiz.quizId]);

  return (
    <QuizRunner quiz={quiz} saved={saved} onSave={onSave} onSubmit={onSubmit} submitting={submitting} error={error} />
  );
}
