// Attempts: grading on the server (spec sections 5 and 9). The summary and the past-attempts list are read by
// attempt-reads.server.ts.
// A submission is idempotent: the quiz's attempt is completed once (unique quiz_id and a conditional
// update). POST /api/grade is the submission of the user's open quiz that served the questions (never of
// ids the server did not serve), keyed by an idempotency key (or a hash of the body) for retries.
import { and, asc, eq, type SQL } from "drizzle-orm";
import { gapAnswerTooLong, gapVerdict, normaliseGapAnswer } from "~/lib/gap-answer";
import { summaryScore } from "~/lib/scoring";
import { attemptOpen } from "~/lib/timer";
import { aggregateStatementsFor } from "./aggregates.server";
import { learningStatements, readMemoryQuery } from "./learning.server";
import type { Db } from "./db/client.server";
import { attemptAnswers, attempts, questions, quizQuestions, quizzes, type Question } from "./db/schema";
import { HttpError } from "./errors.server";
import { recordRushResultStatement } from "./rush.server";
import { assertNoneSealed, openQuizServing, readSeal } from "~/server/simulation/seal.server";
import { assertAsDownloaded, submissionTimes } from "./offline-quizzes.server";

export { answerSchema, submissionSchema, type Submission } from "~/lib/forms/quiz-submission";
import type { Submission } from "~/lib/forms/quiz-submission";

type GradedAnswer = {
  position: number;
  question: Question;
  optionId: number | null;
  answerText: string | null;
  correct: boolean | null;
  timeSec: number;
};

/** Grades the answers against the questions in their order. Rejects answers that do not fit (400). */
export function gradeAnswers(ordered: Question[], answers: Submission["answers"]): GradedAnswer[] {
  const index = new Map(ordered.map((q, i) => [q.id, i]));
  const byQuestion = new Map<number, Submission["answers"][number]>();
  for (const answer of answers) {
    const position = index.get(answer.question_id);
    if (position === undefined)
      throw new HttpError(400, `La domanda ${answer.question_id} non fa parte di questo quiz.`);
    if (byQuestion.has(answer.question_id))
      throw new HttpError(400, `Risposta ripetuta per la domanda ${answer.question_id}.`);
    const q = ordered[position]!;
    if (q.type === "mc" && answer.option_id != null && answer.option_id >= (q.options?.length ?? 0)) {
      throw new HttpError(400, `Opzione non valida per la domanda ${position + 1}.`);
    }
    if (q.type === "gap" && answer.answer_text != null && gapAnswerTooLong(answer.answer_text)) {
      throw new HttpError(400, `La risposta alla domanda ${position + 1} supera i 50 caratteri.`);
    }
    byQuestion.set(answer.question_id, answer);
  }
  return ordered.map((question, position) => {
    const answer = byQuestion.get(question.id);
    const timeSec = Math.round(answer?.time_sec ?? 0);
    if (question.type === "mc") {
      const optionId = answer?.option_id ?? null;
      return {
        position,
        question,
        optionId,
        answerText: null,
        correct: optionId == null ? null : optionId === question.correctIndex,
        timeSec,
      };
    }
    const text = answer?.answer_text != null ? normaliseGapAnswer(answer.answer_text) : "";
    if (!text) return { position, question, optionId: null, answerText: null, correct: null, timeSec };
    return {
      position,
      question,
      optionId: null,
      answerText: text,
      correct: gapVerdict(text, {
        accepted: question.acceptedAnswers ?? [],
        measure: question.measure,
        tolerance: question.tolerance,
      }),
      timeSec,
    };
  });
}

function tally(graded: GradedAnswer[]) {
  const total = graded.length;
  const correct = graded.filter((g) => g.correct === true).length;
  const wrong = graded.filter((g) => g.correct === false).length;
  return { total, correct, wrong, blank: total - correct - wrong, score: summaryScore(correct, wrong, total) };
}

/** What the learning engine needs of each graded answer (blanks included: they count as Again). */
function learnedAnswers(graded: GradedAnswer[]) {
  return graded.map((g) => ({ questionId: g.question.id, correct: g.correct, timeSec: g.timeSec }));
}

/** D1 binds at most 100 parameters per statement: 8 per answer row, so 12 rows per insert. */
const ANSWER_ROWS_PER_INSERT = 12;

function answerRows(db: Db, attemptId: number | SQL<number>, graded: GradedAnswer[], answeredAt: number) {
  const chunks: GradedAnswer[][] = [];
  for (let i = 0; i < graded.length; i += ANSWER_ROWS_PER_INSERT)
    chunks.push(graded.slice(i, i + ANSWER_ROWS_PER_INSERT));
  return chunks.map((chunk) =>
    db.insert(attemptAnswers).values(
      chunk.map((g) => ({
        attemptId,
        position: g.position,
        questionId: g.question.id,
        optionId: g.optionId,
        answerText: g.answerText,
        correct: g.correct,
        timeSec: g.timeSec,
        answeredAt: new Date(answeredAt),
      })),
    ),
  );
}

function isUniqueViolation(error: unknown): boolean {
  const text = String((error as { cause?: unknown })?.cause ?? "") + String((error as Error)?.message ?? "");
  return /UNIQUE constraint failed/i.test(text);
}

/**
 * POST /api/quiz/{id}/attempt: completes the quiz's attempt once; a retry answers the same attemptId.
 * `idempotencyKey` (POST /api/grade) is stored on the attempt so that a retry of that call finds it.
 */
