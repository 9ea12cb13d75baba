// Site-wide aggregates (score histogram, topic accuracy, daily averages) kept up to date as each
// attempt lands, so analytics read a few small rows instead of every answer.
import { sql } from "drizzle-orm";
import { scoreBin } from "~/lib/analytics";
import type { Db } from "./db/client.server";
import { REBUILD_AGGREGATES_SQL } from "./db/aggregate-sql";

export type LandedAttempt = {
  subjectId: number | null;
  startedAt: Date;
  correct: number;
  total: number;
  score: number | null;
  /** One entry per answered (non-blank) question. */
  answers: { topicId: number | null; correct: boolean }[];
};

/** A finite number as an SQL literal (the aggregate statements carry no bound parameters, see below). */
function num(value: number): string {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`aggregate value is not a finite number: ${value}`);
  return String(n);
}

/**
 * Statements that add one completed attempt to the aggregates; run them in the same batch as the attempt.
 * drizzle 0.45's D1 batch cannot bind parameters of a raw `db.run(sql\`...${x}\`)` (it throws on
 * `stmt.bind`), so the values, all numbers and a YYYY-MM-DD day, are written as literals.
 */
export function aggregateStatementsFor(db: Db, attempt: LandedAttempt) {
  if (attempt.subjectId == null || attempt.total <= 0) return [];
  const day = attempt.startedAt.toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return [];
  const subject = num(attempt.subjectId);
  const statements = [
    db.run(sql.raw(`INSERT INTO stat_score_histogram (subject_id, score, count) VALUES (${subject}, ${num(scoreBin(attempt.score, attempt.correct, attempt.total))}, 1)
      ON CONFLICT (subject_id, score) DO UPDATE SET count = count + 1`)),
    db.run(sql.raw(`INSERT INTO stat_daily_scores (subject_id, day, attempts, score_sum) VALUES (${subject}, '${day}', 1, ${num(attempt.score ?? 0)})
      ON CONFLICT (subject_id, day) DO UPDATE SET attempts = attempts + 1, score_sum = score_sum + excluded.score_sum`)),
  ];
  const perTopic = new Map<number, { answered: number; correct: number }>();
  for (const answer of attempt.answers) {
    if (answer.topicId == null) continue;
    const t = perTopic.get(answer.topicId) ?? { answered: 0, correct: 0 };
    t.answered++;
    if (answer.correct) t.correct++;
    perTopic.set(answer.topicId, t);
  }
  for (const [topicId, t] of perTopic) {
    statements.push(
      db.run(sql.raw(`INSERT INTO stat_topic_accuracy (topic_id, subject_id, answered, correct) VALUES (${num(topicId)}, ${subject}, ${num(t.answered)}, ${num(t.correct)})
        ON CONFLICT (topic_id) DO UPDATE SET answered = answered + excluded.answered, correct = correct + excluded.correct`)),
    );
  }
  return statements;
}

/** Rebuilds every aggregate from the attempts (recalc-stats, after imports). */
export async function rebuildAggregates(db: Db): Promise<void> {
  const [first, ...rest] = REBUILD_AGGREGATES_SQL.map((statement) => db.run(sql.raw(statement)));
  await db.batch([first!, ...rest]);
}
