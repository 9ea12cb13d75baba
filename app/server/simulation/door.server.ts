import { and, eq, sql } from "drizzle-orm";
import { ROOM_LOCATION_HINT, roomName, shardOf } from "~/lib/simulation-protocol";
import type { Db } from "../db/client.server";
import { classMembers, simulationAllowedClasses, simulationAllowedUsers } from "../db/schema";
import { HttpError } from "../errors.server";
import type { SessionUser } from "../session.server";

export const SIM_TEXT = {
  notAllowed: "Non sei abilitato a questa simulazione",
  notFound: "Simulazione non trovata",
  invalidFile: "File domande non valido",
  missingFields: "Compila tutti i campi",
  notYours: "Puoi gestire solo le simulazioni che hai creato.",
  unknownClass: "Classe abilitata inesistente.",
  notYourClass: "Puoi abilitare solo le classi che gestisci.",
  notFinished: "La simulazione non è ancora conclusa: i risultati per classe arrivano alla fine.",
} as const;

/**
 * THE allowed set of a simulation: its allowed users ∪ the current members of its allowed classes.
 * It is read when asked (a student opening the page, the JSON calls, each socket), never copied at
 * creation, so a pupil who joins a class later still gets in and one who leaves is out.
 * With `userId` it answers for that user only (at most two index lookups).
 */
export function simulationAudience(db: Db, simulationId: string, userId?: number) {
  const direct = db
    .select({ userId: simulationAllowedUsers.userId })
    .from(simulationAllowedUsers)
    .where(
      and(
        eq(simulationAllowedUsers.simulationId, simulationId),
        userId === undefined ? undefined : eq(simulationAllowedUsers.userId, userId),
      ),
    );
  const viaClasses = db
    .select({ userId: classMembers.userId })
    .from(simulationAllowedClasses)
    .innerJoin(classMembers, eq(classMembers.classId, simulationAllowedClasses.classId))
    .where(
      and(
        eq(simulationAllowedClasses.simulationId, simulationId),
        userId === undefined ? undefined : eq(classMembers.userId, userId),
      ),
    );
  return direct.union(viaClasses);
}

/** Admins may always enter; everybody else must be in the simulation's allowed set. */
export async function canEnterSimulation(
  db: Db,
  simulationId: string,
  user: Pick<SessionUser, "id" | "effectiveRole">,
): Promise<boolean> {
  if (user.effectiveRole === "admin") return true;
  return (await simulationAudience(db, simulationId, user.id)).length > 0;
}

/** A simulation's own row, what every student call needs besides its plan. */
export type SimulationHead = {
  id: string;
  title: string;
  started: boolean;
  startTime: number | null;
  gradedAt: number | null;
  /** THE sitting's end (the latest candidate's, extra time included) and its seal's lift, stored at Avvia; null before. */
  endsAt: number | null;
  sealUntil: number | null;
  createdBy: number | null;
  shards: number;
  /** The exam edition a template simulation follows (its grades out of 30); null when made by hand. */
  editionId: number | null;
  /** How many attempts its final ranking holds; null until ranked (rankSimulation). */
  rankedCount: number | null;
  /** A day alone's student (issue 46, solo.server.ts); null for a group simulation. */
  soloUserId?: number | null;
  /** Before Avvia, the version of its plan (made and saved when): a Worker keeps the plan per isolate under it. */
  planVersion?: string;
};

/**
 * A student's door into a simulation: its row, whether they are in its audience, and their room. `extraPct`: their
 * extra time fixed at the start (simulation_accommodations), read in the same statement; null before the start (then
 * candidateExtraPct computes what would apply now).
 */
export type SimulationAccess = { sim: SimulationHead; shard: number; shards: number; extraPct: number | null };

