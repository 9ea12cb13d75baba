// Reading attempts: the summary of one (spec section 5, keys shown only once it is submitted), the student's
// past-attempts list, and the clean-up that marks expired drawn quizzes as abandoned before a list is read.
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { ATTEMPT_LIST_LIMIT } from "~/lib/constants";
import { type ExamGrade, fullPaperGrade } from "~/lib/edition";
import { editionOrDefault } from "./editions.server";
import { gradeGapAnswer, wrongAnswerHint } from "~/lib/gap-answer";
import { listScore, percentCorrect, summaryScore } from "~/lib/scoring";
import { attemptDeadlineSql } from "~/lib/timer";
import { peerDifficulty } from "./learning-advice.server";
import type { Db } from "./db/client.server";
import { attemptAnswers, attempts, questions, quizzes, statQuestionAccuracy, subjects, topics } from "./db/schema";
import { canReadAttempt } from "./admin/access.server";
import { HttpError } from "./errors.server";
import {
  byAttempt,
  canSeeKeys,
  readSeal,
  readSealedHistory,
  servedAttempt,
  visibleTotals,
  type SealReason,
  type VisibleTotals,
} from "~/server/simulation/seal.server";

export type SummaryQuestion = {
  id: number;
  index: number;
  type: "mc" | "gap";
  topic: string | null;
  difficulty: number;
  text: string;
  options: string[];
  correctText: string;
  /** The student's own answer: null when blank, or withheld while the question is sealed. */
  userText: string | null;
  selectedIndex: number | null;
  answerIndex: number | null;
  /** +1, −0.1 or 0; null when the verdict is withheld. */
  score: number | null;
  timeSec: number;
  correct: boolean | null;
  explanation: string;
  /** Key, explanation, verdict and own answer are withheld: the question is sealed now (simulation/seal.server.ts). */
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
  /** Questions counted in the totals: without the sealed ones, while any is. */
  total: number;
  /** Questions left out of the totals because they are sealed (the result is partial until the seal lifts). */
  hidden: number;
  partial: SealReason | null;
  totalTimeSec: number;
  avgTimeSec: number;
  /** The exam edition the attempt was drawn in (a whole-subject draw of a semestre filtro subject), else null. */
  edition: { id: number; label: string; academicYear: string; provisional: boolean } | null;
  /** A full paper of its edition: the exam's grade out of 30 (issue 29); null otherwise or while partial. */
  grade: ExamGrade | null;
  questions: SummaryQuestion[];
};

