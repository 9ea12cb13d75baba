import { editionGapBoxes } from "~/lib/edition";
import { defaultEdition } from "../editions.server";
import { and, eq } from "drizzle-orm";
import type { SimulationResult } from "~/lib/simulation";
import { catchUpWithPrimary } from "../db/d1-session.server";
import { withGrades } from "~/lib/simulation-day";
import { rankKey } from "~/lib/rank-key";
import { editionOrDefault } from "../editions.server";
import type { Db } from "../db/client.server";
import { simulationAttempts, simulations } from "../db/schema";
import { HttpError } from "../errors.server";
import type { SessionUser } from "../session.server";

import { rankingFor } from "./ranking.server";
import { soloRanking } from "./solo.server";
import { requireSimulationAccess, roomFor } from "./door.server";
export type StoredAttempt = typeof simulationAttempts.$inferSelect;

export async function attemptOf(db: Db, simulationId: string, userId: number) {
  return db
    .select()
    .from(simulationAttempts)
    .where(and(eq(simulationAttempts.simulationId, simulationId), eq(simulationAttempts.userId, userId)))
    .get();
}

export function resultOf(attempt: StoredAttempt): SimulationResult & { attemptId: number } {
  return { attemptId: attempt.id, totale: attempt.score, percTot: attempt.perc, subjects: attempt.subjectsResult };
}

/** The stored result for /simulazione/riepilogo: only the owner (or an admin) sees it. */
export async function storedResult(db: Db, simulationId: string, attemptId: number, user: SessionUser) {
  const row = await db
    .select()
    .from(simulationAttempts)
    .where(and(eq(simulationAttempts.id, attemptId), eq(simulationAttempts.simulationId, simulationId)))
    .get();
  if (!row || (row.userId !== user.id && user.effectiveRole !== "admin")) return null;
  const sim = await db
    .select({
      title: simulations.title,
      editionId: simulations.editionId,
      gradedAt: simulations.gradedAt,
      rankedCount: simulations.rankedCount,
      soloUserId: simulations.soloUserId,
    })
    .from(simulations)
    .where(eq(simulations.id, simulationId))
    .get()
    .then((r) => (r ? { ...r, gradedAt: r.gradedAt?.getTime() ?? null } : undefined));
  const edition = await simulationEdition(db, sim?.editionId ?? null);
  return {
    ...gradedView(resultOf(row), edition),
    title: sim?.title ?? simulationId,
    userId: row.userId,
    ranking:
      sim?.soloUserId != null
        ? await soloRanking(db, simulationId, row.userId)
        : await rankingFor(db, simulationId, row.userId, sim ? { id: simulationId, ...sim } : undefined),
  };
}

/** What a result page says of the edition a simulation followed (its summary shows it), or null. */
/**
 * A result as every screen shows it: each exam's grade out of 30 (an edition's day), the ranking key with its section
 * (rankKey: the same figures as the ranking and the CSV), and the edition followed.
 */
export function gradedView(result: SimulationResult, edition: Awaited<ReturnType<typeof simulationEdition>>) {
  return { ...withGrades(result, edition), rank: rankKey(result, edition), edition: editionRef(edition) };
}

function editionRef(edition: { label: string; academicYear: string } | null) {
  return edition ? { label: edition.label, academicYear: edition.academicYear } : null;
}

/** The sheet's completamento boxes of a simulation: its edition's, else the default edition's. */
export async function simulationGapBoxes(db: Db, editionId: number | null): Promise<number> {
  const edition = (await simulationEdition(db, editionId)) ?? (await defaultEdition(db).catch(() => null));
  return editionGapBoxes(edition);
}

/** The edition a simulation follows (for its grades), or null (made by hand, or the edition is gone). */
export async function simulationEdition(db: Db, editionId: number | null) {
  if (editionId == null) return null;
  return editionOrDefault(db, editionId).catch(() => null);
}

/**
 * A student's attempt (or an autosave over HTTP, with timeTaken 0), merged in their room with what the socket saved;
 * once the room has graded, the stored result comes back. Idempotent. POST /api/simulations/{id}/attempt and the
 * /simulazione screen's action.
 */
export async function submitSimulationAttempt(
  db: Db,
  env: Env,
  id: string,
  user: SessionUser,
  body: { answers: Record<string, Record<string, string>>; timeTaken: number },
) {
  // One point lookup for the door and the room; the room touches only this student's rows.
  const { sim, shard } = await requireSimulationAccess(db, id, user);
  const outcome = await roomFor(env, id, shard).submitAttempt(user.id, body.answers, body.timeTaken);
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
  if (outcome.pending) return outcome;
  // The room graded on the primary through its own binding: the student's next read (the ranking) must see it.
  await catchUpWithPrimary(env);
  const edition = await simulationEdition(db, sim.editionId);
  return { ...outcome, result: gradedView(outcome.result, edition) };
}
