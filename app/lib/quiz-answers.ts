// A practice quiz's answers as the runner keeps them, and the submission they make (issue 47: one shape for the
// online runner, the downloaded quizzes on the device and their queued submission).

/** The runner's copy of a question (the server's PublicQuestion: never a key). */
export type RunnerQuestion = {
  id: number;
  type: "mc" | "gap";
  question_text: string;
  options: { id: number; option_text: string }[];
  difficulty: number;
  topic: string | null;
};

/** What the runner needs of a quiz, online or downloaded. */
export type RunnerQuiz = {
  quizId: number;
  timeLimitSec: number | null;
  /** Seconds left on the timer when the runner opens (null without a timer). */
  remainingSec: number | null;
  /** Seconds already spent when the runner opens. */
  elapsedSec: number;
  gapBoxes: number;
  rushEventId?: number | null;
  questions: RunnerQuestion[];
};

export type Answer = { optionId: number | null; text: string };
export type Answers = Record<number, Answer>;
/** Seconds spent on each question, by id. */
export type Spent = Record<number, number>;

export function isAnswered(a: Answer | undefined): boolean {
  return !!a && (a.optionId != null || a.text.trim() !== "");
}

/** The answers of a submission (POST /api/quiz/{id}/attempt), one per question in the quiz's order. */
export function submissionAnswers(questions: readonly RunnerQuestion[], answers: Answers, spent: Spent) {
  return questions.map((q) => {
    const a = answers[q.id];
    const time_sec = Math.round(spent[q.id] ?? 0);
    return q.type === "mc"
      ? { question_id: q.id, option_id: a?.optionId ?? null, answer_text: null, time_sec }
      : { question_id: q.id, option_id: null, answer_text: a?.text.trim() ? a.text : null, time_sec };
  });
}

/**
 * What became of a sent submission, by the answer's status: taken (2xx); refused for good with the server's reason
 * (a 4xx about the quiz: expired, edited, not found, invalid); or to be sent again later (no network, the session to
 * renew, too many calls, a server error). A refused quiz keeps its answers on the device.
 */
export function sendOutcome(status: number | null): "taken" | "refused" | "retry" {
  if (status == null || status === 401 || status === 403 || status === 408 || status === 423 || status === 429)
    return "retry";
  if (status >= 200 && status < 300) return "taken";
  return status >= 400 && status < 500 ? "refused" : "retry";
}
