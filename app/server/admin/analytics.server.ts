// Site analytics for the admin console (spec section 3, "Admin analytics").
import { sql } from "drizzle-orm";
import { z } from "zod";
import { daysEndingOn, italianDay, readFromForDay } from "~/lib/days";
import { italianDaySql } from "../db/aggregate-sql";
import type { Db } from "../db/client.server";
import { withLabels } from "../errors.server";
import { forecastCalibration } from "../forecast-days.server";

export const analyticsQuery = withLabels(
  z.object({
    days: z.coerce
      .number()
      .int()
      .min(7, "Il periodo va da 7 a 365 giorni")
      .max(365, "Il periodo va da 7 a 365 giorni")
      .optional()
      .default(60),
    top: z.coerce.number().int().min(1).max(100).optional().default(10),
  }),
  { days: "Periodo (giorni)", top: "Utenti in classifica" },
);

// In analytics a score of 1 or less is a fraction of the scale (spec section 9).
const SCORE31 = sql.raw("(CASE WHEN score <= 1 THEN score * 31 ELSE score END)");
const round1 = (n: number) => Math.round(n * 10) / 10;

export async function adminAnalytics(db: Db, query: z.infer<typeof analyticsQuery>, now = Date.now()) {
  // The last `days` days in Italy, today included; rows of the hours before the first of them are read
  // (Italian midnight comes before UTC's) and fall outside the list.
  const days = daysEndingOn(italianDay(now), query.days);
  const from = readFromForDay(days[0]!);
  // Every read at once: one round trip after the session, not six in a row.
  const [summary, topUsers, distribution, perDay, logins, unitAccuracy, calibration] = await Promise.all([
    db.get<{
      users: number;
      attempts: number;
      avg_score: number | null;
      avg_time: number | null;
      time: number | null;
      questions: number | null;
    }>(
      sql`SELECT count(DISTINCT user_id) AS users, count(*) AS attempts, avg(${SCORE31}) AS avg_score, avg(time_taken) AS avg_time,
               sum(time_taken) AS time, sum(total) AS questions
        FROM attempts WHERE status = 'completed'`,
    ),
    db.all<{
      name: string;
      email: string;
      user_id: number;
      attempts: number;
      avg_score: number;
      time: number;
      questions: number;
    }>(
      sql`SELECT u.name, u.email, a.user_id, count(*) AS attempts, avg(${sql.raw("CASE WHEN a.score <= 1 THEN a.score * 31 ELSE a.score END")}) AS avg_score,
               sum(a.time_taken) AS time, sum(a.total) AS questions
        FROM attempts a JOIN users u ON u.id = a.user_id
        WHERE a.status = 'completed'
        GROUP BY a.user_id ORDER BY attempts DESC, avg_score DESC LIMIT ${query.top}`,
    ),
    db.all<{ attempts: number; users: number }>(
      sql`SELECT n AS attempts, count(*) AS users FROM (SELECT count(*) AS n FROM attempts WHERE status = 'completed' GROUP BY user_id)
        GROUP BY n ORDER BY n`,
    ),
    db.all<{ d: string; n: number }>(
      sql`SELECT ${sql.raw(italianDaySql("started_at"))} AS d, count(*) AS n FROM attempts
        WHERE status = 'completed' AND started_at >= ${from} GROUP BY d`,
    ),
    db.all<{ d: string; existing: number; fresh: number }>(
      sql`SELECT ${sql.raw(italianDaySql("at"))} AS d, sum(CASE WHEN is_new_user = 1 THEN 0 ELSE 1 END) AS existing,
               sum(CASE WHEN is_new_user = 1 THEN 1 ELSE 0 END) AS fresh
        FROM login_events WHERE at >= ${from} GROUP BY d`,
    ),
    // Accuracy per syllabus unit (topics are its sub-topics; legacy topics belong to none), from the
    // aggregate the grading write keeps, so this stays one small read whatever the history.
    db.all<{
      subject_id: number;
      subject: string;
      unit: number;
      title: string;
      credits: number;
      answered: number | null;
      correct: number | null;
    }>(
      sql`SELECT u.subject_id, s.name AS subject, u.number AS unit, u.title, u.credits, sum(a.answered) AS answered, sum(a.correct) AS correct
        FROM units u JOIN subjects s ON s.id = u.subject_id
        LEFT JOIN topics t ON t.subject_id = u.subject_id AND t.unit = u.number AND t.legacy = 0
        LEFT JOIN stat_topic_accuracy a ON a.topic_id = t.id
        GROUP BY u.subject_id, u.number ORDER BY u.subject_id, u.number`,
    ),
    // The forecast against the grades students entered (issue 46, point 4).
    forecastCalibration(db),
  ]);
  const userCount = summary?.users ?? 0;
  const attempts = summary?.attempts ?? 0;
  const perDayMap = new Map(perDay.map((r) => [r.d, r.n]));
  const loginMap = new Map(logins.map((r) => [r.d, r]));

  return {
    userCount,
    attempts,
    avgScore: round1(((summary?.avg_score ?? 0) / 31) * 100),
    avgTimeAttempt: Math.round(summary?.avg_time ?? 0),
    avgTimeQuestion: summary?.questions ? round1((summary.time ?? 0) / summary.questions) : 0,
    avgAttemptsPerUser: userCount ? round1(attempts / userCount) : 0,
    topUsers: topUsers.map((u) => ({
      userId: u.user_id,
      name: u.name || u.email,
      attempts: u.attempts,
      avgScore: round1(u.avg_score ?? 0),
      avgTimeQuestion: u.questions ? round1((u.time ?? 0) / u.questions) : 0,
    })),
    attemptsDistribution: distribution,
    attemptsPerDay: days.map((date) => ({ date, count: perDayMap.get(date) ?? 0 })),
    loginsPerDay: days.map((date) => ({
      date,
      existing: loginMap.get(date)?.existing ?? 0,
      new: loginMap.get(date)?.fresh ?? 0,
    })),
    unitAccuracy: unitAccuracy.map((u) => ({
      subjectId: u.subject_id,
      subject: u.subject,
      unit: u.unit,
      title: u.title,
      credits: u.credits,
      answered: u.answered ?? 0,
      correct: u.correct ?? 0,
      accuracy: u.answered ? round1(((u.correct ?? 0) / u.answered) * 100) : null,
    })),
    calibration,
  };
}

/** Users with at least N completed attempts, from the distribution (the slider 'Utenti con almeno N quiz'). */
export function usersWithAtLeast(distribution: { attempts: number; users: number }[], n: number): number {
  return distribution.filter((d) => d.attempts >= n).reduce((s, d) => s + d.users, 0);
}
