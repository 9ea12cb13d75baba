// Avvia: the one start of a simulation and the development-only clock hook.
import { and, eq, sql } from "drizzle-orm";
import { SIMULATION_START_LEAD_MS } from "~/lib/constants";
import { type SittingTimeline, shiftedTimeline, sittingTimeline } from "~/lib/sitting-timeline";
import { seatsAtStart } from "~/lib/room-seats";
import type { Db } from "../db/client.server";
import { simulationSeats, simulations, users } from "../db/schema";
import { accommodationsNow, storeAccommodations } from "../accommodations.server";
import { effectiveRole } from "../session.server";
import { HttpError } from "../errors.server";
import { assertTeacherMayStart, checkTeacherSimulation, runningUnderLimitSql, TEACHER_SIM_TEXT } from "./policy.server";
import { SIM_TEXT, simulationAudience, roomFor } from "./door.server";
import { loadSimulation } from "./plan.server";
import { chunk } from "~/lib/chunk";

import { type Manager, requireManagedSimulation } from "./admin.server";
/**
 * Who may sit the simulation at its start: its audience (picked users ∪ members of its classes, the same
 * simulationAudience every door reads); someone admitted later gets shardOf at their first call.
 */
export async function allowedAtStart(db: Db, id: string): Promise<number[]> {
  const rows = await simulationAudience(db, id);
  return rows.map((r) => r.userId);
}

/**
 * Avvia: fixes one absolute start a few seconds ahead (once), keeps the rooms chosen at save (more only if the
 * audience outgrew them), seats whoever joined since, then tells all rooms in parallel. Each room broadcasts the same
 * startTime to its students; a room that hears late still starts on time (clients count on their offset),
 * and a room that missed the call reads the start from D1 at its next connection.
 */
export async function startSimulation(
  db: Db,
  env: Env,
  id: string,
  user: Manager,
  now = Date.now(),
  options: { delayShard?: (shard: number) => number } = {},
) {
  await requireManagedSimulation(db, user, id);
  // A teacher's is checked again (one saved before the rules, or a pupil who left the class since): the allowed list
  // is read for them only (a national sitting's is 60,000 ids).
  const teacher = user.effectiveRole !== "admin";
  const config = await loadSimulation(db, id, { allowedUsers: teacher });
  if (!config) throw new HttpError(404, SIM_TEXT.notFound);
  if (config.started) throw new HttpError(409, "La simulazione è già stata avviata.");
  if (!config.subjects.length) throw new HttpError(400, "La simulazione non ha materie.");
  if (teacher) {
    const subjects = config.subjects.map((s) => ({
      timeMin: s.timeMin,
      breakAfterMin: s.breakAfterMin,
      questionCount: s.questions.length,
    }));
    await checkTeacherSimulation(db, user, { subjects, allowedUsers: config.allowedUsers });
  }
  // Whom its seal covers (the seal policy, seal.server.ts): every account for a simulation an admin created, its own
  // audience for a teacher's, which must then have a pupil and be one of at most two the teacher runs at once.
  const scope = await sealScopeOf(db, env, config.createdBy);
  if (scope === "audience") await assertTeacherMayStart(db, id, config.createdBy, now);
  // Everybody seated at save keeps their room (no reconnect at Avvia); whoever joined a class since is seated now.
  const [audience, seatRows] = await Promise.all([
    allowedAtStart(db, id),
    db
      .select({ userId: simulationSeats.userId, shard: simulationSeats.shard })
      .from(simulationSeats)
      .where(eq(simulationSeats.simulationId, id))
      .all(),
  ]);
  const { shards, added, moved } = seatsAtStart(
    audience,
    new Map(seatRows.map((r) => [r.userId, r.shard])),
    config.shards,
  );
  const startTime = now + SIMULATION_START_LEAD_MS;
  // The candidates' extra time as it applies now, and from it THE timeline (the latest candidate's end, the seal's
  // lift), stored with the start in one statement: the seal, the door, the lists, the rooms and the result read it.
  const extra = await accommodationsNow(db, id);
  const timeline = sittingTimeline(
    config.subjects,
    startTime,
    extra.map((r) => r.pct),
  );
  // Accommodations are fixed before the start is written, so no room can load its plan without them: every door
  // reads the same deadlines. (Before the start nothing reads them: candidateExtraPct computes them live.)
  await storeAccommodations(db, id, extra);
  // One conditional write: still not started, still the plan read above (a Save landing in between would change the
  // plan under a timeline computed from the old one), and for a teacher still under the running limit.
  const updated = await db
    .update(simulations)
    .set({
      started: true,
      startTime: new Date(startTime),
      shards,
      endsAt: new Date(timeline.endsAt),
      sealUntil: new Date(timeline.sealUntil),
      sealScope: scope,
    })
    .where(
      and(
        eq(simulations.id, id),
        eq(simulations.started, false),
        eq(simulations.planVersion, config.saves),
        scope === "audience" ? runningUnderLimitSql(id, config.createdBy, now) : undefined,
      ),
    )
    .returning({ id: simulations.id });
  if (!updated.length) throw await refusedStart(db, id, config.saves);
  const newSeats = chunk(
    [...added].map(([userId, shard]) => ({ simulationId: id, userId, shard })),
    30,
  ).map((part) => db.insert(simulationSeats).values(part).onConflictDoNothing());
  if (newSeats.length) await db.batch(newSeats as unknown as Parameters<Db["batch"]>[0]);
  const tell = async (shard: number) => {
    const delay = options.delayShard?.(shard) ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    for (let attempt = 0; ; attempt++) {
      try {
        return await roomFor(env, id, shard).start(id, shard, startTime, shards, moved.get(shard) ?? []);
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: shards }, (_, shard) => tell(shard)));
  return { id, started: true, startTime, shards, endsAt: timeline.endsAt };
}

