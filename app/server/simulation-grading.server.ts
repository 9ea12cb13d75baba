// The grading write of a simulation room: graded attempts in multi-row INSERTs, with the question memories in the
// same D1 batch (called by the SimulationRoom Durable Object).
import type { AnswerKey, SimulationResult } from "~/lib/simulation";
import { simulations } from "./db/schema";
import { simulationMemoryStatements } from "./learning.server";
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
 * simulation_rooms is written last; the simulation counts as graded once every room has one.
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
) {
  for (const part of chunk(graded, STUDENTS_PER_BATCH)) {
    const memories = await simulationMemoryStatements(d1, simulationId, part, subjectKeys, now);
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
  ]);
}