export async function submitQuizAttempt(
  db: Db,
  userId: number,
  quizId: number,
  body: Submission,
  now = Date.now(),
  options: { idempotencyKey?: string } = {},
) {
  // Quiz, attempt, questions, the user's seal and memory of them in parallel: one round trip of latency.
  const [quiz, attempt, ordered, sealed, memory] = await Promise.all([
    db.select().from(quizzes).where(eq(quizzes.id, quizId)).get(),
    db.select().from(attempts).where(eq(attempts.quizId, quizId)).get(),
    db
      .select({ question: questions })
      .from(quizQuestions)
      .innerJoin(questions, eq(questions.id, quizQuestions.questionId))
      .where(eq(quizQuestions.quizId, quizId))
      .orderBy(asc(quizQuestions.position))
      .all(),
    readSeal(db, userId, now, quizId),
    readMemoryQuery(
      db,
      userId,
      db.select({ id: quizQuestions.questionId }).from(quizQuestions).where(eq(quizQuestions.quizId, quizId)).getSQL(),
    ),
  ]);
  if (!quiz || quiz.userId !== userId) throw new HttpError(404, "Quiz non trovato.");
  if (!attempt) throw new HttpError(404, "Tentativo non trovato.");
  if (attempt.status === "completed") return { attemptId: attempt.id, alreadySubmitted: true };
  if (!attemptOpen(attempt.status, attempt.startedAt.getTime(), quiz.timeLimitSec, attempt.offline, now)) {
    throw new HttpError(409, "Tempo scaduto: questo tentativo è stato interrotto e non può più essere consegnato.");
  }
  // Its graded result would tell whether a guess on a sealed question was right.
  assertNoneSealed(
    ordered.map((r) => r.question.id),
    sealed,
  );
  // A downloaded quiz is graded only as it was downloaded (offline-quizzes.server.ts).
  if (attempt.offline)
    await assertAsDownloaded(
      quiz.offlineHash,
      ordered.map((r) => r.question),
    );
  const graded = gradeAnswers(
    ordered.map((r) => r.question),
    body.answers,
  );
  const totals = tally(graded);
  // The time can't exceed what the server saw pass since the quiz was drawn (offline: since the device's start).
  const { startedAt, timeTaken } = submissionTimes(attempt.startedAt, body, attempt.offline, now);
  const finishedAt = new Date(now);
  type Statement = Parameters<typeof db.batch>[0][number];
  const statements: Statement[] = [
    db
      .update(attempts)
      .set({
        status: "completed",
        startedAt,
        finishedAt,
        timeTaken,
        ...totals,
        ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      })
      .where(and(eq(attempts.id, attempt.id), eq(attempts.status, "in_progress"))),
    // A concurrent second submission fails here (unique attempt/position) and rolls back entirely.
    ...answerRows(db, attempt.id, graded, now),
    ...aggregateStatementsFor(db, {
      subjectId: attempt.subjectId,
      startedAt,
      correct: totals.correct,
      total: totals.total,
      score: totals.score,
      answers: graded
        .filter((g) => g.correct != null)
        .map((g) => ({ topicId: g.question.topicId, correct: g.correct === true })),
    }),
    ...learningStatements(db, userId, learnedAnswers(graded), memory, now),
  ];
  if (quiz.rushEventId && quiz.subjectId != null) {
    statements.push(
      recordRushResultStatement(db, {
        userId,
        eventId: quiz.rushEventId,
        subjectId: quiz.subjectId,
        attemptId: attempt.id,
        score: totals.score,
        // A Rush ranks ties by time: the server's own measure from the draw, never a number the client sends (issue 44).
        // (A Rush quiz is never downloaded: its start is the draw's.)
        timeSec: Math.ceil((now - attempt.startedAt.getTime()) / 1000),
        finishedAt,
      }),
    );
  }
  try {
    await db.batch(statements as [Statement, ...Statement[]]);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const again = await db
      .select({ id: attempts.id, status: attempts.status })
      .from(attempts)
      .where(eq(attempts.id, attempt.id))
      .get();
    if (again?.status === "completed") return { attemptId: again.id, alreadySubmitted: true };
    throw error;
  }
  return { attemptId: attempt.id, alreadySubmitted: false };
}

async function bodyKey(body: Submission): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(JSON.stringify([body.answers, body.timeTaken])),
  );
  return "h:" + [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * POST /api/grade (the spec's body, "when no quiz id"): the submission of the user's open quiz that served
 * these questions, with the same result and idempotency as POST /api/quiz/{id}/attempt. Questions the
 * server did not serve to this user in an open quiz are a 409, and nothing is written.
 */
export async function gradeServedQuiz(db: Db, userId: number, body: Submission, now = Date.now()) {
  if (body.answers.length === 0) throw new HttpError(400, "Nessuna risposta da valutare: serve almeno una domanda.");
  const key = body.idempotencyKey ?? (await bodyKey(body));
  const existing = await db
    .select({ id: attempts.id })
    .from(attempts)
    .where(and(eq(attempts.userId, userId), eq(attempts.idempotencyKey, key)))
    .get();
  if (existing) return { attemptId: existing.id, alreadySubmitted: true };
  const quizId = await openQuizServing(
    db,
    userId,
    body.answers.map((a) => a.question_id),
    now,
  );
  return submitQuizAttempt(db, userId, quizId, body, now, { idempotencyKey: key });
}