/** Why Avvia's conditional write changed nothing: started meanwhile, saved meanwhile, or the teacher's limit. */
async function refusedStart(db: Db, id: string, saves: number): Promise<HttpError> {
  const row = await db
    .select({ started: simulations.started, saves: simulations.planVersion })
    .from(simulations)
    .where(eq(simulations.id, id))
    .get();
  if (!row) return new HttpError(404, SIM_TEXT.notFound);
  if (row.started) return new HttpError(409, "La simulazione è già stata avviata.");
  if (row.saves !== saves) return new HttpError(409, START_TEXT.savedMeanwhile);
  return new HttpError(409, TEACHER_SIM_TEXT.tooManyRunning);
}

export const START_TEXT = {
  savedMeanwhile: "La simulazione è stata modificata mentre la avviavi: controlla le materie e premi di nuovo Avvia.",
} as const;

/** "all" when an admin created the simulation (or nobody is on record), else "audience" (a teacher's). */
async function sealScopeOf(db: Db, env: Env, createdBy: number | null): Promise<"all" | "audience"> {
  if (createdBy == null) return "all";
  const creator = await db
    .select({ role: users.role, email: users.email })
    .from(users)
    .where(eq(users.id, createdBy))
    .get();
  return creator && effectiveRole(creator, env) === "admin" ? "all" : "audience";
}

/** A started simulation's stored timeline, as THE timeline's readers read it. */
export type StoredTimeline = { id: string; shards: number } & SittingTimeline;

/** The stored timeline of a started simulation (404 unknown, 409 not started). */
export async function storedTimeline(db: Db, id: string): Promise<StoredTimeline> {
  const sim = await db
    .select({
      started: simulations.started,
      startTime: simulations.startTime,
      endsAt: simulations.endsAt,
      sealUntil: simulations.sealUntil,
      shards: simulations.shards,
    })
    .from(simulations)
    .where(eq(simulations.id, id))
    .get();
  if (!sim) throw new HttpError(404, SIM_TEXT.notFound);
  if (!sim.started || !sim.startTime || !sim.endsAt || !sim.sealUntil)
    throw new HttpError(409, "La simulazione non è ancora iniziata.");
  const [startTime, endsAt, sealUntil] = [sim.startTime, sim.endsAt, sim.sealUntil].map((d) => d.getTime()) as [
    number,
    number,
    number,
  ];
  return { id, shards: sim.shards, startTime, endsAt, sealUntil };
}

/**
 * THE way a started timeline moves: by `deltaMs` as a whole (its start, its stored end and seal: shiftedTimeline), in
 * D1 with one conditional write (still the start read: two moves racing land once), then in every room, which tells its
 * candidates (SimulationRoom.moveStart). The development clock hook and a day alone's skipped break call it. Null when
 * the start changed meanwhile (nothing moved).
 */
export async function moveTimeline(
  db: Db,
  env: Env,
  from: StoredTimeline,
  deltaMs: number,
): Promise<SittingTimeline | null> {
  const moved = shiftedTimeline(from, deltaMs);
  const updated = await db
    .update(simulations)
    .set({
      startTime: new Date(moved.startTime),
      endsAt: new Date(moved.endsAt),
      sealUntil: new Date(moved.sealUntil),
    })
    .where(and(eq(simulations.id, from.id), eq(simulations.startTime, new Date(from.startTime))))
    .returning({ id: simulations.id });
  if (!updated.length) return null;
  await Promise.all(
    Array.from({ length: from.shards }, async (_, shard) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await roomFor(env, from.id, shard).moveStart(moved.startTime);
        } catch (error) {
          if (attempt >= 2) throw error;
        }
      }
    }),
  );
  return moved;
}

/**
 * Test hook for the browser tests, reached only with the development sign-in on (the route checks): moves a started
 * simulation's one start instant `aheadMs` earlier in D1 and in every room, which tells its candidates. Deadlines,
 * closings and grading then happen as if that much time had passed, so the exam day runs in seconds.
 */
export async function advanceSimulationClockForTest(db: Db, env: Env, id: string, aheadMs: number) {
  const moved = await moveTimeline(db, env, await storedTimeline(db, id), -aheadMs);
  if (!moved) throw new HttpError(409, "La simulazione è cambiata nel frattempo: riprova.");
  return { id, startTime: moved.startTime };
}
