// A class's progress for its teacher (issue 32, point 2): accuracy per syllabus unit of the default edition over the
// last PROGRESS_WEEKS weeks, the weakest units, each pupil's weekly trend and score forecast band (the learning
// engine's model, app/lib/forecast.ts, as GET /api/me/forecast gives it to the pupil) and who has been inactive.
// Only members count (a pupil is one after accepting the invitation or joining with the code), read now.
//
// Cost: two D1 round trips one after the other whatever the class size, the ownership check then one batch of
// aggregates (GROUP BY in D1, so a class of 200 with months of answers sends back a few thousand rows at most), with
// the default edition (cached per isolate) read alongside. The forecast's recency weights are summed in SQL with the
// engine's own weights, so no per-day rows leave the database.
import { sql, type SQL } from "drizzle-orm";
import {
  accuracyOf,
  DAY_MS,
  isInactive,
  daysSince,
  PROGRESS_WEEKS,
  pupilTrend,
  type PupilTrend,
  type UnitProgress,
  WEEK_MS,
  weakestUnits,
} from "~/lib/class-progress";
import { forecastSubject, HALF_LIFE_DAYS, recencyWeight, type TopicAnswers } from "~/lib/forecast";
import { d1, stmt } from "./admin/imports/common";
import { requireManagedClass } from "./classes.server";
import type { Db } from "./db/client.server";
import { DEFAULT_EDITION_ID_SQL, defaultEdition } from "./editions.server";
import { liveSimulationQuestionIdsSql } from "~/server/simulation/seal.server";
import type { SessionUser } from "./session.server";

/** Ages past this many days weigh as this old (the weight is then under 2 · 10⁻⁵ of a fresh answer). */
const MAX_WEIGHT_AGE_DAYS = 730;

/**
 * The engine's recency weight 0.5^(age / 45) of a whole number of days `age` (a column), in SQL without math
 * functions: age = 45·q + r gives 0.5^q (a shift) × 0.5^(r / 45) (one of 45 literals). Exact to the last digit.
 */
function recencyWeightSql(age: SQL): SQL {
  const fractions = sql.raw(
    Array.from({ length: HALF_LIFE_DAYS }, (_, r) => `WHEN ${r} THEN ${recencyWeight(r)}`).join(" "),
  );
  const halfLife = sql.raw(String(HALF_LIFE_DAYS));
  return sql`((CASE (${age}) % ${halfLife} ${fractions} END) / (1 << ((${age}) / ${halfLife})))`;
}

/** The default edition's id as a subquery, chosen as defaultEdition() does (the default, else the newest year). */
const DEFAULT_EDITION_SQL = sql`(${DEFAULT_EDITION_ID_SQL})`;

export type PupilForecast = {
  subjectId: number;
  name: string;
  predicted: number | null;
  low: number | null;
  high: number | null;
  answers: number;
};

export type PupilProgress = {
  userId: number;
  name: string;
  email: string;
  /** Answers and accuracy (0-1) in the window. */
  answered: number;
  accuracy: number | null;
  trend: PupilTrend;
  forecast: PupilForecast[];
  lastActiveAt: number | null;
  /** Whole days since the last practice; null if never. */
  inactiveDays: number | null;
  inactive: boolean;
};

export type ClassProgress = {
  classId: number;
  name: string;
  now: number;
  since: number;
  weeks: number;
  edition: { id: number; label: string };
  units: UnitProgress[];
  weakest: UnitProgress[];
  pupils: PupilProgress[];
  inactive: { userId: number; name: string; inactiveDays: number | null }[];
};

type Num = number | null;

