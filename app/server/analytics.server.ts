// Student analytics (spec section 3, GET /api/me/analytics and /api/friend/analytics).
// Per-student data comes from the student's own attempts (index attempts(user_id, started_at)) and
// their answers; site-wide data comes from one snapshot per stats version of the small aggregate tables
// maintained as attempts land (stat_*) and of the bank's shape (shared-stats.server.ts), so the cost of a
// dashboard grows neither with the number of students nor with the bank.
import { and, asc, eq, sql } from "drizzle-orm";
import { improvementLastMonthPct } from "~/lib/analytics";
import type { StudentAnalytics, StudentAttempt, SubjectAnalytics, TopicCounts } from "~/lib/analytics-types";
import type { Db } from "./db/client.server";
import { attemptAnswers, attempts, questions, users } from "./db/schema";
import { HttpError } from "./errors.server";
import { summaryScore } from "~/lib/scoring";
import { byAttempt, readSealedHistory, visibleTotals } from "~/server/simulation/seal.server";
import { sharedStats } from "./shared-stats.server";

export type {
  SiteAggregate,
  StudentAnalytics,
  StudentAttempt,
  SubjectAnalytics,
  TopicCounts,
} from "~/lib/analytics-types";

/**
 * Everything the dashboard shows for one student: the student's own rows in one batch and, beside it, the part every
 * student shares (shared-stats.server.ts: one snapshot per stats version, kept per isolate).
 */
export async function studentAnalytics(db: Db, userId: number, now = Date.now()): Promise<StudentAnalytics> {
  const completedOf = and(eq(attempts.userId, userId), eq(attempts.status, "completed"));
  const [sealed, shared, [userRows, attemptRows, answerRows]] = await Promise.all([
    // Answers to sealed questions count nowhere (simulation/seal.server.ts): with the rest known, a count would give their verdict.
    readSealedHistory(db, userId, now),
    sharedStats(db, now),
    db.batch([
      db.select({ firstName: users.firstName, name: users.name }).from(users).where(eq(users.id, userId)),
      db
        .select({
          id: attempts.id,
          subjectId: attempts.subjectId,
          startedAt: attempts.startedAt,
          score: attempts.score,
          correct: attempts.correct,
          wrong: attempts.wrong,
          blank: attempts.blank,
          total: attempts.total,
          timeTaken: attempts.timeTaken,
          offline: attempts.offline,
        })
        .from(attempts)
        .where(completedOf)
        .orderBy(asc(attempts.startedAt)),
      db
        .select({
          attemptId: attemptAnswers.attemptId,
          topicId: questions.topicId,
          questions: sql<number>`count(*)`,
          answered: sql<number>`sum(CASE WHEN ${attemptAnswers.correct} IS NOT NULL THEN 1 ELSE 0 END)`,
          correct: sql<number>`sum(CASE WHEN ${attemptAnswers.correct} = 1 THEN 1 ELSE 0 END)`,
        })
        .from(attempts)
        .innerJoin(attemptAnswers, eq(attemptAnswers.attemptId, attempts.id))
        .innerJoin(questions, eq(questions.id, attemptAnswers.questionId))
        .where(completedOf)
        .groupBy(attemptAnswers.attemptId, questions.topicId),
    ]),
  ]);

  const user = userRows[0];
  if (!user) throw new HttpError(404, "Studente non trovato.");
  const sealedByAttempt = byAttempt(sealed.answers);
  const topicName = new Map<number, string>();
  for (const subject of shared)
    for (const [id, name] of Object.entries(subject.topics)) topicName.set(Number(id), name);

  // Per attempt: the topics touched and the dominant one; per subject: the student's topic counts.
  const attemptTopics = new Map<number, { topicId: number; questions: number }[]>();
  const studentTopics = new Map<number, TopicCounts>();
  for (const row of answerRows) {
    if (row.topicId == null) continue;
    const list = attemptTopics.get(row.attemptId) ?? [];
    list.push({ topicId: row.topicId, questions: Number(row.questions) });
    attemptTopics.set(row.attemptId, list);
    const counts = studentTopics.get(row.topicId) ?? { answered: 0, correct: 0 };
    counts.answered += Number(row.answered ?? 0);
    counts.correct += Number(row.correct ?? 0);
    studentTopics.set(row.topicId, counts);
  }
  for (const answer of sealed.answers) {
    const counts = answer.topicId == null ? undefined : studentTopics.get(answer.topicId);
    if (!counts || answer.correct == null) continue;
    counts.answered = Math.max(0, counts.answered - 1);
    if (answer.correct) counts.correct = Math.max(0, counts.correct - 1);
  }

  const allAttempts: (StudentAttempt & { subjectId: number | null })[] = attemptRows.map((a) => {
    const touched = (attemptTopics.get(a.id) ?? []).sort((x, y) => y.questions - x.questions || x.topicId - y.topicId);
    const totals = visibleTotals(a, sealedByAttempt.get(a.id) ?? [], sealed.seal);
    return {
      id: a.id,
      subjectId: a.subjectId,
      date: a.startedAt.toISOString(),
      score: totals.partial ? summaryScore(totals.correct, totals.wrong, totals.total) : (a.score ?? 0),
      correct: totals.correct,
      total: totals.total,
      timeSec: a.timeTaken ?? 0,
      offline: a.offline,
      topic: touched[0] ? (topicName.get(touched[0].topicId) ?? null) : null,
      topicIds: touched.map((t) => t.topicId).sort((x, y) => x - y),
    };
  });

  const result: SubjectAnalytics[] = shared.map(({ siteAggregate, ...subject }) => {
    const studentTopicAccuracy: Record<string, TopicCounts> = {};
    for (const id of Object.keys(subject.topics)) {
      const counts = studentTopics.get(Number(id));
      if (counts) studentTopicAccuracy[id] = counts;
    }
    return {
      ...subject,
      studentAttempts: allAttempts.filter((a) => a.subjectId === subject.id).map(({ subjectId: _s, ...a }) => a),
      studentTopicAccuracy,
      siteAggregate,
    };
  });

  return {
    studentId: userId,
    studentName: user.firstName || user.name,
    improvementLastMonthPct: improvementLastMonthPct(allAttempts, now),
    subjects: result,
  };
}
