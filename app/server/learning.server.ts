// The learning engine on the server: each student's FSRS memory per question, written in the grading batch of
// every graded answer and rebuilt from history. What it advises (the review of the day, the score forecast, the
// targeted draw, the peer difficulty) is in learning-advice.server.ts. The math lives in ~/lib/fsrs-rating.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { memoryColumns, reviewMemory, type MemoryState } from "~/lib/fsrs-rating";
import { isCorrect, type AnswerKey, type Judge } from "~/lib/simulation";
import type { Db } from "./db/client.server";
import { questionMemory, questions, statQuestionAccuracy, type QuestionMemory } from "./db/schema";

type Statement = Parameters<Db["batch"]>[0][number];

/** One graded answer as the learning engine sees it (null = blank). */
export type LearnedAnswer = { questionId: number; correct: boolean | null; timeSec: number | null };

export function memoryOf(row: QuestionMemory): MemoryState {
  return {
    due: row.due.getTime(),
    stability: row.stability,
    difficulty: row.difficulty,
    scheduledDays: row.scheduledDays,
    learningSteps: row.learningSteps,
    reps: row.reps,
    lapses: row.lapses,
    state: row.state,
    lastReview: row.lastReview.getTime(),
    lastCorrect: row.lastCorrect,
  };
}

function memoryRow(userId: number, questionId: number, m: MemoryState) {
  return {
    userId,
    questionId,
    due: new Date(m.due),
    stability: m.stability,
    difficulty: m.difficulty,
    scheduledDays: m.scheduledDays,
    learningSteps: m.learningSteps,
    reps: m.reps,
    lapses: m.lapses,
    state: m.state,
    lastReview: new Date(m.lastReview),
    lastCorrect: m.lastCorrect,
  };
}

/** The stored memory of a user for some questions: a list of ids, or a subquery of ids. */
export function readMemoryQuery(db: Db, userId: number, questionIds: number[] | SQL) {
  const ids = Array.isArray(questionIds)
    ? inArray(questionMemory.questionId, questionIds)
    : sql`${questionMemory.questionId} IN (${questionIds})`;
  return db
    .select()
    .from(questionMemory)
    .where(and(eq(questionMemory.userId, userId), ids))
    .all();
}

export async function readMemory(db: Db, userId: number, questionIds: number[]): Promise<QuestionMemory[]> {
  const out: QuestionMemory[] = [];
  for (let i = 0; i < questionIds.length; i += 90)
    out.push(...(await readMemoryQuery(db, userId, questionIds.slice(i, i + 90))));
  return out;
}

const MEMORY_SET = {
  due: sql`excluded.due`,
  stability: sql`excluded.stability`,
  difficulty: sql`excluded.difficulty`,
  scheduledDays: sql`excluded.scheduled_days`,
  learningSteps: sql`excluded.learning_steps`,
  reps: sql`excluded.reps`,
  lapses: sql`excluded.lapses`,
  state: sql`excluded.state`,
  lastReview: sql`excluded.last_review`,
  lastCorrect: sql`excluded.last_correct`,
};

/**
 * One upsert for any number of memories: the rows travel as one JSON parameter (D1 binds at most 100
 * values per statement; 31 rows of 12 columns would take four statements). A concurrent grading that
 * already wrote a later review wins.
 */
function upsertMemory(db: Db, rows: ReturnType<typeof memoryRow>[]): Statement[] {
  if (rows.length === 0) return [];
  const json = JSON.stringify(
    rows.map((r) => [
      r.userId,
      r.questionId,
      r.due.getTime(),
      r.stability,
      r.difficulty,
      r.scheduledDays,
      r.learningSteps,
      r.reps,
      r.lapses,
      r.state,
      r.lastReview.getTime(),
      r.lastCorrect == null ? null : r.lastCorrect ? 1 : 0,
    ]),
  );
  return [
    db
      .insert(questionMemory)
      // `WHERE true` keeps SQLite from reading ON CONFLICT as part of the SELECT's join.
      .select(
        sql`SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7, j.value ->> 8, j.value ->> 9, j.value ->> 10, j.value ->> 11 FROM json_each(${json}) AS j WHERE true`,
      )
      .onConflictDoUpdate({
        target: [questionMemory.userId, questionMemory.questionId],
        set: MEMORY_SET,
        setWhere: sql`excluded.last_review >= ${questionMemory.lastReview}`,
      }),
  ];
}