/** Scores of visible totals: the stored score unless some questions are left out (then recomputed without them). */
function scoresOf(stored: number | null, totals: VisibleTotals) {
  return {
    score: totals.partial || stored == null ? summaryScore(totals.correct, totals.wrong, totals.total) : stored,
    listScore: listScore(totals.correct, totals.total),
    percentCorrect: percentCorrect(totals.correct, totals.total),
  };
}

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
  const [rows, subject, seal, edition] = await Promise.all([
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
    readSeal(db, viewer.id, now),
    attempt.editionId != null ? editionOrDefault(db, attempt.editionId).catch(() => null) : null,
  ]);
  const view = { served: servedAttempt(attempt), seal };
  const list = rows.map(({ answer, question, topicName, peer }, index): SummaryQuestion => {
    const options = question.type === "mc" ? (question.options ?? []) : [];
    const correctText =
      question.type === "mc"
        ? (options[question.correctIndex ?? -1] ?? "")
        : (question.acceptedAnswers ?? []).join(" / ");
    const access = canSeeKeys(view, question.id);
    const shown = access.keys;
    const userText = !access.ownAnswer
      ? null
      : question.type === "mc"
        ? answer.optionId != null
          ? (options[answer.optionId] ?? null)
          : null
        : answer.answerText;
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
      selectedIndex: access.ownAnswer && question.type === "mc" ? answer.optionId : null,
      answerIndex: shown && question.type === "mc" ? question.correctIndex : null,
      score: !shown ? null : answer.correct == null ? 0 : answer.correct ? 1 : -0.1,
      timeSec: answer.timeSec,
      correct: shown ? answer.correct : null,
      explanation: shown ? question.explanation : "",
      sealed: !shown,
      sheetForm: shown && question.type === "gap" && answer.answerText ? sheetFormOf(answer, question) : null,
    };
  });
  const questionCount = attempt.total || list.length;
  const totals = visibleTotals(
    { total: questionCount, correct: attempt.correct, wrong: attempt.wrong, blank: attempt.blank },
    rows.map((r) => ({ questionId: r.question.id, correct: r.answer.correct })),
    seal,
  );
  const totalTimeSec = attempt.timeTaken ?? list.reduce((s, q) => s + q.timeSec, 0);
  return {
    attemptId: attempt.id,
    startedAt: attempt.startedAt.toISOString(),
    finishedAt: attempt.finishedAt?.toISOString() ?? null,
    subjectId: attempt.subjectId,
    subjectName: subject?.name ?? null,
    rushEventId: attempt.rushEventId,
    ...scoresOf(attempt.score, totals),
    correct: totals.correct,
    wrong: totals.wrong,
    blank: totals.blank,
    total: totals.total,
    hidden: totals.hidden,
    partial: totals.partial,
    totalTimeSec,
    avgTimeSec: questionCount > 0 ? Math.round((totalTimeSec / questionCount) * 10) / 10 : 0,
    edition: edition
      ? {
          id: edition.id,
          label: edition.label,
          academicYear: edition.academicYear,
          provisional: edition.status === "provvisorio",
        }
      : null,
    grade: edition && !totals.partial ? fullPaperGrade(edition, totals) : null,
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
      AND ${sql.raw(attemptDeadlineSql("started_at", "(SELECT time_limit_sec FROM quizzes WHERE quizzes.id = attempts.quiz_id)", "offline"))} < ${now}`);
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
  /** Questions counted in `correct` and `score`: without the sealed ones, while any is. */
  total: number;
  /** Questions left out of the result while sealed (simulation/seal.server.ts); `total + hidden` were asked. */
  hidden: number;
  partial: SealReason | null;
  timeSec: number;
  timeLimitSec: number | null;
  status: "completed" | "abandoned";
  /** Taken offline on the device (issue 47): its date and time are the device's. */
  offline: boolean;
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
  // One round trip after the session: the expired attempts are marked abandoned while the list already reads them
  // as such (an in-progress attempt past its deadline), so the reads need not wait for the write.
  const expired = and(
    eq(attempts.status, "in_progress"),
    sql`${sql.raw(attemptDeadlineSql('"attempts"."started_at"', '"quizzes"."time_limit_sec"', '"attempts"."offline"'))} < ${now}`,
  );
  const [, rows, topicRows, sealed] = await Promise.all([
    abandonExpiredStatement(db, now, userId),
    db
      .select({
        id: attempts.id,
        subjectId: attempts.subjectId,
        subjectName: subjects.name,
        startedAt: attempts.startedAt,
        correct: attempts.correct,
        wrong: attempts.wrong,
        blank: attempts.blank,
        total: attempts.total,
        timeTaken: attempts.timeTaken,
        status: attempts.status,
        timeLimitSec: quizzes.timeLimitSec,
        quizTopicId: quizzes.topicId,
        quizId: attempts.quizId,
        offline: attempts.offline,
      })
      .from(attempts)
      .leftJoin(subjects, eq(subjects.id, attempts.subjectId))
      .leftJoin(quizzes, eq(quizzes.id, attempts.quizId))
      .where(and(eq(attempts.userId, userId), or(inArray(attempts.status, ["completed", "abandoned"]), expired)))
      .orderBy(desc(attempts.startedAt), desc(attempts.id))
      .limit(limit)
      .all(),
    db.all<{ attempt_id: number; id: number; name: string }>(sql`
    SELECT x.attempt_id, t.id, t.name FROM (
      SELECT aa.attempt_id, aa.question_id, aa.position FROM attempt_answers aa
        JOIN attempts a ON a.id = aa.attempt_id WHERE a.user_id = ${userId}
      UNION ALL
      SELECT a.id, qq.question_id, qq.position FROM attempts a
        JOIN quiz_questions qq ON qq.quiz_id = a.quiz_id
        WHERE a.user_id = ${userId} AND NOT EXISTS (SELECT 1 FROM attempt_answers aa WHERE aa.attempt_id = a.id)
    ) x JOIN questions q ON q.id = x.question_id JOIN topics t ON t.id = q.topic_id
    ORDER BY x.attempt_id, x.position`),
    readSealedHistory(db, userId, now),
  ]);
  if (rows.length === 0) return [];
  const sealedByAttempt = byAttempt(sealed.answers);
  const topicsByAttempt = new Map<number, { id: number; name: string }[]>();
  for (const t of topicRows) {
    const list = topicsByAttempt.get(t.attempt_id) ?? [];
    if (!list.some((x) => x.id === t.id)) list.push({ id: t.id, name: t.name });
    topicsByAttempt.set(t.attempt_id, list);
  }
  return rows.map((r) => {
    const ts = topicsByAttempt.get(r.id) ?? [];
    const totals = visibleTotals(r, sealedByAttempt.get(r.id) ?? [], sealed.seal);
    return {
      id: r.id,
      subjectId: r.subjectId,
      subjectName: r.subjectName,
      date: r.startedAt.toISOString(),
      topics: ts.map((t) => t.name),
      topicIds: ts.map((t) => t.id),
      hasQuiz: r.quizId != null,
      quizTopicId: r.quizTopicId,
      correct: totals.correct,
      total: totals.total,
      hidden: totals.hidden,
      partial: totals.partial,
      timeSec: r.timeTaken ?? 0,
      timeLimitSec: r.timeLimitSec,
      status: r.status === "completed" ? "completed" : "abandoned",
      offline: r.offline,
      score: r.status === "completed" ? listScore(totals.correct, totals.total) : null,
    };
  });
}

/** "Sul foglio d'esame: scrivi …": the sheet's form of a right answer written leniently, or digits for a number in words. */
function sheetFormOf(
  answer: { correct: boolean | null; answerText: string | null },
  question: { acceptedAnswers: string[] | null; measure: string | null; tolerance: number | null },
): string | null {
  const key = { accepted: question.acceptedAnswers ?? [], measure: question.measure, tolerance: question.tolerance };
  if (answer.correct) return gradeGapAnswer(answer.answerText ?? "", key).sheetForm;
  return answer.correct === false ? wrongAnswerHint(answer.answerText ?? "", key) : null;
}
