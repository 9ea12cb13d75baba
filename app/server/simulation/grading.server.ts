// The grading write of a simulation room: graded attempts in multi-row INSERTs, with the question memories in the
// same D1 batch (called by the SimulationRoom Durable Object).
import { type AnswerKey, isCorrect, type Judge, type SimulationResult } from "~/lib/simulation";
import { simulationMemoryStatements } from "../learning.server";
import { chunk } from "~/lib/chunk";
import { rankKey } from "~/lib/rank-key";
import { getDb } from "../db/client.server";
import { editionOrDefault } from "../editions.server";
import { HttpError } from "../errors.server";

/** Rows per INSERT: 9 columns each, under D1's 100 bound variables per statement. */
const ATTEMPT_ROWS_PER_STATEMENT = 11;
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
  // Each attempt's ranking key (rankKey): an edition's day ranks by its section and grades, one made by hand by its total.
  const editionRow = await d1
    .prepare("SELECT edition_id AS editionId FROM simulations WHERE id = ?")
    .bind(simulationId)
    .first<{ editionId: number | null }>();
  // A failed read fails the grading (it is retried, and idempotent): no room may rank on another scale than the rest.
  // Only an edition deleted since the save ranks the day by its total, in every room alike.
  const edition =
    editionRow?.editionId != null
      ? await editionOrDefault(getDb(d1), editionRow.editionId).catch((error: unknown) => {
          if (error instanceof HttpError && error.status === 404) return null;
          throw error;
        })
      : null;
  for (const part of chunk(graded, STUDENTS_PER_BATCH)) {
    const memories = await simulationMemoryStatements(d1, simulationId, part, subjectKeys, now, judge);
    const inserts = chunk(part, ATTEMPT_ROWS_PER_STATEMENT).map((rows) =>
      d1
        .prepare(
          `INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec, created_at, rank_key)
           VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")} ON CONFLICT (simulation_id, user_id) DO NOTHING`,
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
            rankKey(g.result, edition).key,
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
 * The final ranking of a graded simulation, written once in SQL (issue 31; the order is issue 44's): rank_key
 * descending (rankKey in app/lib/rank-key.ts; rows written before it rank by their score), equal keys sharing a
 * position (rank_pos; the user id only orders the rows of a tie, rank_row), and rank_below (how many have a strictly
 * lower key: percentileByKey's numerator). No number a client sends takes part. Runs only once the simulation is
 * graded (every room wrote its attempts); idempotent. The grading write puts them in every room's last batch; only the
 * last room's finds the simulation graded.
 */
export const RANK_ATTEMPTS_SQL = `UPDATE simulation_attempts SET rank_row = r.rn, rank_pos = r.pos, rank_below = r.below
  FROM (SELECT id, row_number() OVER (ORDER BY coalesce(rank_key, score) DESC, user_id ASC) AS rn,
      rank() OVER (ORDER BY coalesce(rank_key, score) DESC) AS pos,
      rank() OVER (ORDER BY coalesce(rank_key, score) ASC) - 1 AS below
    FROM simulation_attempts WHERE simulation_id = ?1
      AND EXISTS (SELECT 1 FROM simulations WHERE id = ?1 AND graded_at IS NOT NULL AND ranked_count IS NULL)) AS r
  WHERE simulation_attempts.id = r.id`;
export const RANKED_COUNT_SQL = `UPDATE simulations SET ranked_count = (SELECT count(*) FROM simulation_attempts WHERE simulation_id = ?1)
  WHERE id = ?1 AND graded_at IS NOT NULL AND ranked_count IS NULL`;

/** The ranking statements of one simulation, for a D1 batch; they do nothing before it is graded or once ranked. */
export function rankingStatements(d1: D1Database, simulationId: string): D1PreparedStatement[] {
  return [d1.prepare(RANK_ATTEMPTS_SQL).bind(simulationId), d1.prepare(RANKED_COUNT_SQL).bind(simulationId)];
}
