// After the sitting (issue 46, point 3): the grades a student received, as they enter them. Private: every read and
// write is the signed-in student's own (no route takes a user id); what others see is an aggregate over at least
// AGGREGATE_MIN_STUDENTS students. The rules that read the grades are app/lib/sitting-results.ts.
import { and, eq, sql } from "drizzle-orm";
import { type ExamEdition, sittingStartsAt } from "~/lib/edition";
import type { SittingGradesBody } from "~/lib/forms/study-plan";
import { AGGREGATE_MIN_STUDENTS } from "~/lib/sitting-results";
import { PLAN_TEXT } from "~/lib/study-plan-text";
import type { Db } from "./db/client.server";
import { DEFAULT_EDITION_ID_SQL } from "./editions.server";
import { sittingGrades } from "./db/schema";
import { HttpError } from "./errors.server";

/**
 * Stores the grades of one sitting of the default edition (replacing what the student entered for it before), once
 * the sitting has started. The body was checked by sittingGradesSchema(edition.format).
 */
export async function saveSittingGrades(
  db: Db,
  userId: number,
  edition: ExamEdition,
  body: SittingGradesBody,
  now = Date.now(),
): Promise<void> {
  if (body.editionId !== edition.id) throw new HttpError(400, PLAN_TEXT.errors.gradesEdition);
  const sitting = edition.format.sittings.find((s) => s.date === body.sittingDate);
  if (!sitting) throw new HttpError(400, PLAN_TEXT.errors.sitting);
  if (sittingStartsAt(sitting) > now) throw new HttpError(409, PLAN_TEXT.errors.gradesNotYet);
  const of = and(
    eq(sittingGrades.userId, userId),
    eq(sittingGrades.editionId, edition.id),
    eq(sittingGrades.sittingDate, sitting.date),
  );
  await db.batch([
    db.delete(sittingGrades).where(of),
    db.insert(sittingGrades).values(
      body.grades.map((g) => ({
        userId,
        editionId: edition.id,
        sittingDate: sitting.date,
        subjectId: g.subjectId,
        grade: g.grade,
        enteredAt: new Date(now),
      })),
    ),
  ]);
}

export type SittingAggregate = {
  sittingDate: string;
  students: number;
  /** Share of the students who sat it that passed, per exam (0-100); null when too few sat it. */
  passed: { subjectId: number; pct: number | null }[];
};

type AggregateRow = { sitting_date: string; subject_id: number; sat: number; passed: number; students: number };

/**
 * The default edition's sittings as counts: per sitting and exam, how many students sat it and passed it (the
 * edition's pass mark, read in SQL so this runs beside the edition's own read), and how many entered grades.
 */
export function readSittingAggregates(db: Db): Promise<AggregateRow[]> {
  return db.all<AggregateRow>(sql`
    SELECT g.sitting_date, g.subject_id, count(g.grade) AS sat,
      sum(CASE WHEN g.grade >= e.pass THEN 1 ELSE 0 END) AS passed,
      (SELECT count(DISTINCT x.user_id) FROM sitting_grades x
        WHERE x.edition_id = g.edition_id AND x.sitting_date = g.sitting_date) AS students
    FROM sitting_grades g
    JOIN (SELECT id, json_extract(format, '$.passMark') AS pass FROM exam_editions
          WHERE id = (${DEFAULT_EDITION_ID_SQL})) e ON e.id = g.edition_id
    GROUP BY g.sitting_date, g.subject_id`);
}

/**
 * Per sitting of the edition: how many students entered grades, and each exam's pass rate among those who sat it;
 * a sitting with fewer than AGGREGATE_MIN_STUDENTS students is left out, an exam sat by fewer has no rate.
 */
export function sittingAggregates(edition: ExamEdition, rows: readonly AggregateRow[]): SittingAggregate[] {
  return edition.format.sittings.flatMap((s) => {
    const list = rows.filter((r) => r.sitting_date === s.date);
    const students = list[0]?.students ?? 0;
    if (students < AGGREGATE_MIN_STUDENTS) return [];
    return [
      {
        sittingDate: s.date,
        students,
        passed: edition.format.subjects.map(({ subjectId }) => {
          const r = list.find((x) => x.subject_id === subjectId);
          return {
            subjectId,
            pct: r && r.sat >= AGGREGATE_MIN_STUDENTS ? Math.round((r.passed / r.sat) * 100) : null,
          };
        }),
      },
    ];
  });
}
