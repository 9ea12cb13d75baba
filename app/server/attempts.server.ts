// Attempts: grading on the server (spec sections 5 and 9), the summary, and the past-attempts list.
// A submission is idempotent: the quiz's attempt is completed once (unique quiz_id and a conditional
// update). POST /api/grade is the submission of the user's open quiz that served the questions (never of
// ids the server did not serve), keyed by an idempotency key (or a hash of the body) for retries.
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { ATTEMPT_LIST_LIMIT } from "~/lib/constants";
import { gapAnswerMatches, gapAnswerTooLong, gradeGapAnswer, normaliseGapAnswer } from "~/lib/gap-answer";
import { listScore, percentCorrect, summaryScore } from "~/lib/scoring";
import { attemptDeadlineSql, attemptOpen } from "~/lib/timer";
import { aggregateStatementsFor } from "./aggregates.server";
import { learningStatements, peerDifficulty, readMemory, readMemoryQuery } from "./learning.server";
import type { Db } from "./db/client.server";
import {
  attemptAnswers,
  attempts,
  questions,
  quizQuestions,
  quizzes,
  statQuestionAccuracy,
  subjects,
  topics,
  type Question,
} from "./db/schema";
import { canReadAttempt } from "./admin/access.server";
import { HttpError, withLabels } from "./errors.server";
import { recordRushResultStatement } from "./rush.server";
import { assertNoneSealed, canSeeKeys, openQuizServing, sealedQuestionIds } from "./sealed.server";

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
      correct: gapAnswerMatches(text, question.acceptedAnswers ?? [], {
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
    sealedQuestionIds(db, userId, now, quizId),
    readMemoryQuery(
      db,
      userId,
      db.select({ id: quizQuestions.questionId }).from(quizQuestions).where(eq(quizQuestions.quizId, quizId)).getSQL(),
    ),
  ]);
  if (!quiz || quiz.userId !== userId) throw new HttpError(404, "Quiz non trovato.");
  if (!attempt) throw new HttpError(404, "Tentativo non trovato.");
  if (attempt.status === "completed") return { attemptId: attempt.id, alreadySubmitted: true };
  if (!attemptOpen(attempt.status, attempt.startedAt.getTime(), quiz.timeLimitSec, now)) {
    throw new HttpError(409, "Tempo scaduto: questo tentativo è stato interrotto e non può più essere consegnato.");
  }
  // Its graded result would tell whether a guess on a sealed question was right.
  assertNoneSealed(
    ordered.map((r) => r.question.id),
    sealed,
  );
  const graded = gradeAnswers(
    ordered.map((r) => r.question),
    body.answers,
  );
  const totals = tally(graded);
  // The time can't exceed what the server saw pass since the quiz was drawn.
  const elapsed = Math.ceil((now - attempt.startedAt.getTime()) / 1000);
  const timeTaken = Math.max(0, Math.min(Math.round(body.timeTaken), elapsed));
  const finishedAt = new Date(now);
  type Statement = Parameters<typeof db.batch>[0][number];
  const statements: Statement[] = [
    db
      .update(attempts)
      .set({
        status: "completed",
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
      startedAt: attempt.startedAt,
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
        timeSec: timeTaken,
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

export type SummaryQuestion = {
  id: number;
  index: number;
  type: "mc" | "gap";
  topic: string | null;
  difficulty: number;
  text: string;
  options: string[];
  correctText: string;
  userText: string | null;
  selectedIndex: number | null;
  answerIndex: number | null;
  score: number;
  timeSec: number;
  correct: boolean | null;
  explanation: string;
  /** The key, explanation and verdict are withheld: the question is sealed for the viewer now (sealed.server.ts). */
  sealed: boolean;
  /** gap: right only thanks to a lenient rule (decimal point, unit typed...): the form the real sheet wants. */
  sheetForm?: string | null;
};

export type AttemptSummary = {
  attemptId: number;
  startedAt: string;
  finishedAt: string | null;
  subjectId: number | null;
  subjectName: string | null;
  rushEventId: number | null;
  score: number;
  listScore: number;
  percentCorrect: number;
  correct: number;
  wrong: number;
  blank: number;
  total: number;
  totalTimeSec: number;
  avgTimeSec: number;
  questions: SummaryQuestion[];
};

export const ATTEMPT_NOT_FOUND = "Tentativo non trovato";

/** The summary of a completed attempt: the owner's, or any for an admin (admin console link). */
export async function attemptSummary(
  db: Db,
  viewer: { id: number; effectiveRole: string },
  attemptId: number,
  now = Date.now(),
): Promise<AttemptSummary> {
  const attempt = await db.select().from(attempts).where(eq(attempts.id, attemptId)).get();
  const visible = attempt && canReadAttempt(viewer, attempt.userId);
  // Answers and explanations exist only for a submitted attempt.
  if (!attempt || !visible || attempt.status !== "completed") throw new HttpError(404, ATTEMPT_NOT_FOUND);
  const [rows, subject, sealed] = await Promise.all([
    db
      .select({ answer: attemptAnswers, question: questions, topicName: topics.name, peer: statQuestionAccuracy })
      .from(attemptAnswers)
      .innerJoin(questions, eq(questions.id, attemptAnswers.questionId))
      .leftJoin(topics, eq(topics.id, questions.topicId))
      .leftJoin(statQuestionAccuracy, eq(statQuestionAccuracy.questionId, questions.id))
      .where(eq(attemptAnswers.attemptId, attemptId))
      .orderBy(asc(attemptAnswers.position))
      .all(),
    attempt.subjectId != null ? db.select().from(subjects).where(eq(subjects.id, attempt.subjectId)).get() : undefined,
    sealedQuestionIds(db, viewer.id, now),
  ]);
  const keys = { attempt, sealed };
  const list = rows.map(({ answer, question, topicName, peer }, index): SummaryQuestion => {
    const options = question.type === "mc" ? (question.options ?? []) : [];
    const correctText =
      question.type === "mc"
        ? (options[question.correctIndex ?? -1] ?? "")
        : (question.acceptedAnswers ?? []).join(" / ");
    const userText =
      question.type === "mc"
        ? answer.optionId != null
          ? (options[answer.optionId] ?? null)
          : null
        : answer.answerText;
    const shown = canSeeKeys(keys, question.id);
    return {
      id: question.id,
      index: index + 1,
      type: question.type,
      topic: topicName,
      difficulty: peerDifficulty(peer?.answered, peer?.correct) ?? question.difficulty,
      text: question.stem,
      options,
      correctText: shown ? correctText : "",
      userText,
      selectedIndex: question.type === "mc" ? answer.optionId : null,
      answerIndex: shown && question.type === "mc" ? question.correctIndex : null,
      score: !shown || answer.correct == null ? 0 : answer.correct ? 1 : -0.1,
      timeSec: answer.timeSec,
      correct: shown ? answer.correct : null,
      explanation: shown ? question.explanation : "",
      sealed: !shown,
      sheetForm:
        shown && question.type === "gap" && answer.correct && answer.answerText
          ? gradeGapAnswer(answer.answerText, {
              accepted: question.acceptedAnswers ?? [],
              measure: question.measure,
              tolerance: question.tolerance,
            }).sheetForm
          : null,
    };
  });
  const total = attempt.total || list.length;
  const totalTimeSec = attempt.timeTaken ?? list.reduce((s, q) => s + q.timeSec, 0);
  return {
    attemptId: attempt.id,
    startedAt: attempt.startedAt.toISOString(),
    finishedAt: attempt.finishedAt?.toISOString() ?? null,
    subjectId: attempt.subjectId,
    subjectName: subject?.name ?? null,
    rushEventId: attempt.rushEventId,
    score: attempt.score ?? summaryScore(attempt.correct, attempt.wrong, total),
    listScore: listScore(attempt.correct, total),
    percentCorrect: percentCorrect(attempt.correct, total),
    correct: attempt.correct,
    wrong: attempt.wrong,
    blank: attempt.blank,
    total,
    totalTimeSec,
    avgTimeSec: total > 0 ? Math.round((totalTimeSec / total) * 10) / 10 : 0,
    questions: list,
  };
}

/** The user's latest completed attempt, for /test/riepilogo without an id. */
export async function latestCompletedAttemptId(db: Db, userId: number): Promise<number | null> {
  const row = await db
    .select({ id: attempts.id })
    .from(attempts)
    .where(and(eq(attempts.userId, userId), eq(attempts.status, "completed")))
    .orderBy(desc(attempts.finishedAt), desc(attempts.id))
    .get();
  return row?.id ?? null;
}

/**
 * Marks drawn-but-never-submitted attempts whose time has passed (timer plus grace, or 3 hours without
 * a timer) as abandoned: one user's, or everybody's when `userId` is omitted (admin lists, analytics).
 */
export function abandonExpiredStatement(db: Db, now: number, userId?: number) {
  const owner = userId == null ? sql`1 = 1` : sql`user_id = ${userId}`;
  return db.run(sql`UPDATE attempts SET status = 'abandoned'
    WHERE ${owner} AND status = 'in_progress'
      AND ${sql.raw(attemptDeadlineSql("started_at", "(SELECT time_limit_sec FROM quizzes WHERE quizzes.id = attempts.quiz_id)"))} < ${now}`);
}

export type AttemptListItem = {
  id: number;
  subjectId: number | null;
  subjectName: string | null;
  date: string;
  topics: string[];
  topicIds: number[];
  /** Drawn in this app (stored quiz): then quizTopicId is the quiz's topic, null meaning all topics. */
  hasQuiz: boolean;
  quizTopicId: number | null;
  correct: number;
  total: number;
  timeSec: number;
  timeLimitSec: number | null;
  status: "completed" | "abandoned";
  /** List score: round(correct/total × 31); null for an abandoned attempt. */
  score: number | null;
};

/** GET /api/attempts: completed and abandoned attempts, newest first (in-progress ones are still running). */
export async function listAttempts(
  db: Db,
  userId: number,
  limit = ATTEMPT_LIST_LIMIT,
  now = Date.now(),
): Promise<AttemptListItem[]> {
  await abandonExpiredStatement(db, now, userId);
  const rows = await db
    .select({
      id: attempts.id,
      subjectId: attempts.subjectId,
      subjectName: subjects.name,
      startedAt: attempts.startedAt,
      correct: attempts.correct,
      total: attempts.total,
      timeTaken: attempts.timeTaken,
      status: attempts.status,
      timeLimitSec: quizzes.timeLimitSec,
      quizTopicId: quizzes.topicId,
      quizId: attempts.quizId,
    })
    .from(attempts)
    .leftJoin(subjects, eq(subjects.id, attempts.subjectId))
    .leftJoin(quizzes, eq(quizzes.id, attempts.quizId))
    .where(and(eq(attempts.userId, userId), inArray(attempts.status, ["completed", "abandoned"])))
    .orderBy(desc(attempts.startedAt), desc(attempts.id))
    .limit(limit)
    .all();
  if (rows.length === 0) return [];
  const topicRows = await db.all<{ attempt_id: number; id: number; name: string }>(sql`
    SELECT x.attempt_id, t.id, t.name FROM (
      SELECT aa.attempt_id, aa.question_id, aa.position FROM attempt_answers aa
        JOIN attempts a ON a.id = aa.attempt_id WHERE a.user_id = ${userId}
      UNION ALL
      SELECT a.id, qq.question_id, qq.position FROM attempts a
        JOIN quiz_questions qq ON qq.quiz_id = a.quiz_id
        WHERE a.user_id = ${userId} AND NOT EXISTS (SELECT 1 FROM attempt_answers aa WHERE aa.attempt_id = a.id)
    ) x JOIN questions q ON q.id = x.question_id JOIN topics t ON t.id = q.topic_id
    ORDER BY x.attempt_id, x.position`);
  const topicsByAttempt = new Map<number, { id: number; name: string }[]>();
  for (const t of topicRows) {
    const list = topicsByAttempt.get(t.attempt_id) ?? [];
    if (!list.some((x) => x.id === t.id)) list.push({ id: t.id, name: t.name });
    topicsByAttempt.set(t.attempt_id, list);
  }
  return rows.map((r) => {
    const ts = topicsByAttempt.get(r.id) ?? [];
    return {
      id: r.id,
      subjectId: r.subjectId,
      subjectName: r.subjectName,
      date: r.startedAt.toISOString(),
      topics: ts.map((t) => t.name),
      topicIds: ts.map((t) => t.id),
      hasQuiz: r.quizId != null,
      quizTopicId: r.quizTopicId,
      correct: r.correct,
      total: r.total,
      timeSec: r.timeTaken ?? 0,
      timeLimitSec: r.timeLimitSec,
      status: r.status === "completed" ? "completed" : "abandoned",
      score: r.status === "completed" ? listScore(r.correct, r.total) : null,
    };
  });
}