/**
 * Statements for the grading batch: the memory of every answered question (blank included) and the
 * peer counts of the answered ones. `prior` is the memory read before grading. Being in the same batch
 * as the attempt, a retried or concurrent second submission rolls them back with it.
 */
export function learningStatements(
  db: Db,
  userId: number,
  answers: readonly LearnedAnswer[],
  prior: readonly QuestionMemory[],
  at: number,
): Statement[] {
  if (answers.length === 0) return [];
  const before = new Map(prior.map((row) => [row.questionId, memoryOf(row)]));
  const rows = answers.map((a) =>
    memoryRow(
      userId,
      a.questionId,
      reviewMemory(before.get(a.questionId), { correct: a.correct, timeSec: a.timeSec, at }),
    ),
  );
  const answered = answers.filter((a) => a.correct != null);
  const stats: Statement[] = answered.length
    ? [
        db
          .insert(statQuestionAccuracy)
          .select(
            sql`SELECT j.value ->> 0, 1, j.value ->> 1 FROM json_each(${JSON.stringify(answered.map((a) => [a.questionId, a.correct ? 1 : 0]))}) AS j WHERE true`,
          )
          .onConflictDoUpdate({
            target: statQuestionAccuracy.questionId,
            set: {
              answered: sql`${statQuestionAccuracy.answered} + excluded.answered`,
              correct: sql`${statQuestionAccuracy.correct} + excluded.correct`,
            },
          }),
      ]
    : [];
  return [...upsertMemory(db, rows), ...stats];
}

// --- Simulations: graded by the room, written with prepared D1 statements. ---

/** Distinct review steps remembered during one grading write (a few KB). */
const MEMORY_STEPS_KEPT = 4096;

/** A number our own code computed (an id, a memory column) as an SQL literal; anything else is refused. */
function sqlNumber(value: number | null): string {
  if (value == null) return "NULL";
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`not a finite number: ${String(value)}`);
  return String(value);
}

/** Students whose prior memories one SELECT reads (their ids are written in the statement, as literals). */
const PRIOR_USERS_PER_SELECT = 100;

/**
 * Statements that apply a simulation's answers to the participants' memories, one per participant, each guarded so
 * it lands only together with the attempt row inserted by this same write (created_at = now): a rerun of the
 * grading, which inserts nothing, changes no memory either.
 *
 * What they cost is a national day's largest share of D1 rows (issue 31): a student's 93 rows go as VALUES written
 * in the statement (numbers our code computed: a JSON parameter read back through json_each counted 93 rows read),
 * into a table without foreign keys (whose checks read 2 rows per row). The prior memories are read with the ids as
 * literals too (no subquery re-reading the simulation's questions for each chunk).
 */
