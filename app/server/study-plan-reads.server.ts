// What the plan is computed from (issue 46), read in ONE D1 batch: the student's plan, today's completed attempts, the
// answers per syllabus unit and the forecast's answer groups as they stood at the start of today (so today's card
// stays the same all day), the bank per unit, the reviews due per day, the exam's topic mix, the grades entered, the
// subjects' names and, for /piano, the answers per day since the plan began. The dashboard runs it beside its other
// reads (the same round trip); `gated` makes every statement but the plan's own read nothing for a student with no
// plan.
import { sql, type SQL } from "drizzle-orm";
import { d1, stmt } from "./admin/imports/common";
import { italianDaySql } from "./db/aggregate-sql";
import type { Db } from "./db/client.server";
import { DEFAULT_EDITION_ID_SQL } from "./editions.server";
import { sealedQuestionIdsSql } from "~/server/simulation/seal.server";

const DAY = 24 * 60 * 60 * 1000;
/** Reviews due later than this are past any sitting the plan can reach. */
const DUE_HORIZON_DAYS = 120;

export type PlanRow = {
  edition_id: number;
  sitting_date: string;
  minutes_per_day: number;
  weekday_minutes: string | null;
  created_at: number;
};

export type PlanRows = {
  plan: PlanRow | null;
  /** Today's completed attempts. */
  today: {
    subject_id: number | null;
    answered: number;
    total: number;
    edition_id: number | null;
    kind: string;
    timed: number;
  }[];
  units: { subject_id: number; unit: number; n: number; k: number; seen: number }[];
  bank: { subject_id: number; unit: number; n: number }[];
  /** Reviews due per day from today (d), and of them how many were last reviewed before today. */
  due: { d: number; n: number; before: number }[];
  groups: { subject_id: number; topic_id: number; age: number; n: number; k: number }[];
  mix: { subject_id: number; topic_id: number; n: number }[];
  grades: { edition_id: number; sitting_date: string; subject_id: number; grade: number | null }[];
  subjects: { id: number; name: string }[];
  /** Questions answered per Rome day since `historySince` (/piano only). */
  history: { day: string; answered: number }[];
  /** Rows D1 read for the whole batch (its meta): what a dashboard without a plan must keep near zero. */
  rowsRead: number;
};

/** The default edition's id as a subquery, chosen as defaultEdition() does (the default, else the newest year). */
const DEFAULT_EDITION_SQL = sql`(${DEFAULT_EDITION_ID_SQL})`;

/**
 * The rows of one student's plan. `dayStart`: the instant today began in Rome. Units and grades are read for the
 * plan's edition, or the default one without a plan.
 */
