// The forecast against reality (issue 46, point 4). Each day a student's forecast is computed (the forecast call, the
// plan page, after a practice attempt is handed in), its P(≥ pass mark) per exam is kept as that Rome day's value in
// `forecast_days` (the day's last value wins). Once the student enters the grades of a sitting, the value kept the day
// before it (the latest within FORECAST_LOOKBACK_DAYS before the sitting) meets the outcome: the admin analytics show
// the calibration per exam (app/lib/calibration.ts). Private: read only as counts and scores over every student.
import { sql } from "drizzle-orm";
import { type CalibrationCase, calibrationBySubject, type SubjectCalibration } from "~/lib/calibration";
import { italianDay } from "~/lib/days";
import { reportedGrade } from "~/lib/simulation-day";
import type { Db } from "./db/client.server";
import { forecastDays, subjects } from "./db/schema";
import { listEditions, pickDefaultEdition } from "./editions.server";
import { type SubjectForecast, scoreForecast } from "./learning-advice.server";

/** A sitting is compared with the latest forecast kept in the days before it, no older than this. */
export const FORECAST_LOOKBACK_DAYS = 7;

/** Keeps today's value of each exam forecast (subjects without a probability are skipped). */
export async function keepForecastDay(
  db: Db,
  userId: number,
  subjects: readonly Pick<SubjectForecast, "subjectId" | "passProbability" | "predicted">[],
  now = Date.now(),
): Promise<void> {
  const day = italianDay(now);
  const rows = subjects.flatMap((s) =>
    s.passProbability == null
      ? []
      : [{ userId, day, subjectId: s.subjectId, passProbability: s.passProbability, predicted: s.predicted }],
  );
  if (!rows.length) return;
  await db
    .insert(forecastDays)
    .values(rows)
    .onConflictDoUpdate({
      target: [forecastDays.userId, forecastDays.subjectId, forecastDays.day],
      set: { passProbability: sql`excluded.pass_probability`, predicted: sql`excluded.predicted` },
    });
}

/** After a write that changes the forecast (a practice attempt handed in): compute it and keep today's value. */
export async function refreshForecastDay(db: Db, userId: number, now = Date.now()): Promise<void> {
  const { subjects } = await scoreForecast(db, userId, now);
  await keepForecastDay(db, userId, subjects, now);
}

/** Runs `work` after the response when the platform allows it (Workers' waitUntil), logging a failure. */
export function afterResponse(ctx: { waitUntil(p: Promise<unknown>): void } | undefined, work: () => Promise<void>) {
  const run = work().catch((error: unknown) => console.error("forecast day not kept", error));
  ctx?.waitUntil(run);
}

type CaseRow = { edition_id: number; subject_id: number; grade: number; forecast: number | null };

export type ExamCalibration = SubjectCalibration & { name: string };

/**
 * Calibration of the forecast: one case per exam a student sat at a sitting of any edition (grade entered, not "non
 * sostenuto") with a forecast kept in the FORECAST_LOOKBACK_DAYS days before the sitting (the latest of them); the
 * outcome is that edition's grade rule (reportedGrade). Exams in the default edition's order. One round: the
 * editions and the cases are read together.
 */
export async function forecastCalibration(db: Db): Promise<ExamCalibration[]> {
  const [editions, rows, names] = await Promise.all([
    listEditions(db),
    db.all<CaseRow>(sql`
      SELECT g.edition_id, g.subject_id, g.grade, (
          SELECT f.pass_probability FROM forecast_days f
          WHERE f.user_id = g.user_id AND f.subject_id = g.subject_id
            AND f.day < g.sitting_date AND f.day >= date(g.sitting_date, ${`-${FORECAST_LOOKBACK_DAYS} days`})
          ORDER BY f.day DESC LIMIT 1) AS forecast
      FROM sitting_grades g
      WHERE g.grade IS NOT NULL`),
    db.select({ id: subjects.id, name: subjects.name }).from(subjects).all(),
  ]);
  const cases: CalibrationCase[] = rows.flatMap((r) => {
    const edition = editions.find((e) => e.id === r.edition_id);
    return r.forecast == null || !edition
      ? []
      : [{ subjectId: r.subject_id, forecast: r.forecast, passed: reportedGrade(edition, r.grade).passed }];
  });
  const exams = [pickDefaultEdition(editions), ...editions].flatMap((e) => e?.format.subjects ?? []);
  return calibrationBySubject([...new Set(exams.map((s) => s.subjectId))], cases).map((c) => ({
    ...c,
    name: names.find((n) => n.id === c.subjectId)?.name ?? String(c.subjectId),
  }));
}