export async function simulationMemoryStatements(
  d1: D1Database,
  simulationId: string,
  graded: readonly { userId: number; answers: Record<string, Record<string, string>> }[],
  subjectKeys: readonly { id: number; keys: readonly AnswerKey[] }[],
  now: number,
  judge: Judge = isCorrect,
): Promise<D1PreparedStatement[]> {
  if (graded.length === 0) return [];
  const questionIds = subjectKeys.flatMap((s) => s.keys.map((k) => k.id));
  if (questionIds.length === 0) return [];
  const questionList = questionIds.map(sqlNumber).join(",");
  /** Each student's prior memories by question (most students of a first sitting have none). */
  const prior = new Map<number, Map<number, MemoryState>>();
  for (let i = 0; i < graded.length; i += PRIOR_USERS_PER_SELECT) {
    const users = graded.slice(i, i + PRIOR_USERS_PER_SELECT).map((g) => sqlNumber(g.userId));
    const { results } = await d1
      .prepare(
        `SELECT * FROM question_memory WHERE user_id IN (${users.join(",")}) AND question_id IN (${questionList})`,
      )
      .all<Record<string, number | null>>();
    for (const r of results) {
      let own = prior.get(r.user_id!);
      if (!own) {
        own = new Map();
        prior.set(r.user_id!, own);
      }
      own.set(r.question_id!, {
        due: r.due!,
        stability: r.stability!,
        difficulty: r.difficulty!,
        scheduledDays: r.scheduled_days!,
        learningSteps: r.learning_steps!,
        reps: r.reps!,
        lapses: r.lapses!,
        state: r.state!,
        lastReview: r.last_review!,
        lastCorrect: r.last_correct == null ? null : r.last_correct === 1,
      });
    }
  }
  // One review step depends only on the prior memory and the verdict (same instant, no time): a room's thousands of
  // students share a few of them (every first answer is one of three), so each distinct step is computed once.
  // Keyed by the verdict alone when there is no prior memory (one of three steps), else by verdict and prior state.
  const steps = new Map<string | boolean | null, string>();
  const stepOf = (before: MemoryState | undefined, correct: boolean | null) => {
    const key = before
      ? `${correct}|${before.due}|${before.stability}|${before.difficulty}|${before.scheduledDays}|${before.learningSteps}|${before.reps}|${before.lapses}|${before.state}|${before.lastReview}|${before.lastCorrect}`
      : correct;
    let columns = steps.get(key);
    if (columns === undefined) {
      columns = memoryColumns(reviewMemory(before, { correct, timeSec: null, at: now }))
        .map(sqlNumber)
        .join(",");
      if (steps.size < MEMORY_STEPS_KEPT) steps.set(key, columns);
    }
    return columns;
  };
  // Per question, once: where its answer is found and its id as SQL.
  const questions = subjectKeys.flatMap((s) =>
    s.keys.map((key) => ({ key, subject: String(s.id), id: String(key.id), sql: `,${sqlNumber(key.id)},` })),
  );
  return graded.map((g) => {
    const user = `(${sqlNumber(g.userId)}`;
    const own = prior.get(g.userId);
    const rows = questions.map(
      (q) => `${user}${q.sql}${stepOf(own?.get(q.key.id), judge(q.key, g.answers[q.subject]?.[q.id]))})`,
    );
    return d1
      .prepare(
        `INSERT INTO question_memory (user_id, question_id, due, stability, difficulty, scheduled_days, learning_steps, reps, lapses, state, last_review, last_correct)
         SELECT * FROM (VALUES ${rows.join(",")})
          WHERE EXISTS (SELECT 1 FROM simulation_attempts WHERE simulation_id = ?1 AND user_id = ?2 AND created_at = ?3)
         ON CONFLICT (user_id, question_id) DO UPDATE SET due = excluded.due, stability = excluded.stability,
           difficulty = excluded.difficulty, scheduled_days = excluded.scheduled_days, learning_steps = excluded.learning_steps,
           reps = excluded.reps, lapses = excluded.lapses, state = excluded.state, last_review = excluded.last_review,
           last_correct = excluded.last_correct
         WHERE excluded.last_review >= question_memory.last_review`,
      )
      .bind(simulationId, g.userId, now);
  });
}

// --- Rebuild from history (recalc-stats, and the same replay as the seed). ---

/**
 * Rebuilds every memory from the answers on record: completed practice attempts (redo and Rush
 * included) and graded simulations, replayed in time order per student and question.
 */