/**
 * ONE statement, point lookups only, whatever the audience (issue 31): the simulation's row, the user's seat
 * (simulation_seats) and whether they are in the audience (the allowed list's primary key, or their own class
 * memberships against the allowed classes). Unknown → 404; outside the audience (not an admin) → 403. A member
 * without a seat (joined a class since Avvia, or an admin) sits in the deterministic shardOf room.
 * The class test starts from the user's own memberships (CROSS JOIN keeps SQLite from reordering it): left to
 * itself, the planner walked the simulation's allowed classes, 28 rows a call with 100 classes in the bench's
 * 6,000-student day, growing with the classes invited.
 */
export async function requireSimulationAccess(
  db: Db,
  id: string,
  user: Pick<SessionUser, "id" | "effectiveRole">,
): Promise<SimulationAccess> {
  const row = await db.get<{
    id: string;
    title: string;
    started: number;
    startTime: number | null;
    gradedAt: number | null;
    endsAt: number | null;
    sealUntil: number | null;
    createdBy: number | null;
    shards: number;
    editionId: number | null;
    rankedCount: number | null;
    soloUserId: number | null;
    seat: number | null;
    extraPct: number | null;
    member: number;
    createdAt: number;
    planVersion: number;
  } | null>(sql`SELECT s.id, s.title, s.started, s.start_time AS startTime, s.graded_at AS gradedAt,
      s.ends_at AS endsAt, s.seal_until AS sealUntil,
      s.created_by AS createdBy, s.shards, s.edition_id AS editionId, s.ranked_count AS rankedCount,
      s.solo_user_id AS soloUserId, s.created_at AS createdAt, s.plan_version AS planVersion,
      (SELECT shard FROM simulation_seats WHERE simulation_id = s.id AND user_id = ${user.id}) AS seat,
      (SELECT extra_time_pct FROM simulation_accommodations WHERE s.started AND simulation_id = s.id
        AND user_id = ${user.id}) AS extraPct,
      (EXISTS (SELECT 1 FROM simulation_allowed_users WHERE simulation_id = s.id AND user_id = ${user.id})
        OR EXISTS (SELECT 1 FROM class_members cm
          CROSS JOIN simulation_allowed_classes sac ON sac.simulation_id = s.id AND sac.class_id = cm.class_id
          WHERE cm.user_id = ${user.id})) AS member
    FROM simulations s WHERE s.id = ${id}`);
  if (!row) throw new HttpError(404, SIM_TEXT.notFound);
  if (user.effectiveRole !== "admin" && !row.member) throw new HttpError(403, SIM_TEXT.notAllowed);
  const shards = row.shards;
  const sim: SimulationHead = {
    id: row.id,
    title: row.title,
    started: Boolean(row.started),
    startTime: row.startTime,
    gradedAt: row.gradedAt,
    endsAt: row.endsAt,
    sealUntil: row.sealUntil,
    createdBy: row.createdBy,
    shards,
    editionId: row.editionId,
    rankedCount: row.rankedCount,
    soloUserId: row.soloUserId,
    planVersion: `${row.createdAt}:${row.planVersion}`,
  };
  const seat = row.seat;
  return {
    sim,
    shards,
    shard: seat != null && seat < shards ? seat : shardOf(user.id, shards),
    extraPct: sim.started ? (row.extraPct ?? 0) : null,
  };
}

/** The same door as requireSimulationAccess, for the JSON calls: the simulation's row (404/403 as there). */
export async function requireSimulationFor(db: Db, id: string, user: SessionUser): Promise<SimulationHead> {
  return (await requireSimulationAccess(db, id, user)).sim;
}

/**
 * One room of a simulation: the Durable Object named "<simulationId>:<shard>", created near the exam's students
 * (ROOM_LOCATION_HINT; a hint only counts when the object is first created, later calls find it where it is).
 */
export function roomFor(env: Env, id: string, shard: number) {
  return env.SIMULATION_ROOM.get(env.SIMULATION_ROOM.idFromName(roomName(id, shard)), {
    locationHint: ROOM_LOCATION_HINT,
  });
}

/** The room of a signed-in user (for the HTTP attempt call; the socket route does the same). */
export async function roomOfUser(db: Db, env: Env, id: string, user: SessionUser) {
  const { shard } = await requireSimulationAccess(db, id, user);
  return roomFor(env, id, shard);
}