export async function classProgress(db: Db, user: SessionUser, classId: number, now = Date.now()) {
  const at = Math.floor(now);
  const since = at - PROGRESS_WEEKS * WEEK_MS;
  // The completed practice answers of the class's members, none of a question a live simulation seals. CROSS JOIN
  // keeps SQLite starting from the class (else it may start from a unit's questions and read the whole site's answers).
  const answersOfClass = (extra: SQL, join: SQL = sql``) => sql`
    FROM class_members cm
    CROSS JOIN attempts a ON a.user_id = cm.user_id AND a.status = 'completed'
    CROSS JOIN attempt_answers aa ON aa.attempt_id = a.id
    JOIN questions q ON q.id = aa.question_id
    ${join}
    WHERE cm.class_id = ${classId} AND aa.question_id NOT IN (${liveSimulationQuestionIdsSql(at)}) ${extra}`;
  const inWindow = sql`AND a.started_at >= ${since}`;
  // Each answer's recency weight from its whole days of age, as forecast.ts counts them.
  const weight = recencyWeightSql(
    sql`min(max(0, CAST((${at} - aa.answered_at) / ${DAY_MS} AS INTEGER)), ${MAX_WEIGHT_AGE_DAYS})`,
  );
  const queries = [
    sql`SELECT u.id AS user_id, u.name, u.email,
          (SELECT max(x.started_at) FROM attempts x WHERE x.user_id = u.id) AS last_at
        FROM class_members cm JOIN users u ON u.id = cm.user_id
        WHERE cm.class_id = ${classId} ORDER BY coalesce(nullif(u.name, ''), u.email), u.id`,
    sql`SELECT q.subject_id, qeu.unit, count(*) AS n, sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END) AS k
        ${answersOfClass(
          sql`${inWindow}`,
          sql`JOIN question_edition_units qeu ON qeu.question_id = aa.question_id AND qeu.edition_id = ${DEFAULT_EDITION_SQL}`,
        )}
        GROUP BY q.subject_id, qeu.unit`,
    sql`SELECT a.user_id, CAST((${at} - a.started_at) / ${WEEK_MS} AS INTEGER) AS week, count(*) AS n,
          sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END) AS k
        ${answersOfClass(inWindow)}
        GROUP BY a.user_id, week`,
    sql`SELECT a.user_id, q.subject_id, coalesce(q.topic_id, 0) AS topic_id, count(*) AS n,
          sum(${weight}) AS wn, sum(CASE WHEN aa.correct = 1 THEN ${weight} ELSE 0 END) AS wk
        ${answersOfClass(sql``)}
        GROUP BY a.user_id, q.subject_id, coalesce(q.topic_id, 0)`,
    // The exam's topic mix as the forecast reads it (learning-advice.server.ts): the bank's active questions.
    sql`SELECT subject_id, coalesce(topic_id, 0) AS topic_id, count(*) AS n FROM questions WHERE active = 1
        GROUP BY subject_id, coalesce(topic_id, 0)`,
    sql`SELECT id, name FROM subjects`,
  ];

  const [edition, [cls, results]] = await Promise.all([
    defaultEdition(db),
    (async () => {
      const cls = await requireManagedClass(db, user, classId);
      const answers = await d1(db).batch(queries.map((q) => stmt(db, q)));
      return [cls, answers.map((r) => r.results as Record<string, Num | string>[])] as const;
    })(),
  ]);
  const [memberRows, unitRows, weekRows, forecastRows, mixRows, subjectRows] = results as [
    { user_id: number; name: string | null; email: string; last_at: Num }[],
    { subject_id: number; unit: number; n: number; k: Num }[],
    { user_id: number; week: number; n: number; k: Num }[],
    { user_id: number; subject_id: number; topic_id: number; n: number; wn: number; wk: Num }[],
    { subject_id: number; topic_id: number; n: number }[],
    { id: number; name: string }[],
  ];

  const subjectName = new Map(subjectRows.map((s) => [s.id, s.name]));
  const examSubjects = edition.format.subjects.map((s) => s.subjectId);

  // Every unit of the edition, in the day's subject order, answered or not.
  const unitCounts = new Map(unitRows.map((r) => [`${r.subject_id}:${r.unit}`, { answered: r.n, correct: r.k ?? 0 }]));
  const order = (subjectId: number) => {
    const i = examSubjects.indexOf(subjectId);
    return i < 0 ? examSubjects.length + subjectId : i;
  };
  const units: UnitProgress[] = [...edition.format.units]
    .sort((a, b) => order(a.subjectId) - order(b.subjectId) || a.number - b.number)
    .map((u) => {
      const counts = unitCounts.get(`${u.subjectId}:${u.number}`) ?? { answered: 0, correct: 0 };
      return {
        subjectId: u.subjectId,
        subject: subjectName.get(u.subjectId) ?? `Materia ${u.subjectId}`,
        unit: u.number,
        title: u.title,
        ...counts,
        accuracy: accuracyOf(counts),
      };
    });

  const mix = new Map<number, Map<number, number>>();
  for (const r of mixRows) {
    const m = mix.get(r.subject_id) ?? new Map<number, number>();
    m.set(r.topic_id, r.n);
    mix.set(r.subject_id, m);
  }
  const weeksOf = new Map<number, { week: number; answered: number; correct: number }[]>();
  for (const r of weekRows)
    weeksOf.set(r.user_id, [...(weeksOf.get(r.user_id) ?? []), { week: r.week, answered: r.n, correct: r.k ?? 0 }]);
  const groupsOf = new Map<string, { groups: TopicAnswers[]; answers: number }>();
  for (const r of forecastRows) {
    const key = `${r.user_id}:${r.subject_id}`;
    const entry = groupsOf.get(key) ?? { groups: [], answers: 0 };
    // Weighted sums already: age 0 weighs 1, so the engine's posterior is the same as over the raw answers.
    entry.groups.push({ topicId: r.topic_id, ageDays: 0, n: r.wn, correct: r.wk ?? 0 });
    entry.answers += r.n;
    groupsOf.set(key, entry);
  }

  const pupils: PupilProgress[] = memberRows.map((m) => {
    const weeks = weeksOf.get(m.user_id) ?? [];
    const total = weeks.reduce((s, w) => ({ answered: s.answered + w.answered, correct: s.correct + w.correct }), {
      answered: 0,
      correct: 0,
    });
    const lastActiveAt = m.last_at ?? null;
    return {
      userId: m.user_id,
      name: m.name || m.email,
      email: m.email,
      answered: total.answered,
      accuracy: accuracyOf(total),
      trend: pupilTrend(weeks),
      forecast: examSubjects.map((subjectId) => {
        const entry = groupsOf.get(`${m.user_id}:${subjectId}`) ?? { groups: [], answers: 0 };
        const f = forecastSubject(entry.groups, mix.get(subjectId) ?? new Map(), entry.answers);
        return { subjectId, name: subjectName.get(subjectId) ?? `Materia ${subjectId}`, ...f };
      }),
      lastActiveAt,
      inactiveDays: daysSince(lastActiveAt, at),
      inactive: isInactive(lastActiveAt, at),
    };
  });

  return {
    classId: cls.id,
    name: cls.name,
    now: at,
    since,
    weeks: PROGRESS_WEEKS,
    edition: { id: edition.id, label: edition.label },
    units,
    weakest: weakestUnits(units),
    pupils,
    inactive: pupils
      .filter((p) => p.inactive)
      .sort((a, b) => (b.inactiveDays ?? Number.POSITIVE_INFINITY) - (a.inactiveDays ?? Number.POSITIVE_INFINITY))
      .map((p) => ({ userId: p.userId, name: p.name, inactiveDays: p.inactiveDays })),
  } satisfies ClassProgress;
}