export async function rebuildLearningMemory(db: Db): Promise<{ users: number; memories: number }> {
  await db.run(sql`DELETE FROM question_memory`);
  const userRows = await db.all<{ id: number }>(sql`
    SELECT DISTINCT user_id AS id FROM attempts WHERE status = 'completed'
    UNION SELECT DISTINCT user_id FROM simulation_attempts ORDER BY id`);
  const hasSimulations = (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM simulation_attempts`))?.n ?? 0;
  const keys = new Map<number, AnswerKey>();
  if (hasSimulations) {
    const qs = await db
      .select({
        id: questions.id,
        type: questions.type,
        options: questions.options,
        correctIndex: questions.correctIndex,
        accepted: questions.acceptedAnswers,
        // The grader needs the unit and the tolerance too: without them "12 m/s" or "12,3" would turn wrong here
        // although the room graded them right (issue 28).
        measure: questions.measure,
        tolerance: questions.tolerance,
      })
      .from(questions)
      .all();
    for (const q of qs) keys.set(q.id, q);
  }
  let memories = 0;
  const USERS_PER_CHUNK = 50;
  for (let i = 0; i < userRows.length; i += USERS_PER_CHUNK) {
    const ids = userRows.slice(i, i + USERS_PER_CHUNK).map((u) => u.id);
    const idList = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    const [answers, sims] = await Promise.all([
      db.all<{
        user_id: number;
        question_id: number;
        correct: number | null;
        time_sec: number;
        answered_at: number;
      }>(sql`
        SELECT a.user_id, aa.question_id, aa.correct, aa.time_sec, aa.answered_at
        FROM attempts a JOIN attempt_answers aa ON aa.attempt_id = a.id
        WHERE a.status = 'completed' AND a.user_id IN (${idList})`),
      hasSimulations
        ? db.all<{ user_id: number; answers: string; created_at: number; question_id: number }>(sql`
            SELECT sa.user_id, sa.answers, sa.created_at, sq.question_id
            FROM simulation_attempts sa JOIN simulation_questions sq ON sq.simulation_id = sa.simulation_id
            WHERE sa.user_id IN (${idList})`)
        : Promise.resolve([]),
    ]);
    const reviews = new Map<
      string,
      { userId: number; questionId: number; list: { correct: boolean | null; timeSec: number | null; at: number }[] }
    >();
    const add = (
      userId: number,
      questionId: number,
      review: { correct: boolean | null; timeSec: number | null; at: number },
    ) => {
      const key = `${userId}:${questionId}`;
      const entry = reviews.get(key) ?? { userId, questionId, list: [] };
      entry.list.push(review);
      reviews.set(key, entry);
    };
    for (const a of answers)
      add(a.user_id, a.question_id, {
        correct: a.correct == null ? null : a.correct === 1,
        timeSec: a.time_sec,
        at: a.answered_at,
      });
    // Every question a simulation asked counts, blanks included, as in the room's grading write.
    const parsed = new Map<string, Record<string, Record<string, string>>>();
    for (const s of sims) {
      const key = keys.get(s.question_id);
      if (!key) continue;
      const given = parsed.get(s.answers) ?? (JSON.parse(s.answers) as Record<string, Record<string, string>>);
      parsed.set(s.answers, given);
      const text = Object.values(given).find((bySubject) => bySubject[String(s.question_id)] != null)?.[
        String(s.question_id)
      ];
      add(s.user_id, key.id, { correct: isCorrect(key, text), timeSec: null, at: s.created_at });
    }
    const rows: ReturnType<typeof memoryRow>[] = [];
    for (const entry of reviews.values()) {
      let m: MemoryState | null = null;
      for (const r of entry.list.sort((x, y) => x.at - y.at)) m = reviewMemory(m, r);
      if (m) rows.push(memoryRow(entry.userId, entry.questionId, m));
    }
    const statements: Statement[] = [];
    for (let j = 0; j < rows.length; j += 500) statements.push(...upsertMemory(db, rows.slice(j, j + 500)));
    if (statements.length) await db.batch(statements as [Statement, ...Statement[]]);
    memories += rows.length;
  }
  return { users: userRows.length, memories };
}
