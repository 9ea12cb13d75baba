// Student analytics (spec section 3, GET /api/me/analytics and /api/friend/analytics).
// Per-student data comes from the student's own attempts (index attempts(user_id, started_at)) and
// their answers; site-wide data comes only from the small aggregate tables maintained as attempts
// land (stat_*), so the cost of a dashboard does not grow with the number of students.
import { and, asc, eq, gte, sql } from "drizzle-orm";
import { fullHistogram, histogramMean, histogramPercentile, improvementLastMonthPct, round1 } from "~/lib/analytics";
import type { StudentAnalytics, StudentAttempt, SubjectAnalytics, TopicCounts } from "~/lib/analytics-types";
import { ANALYTICS_TREND_DAYS } from "~/lib/constants";
import { addDays, italianDay } from "~/lib/days";
import { editionTopicUnits, sumByUnit } from "~/lib/unit-stats";
import { defaultEdition } from "./editions.server";
import type { Db } from "./db/client.server";
import {
  attemptAnswers,
  attempts,
  examEditions,
  questionEditionUnits,
  questions,
  statDailyScores,
  statScoreHistogram,
  statTopicAccuracy,
  subjects,
  topics,
  units,
  users,
} from "./db/schema";
import { HttpError } from "./errors.server";
import { summaryScore } from "~/lib/scoring";
import { byAttempt, readSealedHistory, visibleTotals } from "./sealed.server";

export type {
  SiteAggregate,
  StudentAnalytics,
  StudentAttempt,
  SubjectAnalytics,
  TopicCounts,
} from "~/lib/analytics-types";

/** Everything the dashboard shows for one student, in five bounded reads sent as one batch. */
export async function studentAnalytics(db: Db, userId: number, now = Date.now()): Promise<StudentAnalytics> {
  const since = addDays(italianDay(now), -ANALYTICS_TREND_DAYS);
  const completedOf = and(eq(attempts.userId, userId), eq(attempts.status, "completed"));
  const [
    sealed,
    edition,
    [
      userRows,
      subjectRows,
      topicRows,
      attemptRows,
      answerRows,
      histogramRows,
      topicStatRows,
      dailyRows,
      unitRows,
      editionUnitRows,
    ],
  ] = await Promise.all([
    // Answers to sealed questions count nowhere (sealed.server.ts): with the rest known, a count would give their verdict.
    readSealedHistory(db, userId, now),
    // Units are the default edition's (issue 29): its syllabus, and each topic's unit in it.
    defaultEdition(db).catch(() => null),
    db.batch([
      db.select({ firstName: users.firstName, name: users.name }).from(users).where(eq(users.id, userId)),
      db.select({ id: subjects.id, name: subjects.name }).from(subjects).orderBy(asc(subjects.id)),
      db
        .select({
          id: topics.id,
          subjectId: topics.subjectId,
          name: topics.name,
          unit: topics.unit,
          legacy: topics.legacy,
        })
        .from(topics)
        .orderBy(asc(topics.subjectId), asc(topics.id)),
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
      db.select().from(statScoreHistogram),
      db.select().from(statTopicAccuracy),
      db.select().from(statDailyScores).where(gte(statDailyScores.day, since)).orderBy(asc(statDailyScores.day)),
      db.select().from(units).orderBy(asc(units.subjectId), asc(units.number)),
      db
        .select({ topicId: questions.topicId, unit: questionEditionUnits.unit, n: sql<number>`count(*)` })
        .from(questionEditionUnits)
        .innerJoin(
          examEditions,
          and(eq(examEditions.id, questionEditionUnits.editionId), eq(examEditions.isDefault, true)),
        )
        .innerJoin(questions, eq(questions.id, questionEditionUnits.questionId))
        .groupBy(questions.topicId, questionEditionUnits.unit),
    ]),
  ]);
  // The default edition's units and topic → unit map; the units table (2025/26) only without an edition.
  const byEdition = edition && editionUnitRows.length ? editionTopicUnits(editionUnitRows) : null;

  const user = userRows[0];
  if (!user) throw new HttpError(404, "Studente non trovato.");
  const sealedByAttempt = byAttempt(sealed.answers);
  const topicName = new Map(topicRows.map((t) => [t.id, t.name]));

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
      topic: touched[0] ? (topicName.get(touched[0].topicId) ?? null) : null,
      topicIds: touched.map((t) => t.topicId).sort((x, y) => x - y),
    };
  });

  const result: SubjectAnalytics[] = subjectRows.map((subject) => {
    const subjectTopics = topicRows.filter((t) => t.subjectId === subject.id);
    const bins = fullHistogram(
      histogramRows.filter((h) => h.subjectId === subject.id).map((h) => ({ score: h.score, count: h.count })),
    );
    const mean = histogramMean(bins);
    const topicAccuracy: Record<string, number> = {};
    for (const row of topicStatRows) {
      if (row.subjectId === subject.id && row.answered > 0)
        topicAccuracy[row.topicId] = Math.round((row.correct / row.answered) * 1000) / 1000;
    }
    // By syllabus unit: topics are its sub-topics (legacy topics belong to none).
    const subjectUnits = (byEdition ? edition!.format.units : unitRows)
      .filter((u) => u.subjectId === subject.id)
      .map((u) => ({ number: u.number, title: u.title, credits: u.credits }));
    const topicUnits: Record<string, number | null> = Object.fromEntries(
      subjectTopics.map((t) => [String(t.id), t.legacy ? null : byEdition ? (byEdition.get(t.id) ?? null) : t.unit]),
    );
    const unitAccuracy: Record<string, number> = {};
    const siteByUnit = sumByUnit(
      Object.fromEntries(
        topicStatRows
          .filter((r) => r.subjectId === subject.id)
          .map((r) => [String(r.topicId), { answered: r.answered, correct: r.correct }]),
      ),
      topicUnits,
    );
    for (const [unit, c] of siteByUnit)
      if (c.answered > 0) unitAccuracy[unit] = Math.round((c.correct / c.answered) * 1000) / 1000;
    const studentTopicAccuracy: Record<string, TopicCounts> = {};
    for (const t of subjectTopics) {
      const counts = studentTopics.get(t.id);
      if (counts) studentTopicAccuracy[t.id] = counts;
    }
    return {
      id: subject.id,
      name: subject.name,
      topics: Object.fromEntries(subjectTopics.map((t) => [String(t.id), t.name])),
      units: subjectUnits,
      topicUnits,
      studentAttempts: allAttempts.filter((a) => a.subjectId === subject.id).map(({ subjectId: _s, ...a }) => a),
      studentTopicAccuracy,
      siteAggregate: {
        scoreDistribution: bins,
        attemptsOverTime: dailyRows
          .filter((d) => d.subjectId === subject.id && d.attempts > 0)
          .map((d) => ({ date: d.day, avgScore: round1(d.scoreSum / d.attempts), attempts: d.attempts })),
        topicAccuracy,
        unitAccuracy,
        p80: histogramPercentile(bins, 80),
        p90: histogramPercentile(bins, 90),
        average: mean == null ? null : round1(mean),
      },
    };
  });

  return {
    studentId: userId,
    studentName: user.firstName || user.name,
    improvementLastMonthPct: improvementLastMonthPct(allAttempts, now),
    subjects: result,
  };
}
