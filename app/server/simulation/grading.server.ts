// The grading write of a simulation room: graded attempts in multi-row INSERTs, with the question memories in the
// same D1 batch (called by the SimulationRoom Durable Object).
import { type AnswerKey, isCorrect, type Judge, type SimulationResult } from "~/lib/simulation";
import { simulationMemoryStatements } from "../learning.server";
import { chunk } from "~/lib/chunk";

/** Rows per INSERT: 8 columns each, under D1's 100 bound variables per statement. */
const ATTEMPT_ROWS_PER_STATEMENT = 12;
/** Students per D1 batch: their attempts and their question memories land together (one atomic round trip). */
const STUDENTS_PER_BATCH = 24;

/**
 * Writes the graded attempts of one room in chunks of multi-row INSERTs. Idempotent: the unique
 * (simulation, user) index makes a rerun or a retry after a crash skip what already landed, so nobody
 * is graded twice. With the answer keys, each participant's question memories are updated in the same
 * batch, guarded so that a rerun (which inserts no attempt) changes none. The room's row in
 * simulation_rooms is written last; the simulation counts as graded once every room has one, and that batch ranks it.
 */
export async function writeGradedAttempts(
  d1: D1Database,
  simulationId: string,
  shard: number,
  graded: {
    userId: number;
    answers: Record<string, Record<string, string>>;
    result: SimulationResult;
    timeSec: number;
  }[],
  now = Date.now(),
  subjectKeys: readonly { id: number; keys: readonly AnswerKey[] }[] = [],
  judge: Judge = isCorrect,
) {
  for (const part of chunk(graded, STUDENTS_PER_BATCH)) {
    const memories = await simulationMemoryStatements(d1, simulationId, part, subjectKeys, now, judge);
    const inserts = chunk(part, ATTEMPT_ROWS_PER_STATEMENT).map((rows) =>
      d1
        .prepare(
          `INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec, created_at)
           VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")} ON CONFLICT (simulation_id, user_id) DO NOTHING`,
        )
        .bind(
          ...rows.flatMap((g) => [
            simulationId,
            g.userId,
            JSON.stringify(g.answers),
            JSON.stringify(g.result.subjects),
            g.result.totale,
            g.result.percTot,
            g.timeSec,
            now,
          ]),
        ),
    );
    // Each batch is atomic: its attempts and their memories land together; reruns skip what landed.
    await d1.batch([...inserts, ...memories]);
  }
  await d1.batch([
    d1
      .prepare(
        `INSERT INTO simulation_rooms (simulation_id, shard, attempts, graded_at) VALUES (?, ?, ?, ?) ON CONFLICT (simulation_id, shard) DO NOTHING`,
      )
      .bind(simulationId, shard, graded.length, now),
    d1
      .prepare(
        `UPDATE simulations SET graded_at = coalesce(graded_at, ?) WHERE id = ?
         AND (SELECT count(*) FROM simulation_rooms WHERE simulation_id = ?) >= shards`,
      )
      .bind(now, simulationId, simulationId),
    // The last room's batch (the simulation is now graded) writes the final ranking once, in the same transaction.
    ...rankingStatements(d1, simulationId),
  ]);
}

/**
 * The final ranking of a graded simulation, written once in SQL (issue 31): rankScores' order and ties (score desc,
 * time asc; user id breaks the order, not the position) as rank_row/rank_pos, and rank_below (how many scored less:
 * percentileWithin's numerator). Runs only once the simulation is graded (every room wrote its attempts); idempotent.
 * The grading write puts them in every room's last batch; only the last room's finds the simulation graded.
 */
export const RANK_ATTEMPTS_SQL = `UPDATE simulation_attempts SET rank_row = r.rn, rank_pos = r.pos, rank_below = r.below
  FROM (SELECT id, row_number() OVER (ORDER BY score DESC, time_sec ASC, user_id ASC) AS rn,
      rank() OVER (ORDER BY score DESC, time_sec ASC) AS pos, rank() OVER (ORDER BY score ASC) - 1 AS below
    FROM simulation_attempts WHERE simulation_id = ?1
      AND EXISTS (SELECT 1 FROM simulations WHERE id = ?1 AND graded_at IS NOT NULL AND ranked_count IS NULL)) AS r
  WHERE simulation_attempts.id = r.id`;
export const RANKED_COUNT_SQL = `UPDATE simulations SET ranked_count = (SELECT count(*) FROM simulation_attempts WHERE simulation_id = ?1)
  WHERE id = ?1 AND graded_at IS NOT NULL AND ranked_count IS NULL`;

/** The ranking statements of one simulation, for a D1 batch; they do nothing before it is graded or once ranked. */
export function rankingStatements(d1: D1Database, simulationId: string): D1PreparedStatement[] {
  return [d1.prepare(RANK_ATTEMPTS_SQL).bind(simulationId), d1.prepare(RANKED_COUNT_SQL).bind(simulationId)];
}