export async function readPlanRows(
  db: Db,
  args: { userId: number; now: number; dayStart: number; gated: boolean; historySince?: number },
): Promise<PlanRows> {
  const { userId: u, now, dayStart } = args;
  // The gate: the plan's own row as the outer loop of each statement (CROSS JOIN keeps SQLite from reordering), so
  // without a plan the loop is empty and nothing else is read. Not left to the planner: an EXISTS in the WHERE reads
  // as few rows on D1 today, but a local SQLite was seen walking the rows with it (study-plan.test.ts holds the count).
  const from = (tables: SQL) => (args.gated ? sql`FROM study_plans gate CROSS JOIN ${tables}` : sql`FROM ${tables}`);
  const gate = args.gated ? sql`AND gate.user_id = ${u}` : sql``;
  const edition = sql`coalesce((SELECT edition_id FROM study_plans WHERE user_id = ${u}), ${DEFAULT_EDITION_SQL})`;
  const unsealed = (column: SQL) => sql`${column} NOT IN (${sealedQuestionIdsSql(u, now)})`;
  const answersBeforeToday = sql`${from(sql`attempts a`)} JOIN attempt_answers aa ON aa.attempt_id = a.id
    JOIN questions q ON q.id = aa.question_id
    WHERE a.user_id = ${u} AND a.status = 'completed' AND aa.answered_at < ${dayStart}
      AND ${unsealed(sql`aa.question_id`)} ${gate}`;
  const since = args.historySince ?? now;
  const queries: SQL[] = [
    sql`SELECT edition_id, sitting_date, minutes_per_day, weekday_minutes, created_at FROM study_plans WHERE user_id = ${u}`,
    sql`SELECT a.subject_id, a.total - a.blank AS answered, a.total, a.edition_id, coalesce(z.kind, 'random') AS kind,
          z.time_limit_sec IS NOT NULL AS timed
        ${from(sql`attempts a`)} LEFT JOIN quizzes z ON z.id = a.quiz_id
        WHERE a.user_id = ${u} AND a.status = 'completed' AND a.started_at >= ${dayStart} ${gate}
        UNION ALL
        SELECT ss.subject_id, ss.question_count, ss.question_count, s.edition_id, 'solo-day', 1
        ${from(sql`simulations s`)} JOIN simulation_subjects ss ON ss.simulation_id = s.id
        WHERE s.solo_user_id = ${u} AND s.graded_at IS NOT NULL AND s.start_time >= ${dayStart} ${gate}`,
    sql`SELECT q.subject_id, qeu.unit, count(*) AS n, sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END) AS k,
          count(DISTINCT aa.question_id) AS seen
        ${from(sql`attempts a`)} JOIN attempt_answers aa ON aa.attempt_id = a.id
        JOIN questions q ON q.id = aa.question_id
        JOIN question_edition_units qeu ON qeu.question_id = aa.question_id AND qeu.edition_id = ${edition}
        WHERE a.user_id = ${u} AND a.status = 'completed' AND aa.answered_at < ${dayStart}
          AND ${unsealed(sql`aa.question_id`)} ${gate}
        GROUP BY q.subject_id, qeu.unit`,
    sql`SELECT q.subject_id, qeu.unit, count(*) AS n
        ${from(sql`question_edition_units qeu`)} JOIN questions q ON q.id = qeu.question_id
        WHERE qeu.edition_id = ${edition} AND q.active = 1 ${gate}
        GROUP BY q.subject_id, qeu.unit`,
    sql`SELECT CAST(max(0, m.due - ${dayStart}) / ${DAY} AS INTEGER) AS d, count(*) AS n,
          sum(CASE WHEN m.last_review < ${dayStart} THEN 1 ELSE 0 END) AS before
        ${from(sql`question_memory m`)} JOIN questions q ON q.id = m.question_id
        WHERE m.user_id = ${u} AND q.active = 1 AND m.due < ${dayStart + DUE_HORIZON_DAYS * DAY}
          AND ${unsealed(sql`m.question_id`)} ${gate}
        GROUP BY d`,
    sql`SELECT q.subject_id, coalesce(q.topic_id, 0) AS topic_id, CAST((${dayStart} - aa.answered_at) / ${DAY} AS INTEGER) AS age,
          count(*) AS n, sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END) AS k
        ${answersBeforeToday}
        GROUP BY q.subject_id, coalesce(q.topic_id, 0), age`,
    // The exam's topic mix as the forecast reads it (learning-advice.server.ts): the bank's active questions.
    sql`SELECT q.subject_id, coalesce(q.topic_id, 0) AS topic_id, count(*) AS n ${from(sql`questions q`)}
        WHERE q.active = 1 ${gate} GROUP BY q.subject_id, coalesce(q.topic_id, 0)`,
    sql`SELECT g.edition_id, g.sitting_date, g.subject_id, g.grade ${from(sql`sitting_grades g`)}
        WHERE g.user_id = ${u} AND g.edition_id = ${edition} ${gate}`,
    sql`SELECT s.id, s.name ${from(sql`subjects s`)} WHERE 1 = 1 ${gate}`,
    sql`SELECT ${sql.raw(italianDaySql("a.started_at"))} AS day, sum(a.total - a.blank) AS answered
        FROM attempts a
        WHERE a.user_id = ${u} AND a.status = 'completed' AND a.started_at >= ${since} AND a.started_at < ${dayStart}
        GROUP BY day`,
  ];
  const results = await d1(db).batch(queries.map((q) => stmt(db, q)));
  const rows = results.map((r) => r.results) as unknown[][];
  return {
    plan: (rows[0]![0] as PlanRow | undefined) ?? null,
    today: rows[1] as PlanRows["today"],
    units: rows[2] as PlanRows["units"],
    bank: rows[3] as PlanRows["bank"],
    due: rows[4] as PlanRows["due"],
    groups: rows[5] as PlanRows["groups"],
    mix: rows[6] as PlanRows["mix"],
    grades: rows[7] as PlanRows["grades"],
    subjects: rows[8] as PlanRows["subjects"],
    history: rows[9] as PlanRows["history"],
    rowsRead: results.reduce((n, r) => n + (r.meta?.rows_read ?? 0), 0),
  };
}
