// Accommodations (issue 29): a pupil's extra time, in percent.
// The model: two sources, never added up, the largest wins (effectiveExtraPct in app/lib/simulation-day.ts):
// - users.extra_time_pct, set by an admin (Utenti), valid everywhere;
// - class_members.extra_time_pct, set by the class's teacher (Classi) for a pupil of that class. It counts in a
//   simulation that admits the class, or that the class's teacher created (a teacher may pick pupils one by one).
// A simulation fixes its candidates' extra time at the start (simulation_accommodations), so the rooms, the student
// view and the runner read the same deadline whatever changes meanwhile. Practice timers use the largest of all the
// pupil's sources, and only if the pupil chose so on /profilo (users.extra_time_practice).
import { and, eq, sql } from "drizzle-orm";
import { effectiveExtraPct } from "~/lib/simulation-day";
import { auditEntry } from "./audit.server";
import { requireManagedClass } from "./classes.server";
import type { Db } from "./db/client.server";
import { classMembers, simulationAccommodations, users } from "./db/schema";
import { HttpError } from "./errors.server";
import type { SessionUser } from "./session.server";

export const ACCOMMODATION_TEXT = {
  notMember: "Questo studente non fa parte della classe.",
} as const;

/** The class's teacher (or an admin) sets a pupil's extra time in that class; audited. */
export async function setMemberExtraTime(db: Db, actor: SessionUser, classId: number, userId: number, pct: number) {
  await requireManagedClass(db, actor, classId);
  const member = await db
    .select({ pct: classMembers.extraTimePct })
    .from(classMembers)
    .where(and(eq(classMembers.classId, classId), eq(classMembers.userId, userId)))
    .get();
  if (!member) throw new HttpError(404, ACCOMMODATION_TEXT.notMember);
  await db.batch([
    db
      .update(classMembers)
      .set({ extraTimePct: pct })
      .where(and(eq(classMembers.classId, classId), eq(classMembers.userId, userId))),
    auditEntry(
      db,
      actor,
      "accommodation.update",
      { type: "class_member", id: `${classId}:${userId}` },
      { classId, userId, from: member.pct, to: pct },
    ),
  ]);
  return { classId, userId, extraTimePct: pct };
}

/** What a pupil's own screens need: the largest extra time that applies to them anywhere, and their practice choice. */
export async function practiceAccommodation(db: Db, userId: number): Promise<{ pct: number; practice: boolean }> {
  const row = await db.get<{ own: number | null; classes: number | null; practice: number | null }>(
    sql`SELECT u.extra_time_pct AS own, u.extra_time_practice AS practice,
          (SELECT max(extra_time_pct) FROM class_members WHERE user_id = u.id) AS classes
        FROM users u WHERE u.id = ${userId}`,
  );
  return { pct: effectiveExtraPct(row?.own, row?.classes), practice: Boolean(row?.practice) };
}

/** The percentage that extends this pupil's practice timers: 0 unless they chose to apply it. */
export async function practiceExtraPct(db: Db, userId: number): Promise<number> {
  const { pct, practice } = await practiceAccommodation(db, userId);
  return practice ? pct : 0;
}

export async function setPracticeExtraTime(db: Db, userId: number, apply: boolean) {
  await db.update(users).set({ extraTimePractice: apply }).where(eq(users.id, userId));
  return { extraTimePractice: apply };
}

/**
 * Candidates' extra time in a simulation, computed now: per user, the largest of their own and of their memberships
 * in a class the simulation admits or its creator owns. Only users in the simulation's audience; only above 0 %.
 */
function candidatesSql(simulationId: string, userId?: number) {
  const oneUser = userId === undefined ? sql`` : sql` AND a.user_id = ${userId}`;
  return sql`WITH aud AS (
      SELECT user_id FROM simulation_allowed_users WHERE simulation_id = ${simulationId}
      UNION SELECT cm.user_id FROM class_members cm
        JOIN simulation_allowed_classes sac ON sac.class_id = cm.class_id WHERE sac.simulation_id = ${simulationId}
    ), src AS (
      SELECT u.id AS user_id, u.extra_time_pct AS pct FROM users u WHERE u.extra_time_pct > 0
      UNION ALL
      SELECT cm.user_id, cm.extra_time_pct FROM class_members cm JOIN classes c ON c.id = cm.class_id
        WHERE cm.extra_time_pct > 0 AND (
          cm.class_id IN (SELECT class_id FROM simulation_allowed_classes WHERE simulation_id = ${simulationId})
          OR c.owner_id = (SELECT created_by FROM simulations WHERE id = ${simulationId}))
    )
    SELECT a.user_id AS userId, min(100, max(src.pct)) AS pct FROM aud a JOIN src ON src.user_id = a.user_id
    WHERE 1 = 1${oneUser} GROUP BY a.user_id`;
}

/** The candidates' extra time if the simulation started now (Avvia reads it before it starts, then stores it). */
export async function accommodationsNow(db: Db, simulationId: string): Promise<{ userId: number; pct: number }[]> {
  return db.all<{ userId: number; pct: number }>(candidatesSql(simulationId));
}

/** Fixes the candidates' extra time at the start (called before the rooms are told), as `rows` read at Avvia. */
export async function storeAccommodations(
  db: Db,
  simulationId: string,
  rows: readonly { userId: number; pct: number }[],
): Promise<number> {
  await db.delete(simulationAccommodations).where(eq(simulationAccommodations.simulationId, simulationId));
  // D1 binds at most 100 values per statement: 3 per row.
  for (let i = 0; i < rows.length; i += 30) {
    await db
      .insert(simulationAccommodations)
      .values(rows.slice(i, i + 30).map((r) => ({ simulationId, userId: r.userId, extraTimePct: r.pct })));
  }
  return rows.length;
}

/** The fixed extra time of every accommodated candidate of a started simulation (what a room loads). */
export async function simulationExtraTimes(db: Db, simulationId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ userId: simulationAccommodations.userId, pct: simulationAccommodations.extraTimePct })
    .from(simulationAccommodations)
    .where(eq(simulationAccommodations.simulationId, simulationId))
    .all();
  return Object.fromEntries(rows.map((r) => [String(r.userId), r.pct]));
}

/**
 * One candidate's extra time: the fixed one once started, else what would apply if it started now. `known`: the fixed
 * one as the door lookup already read it (requireSimulationAccess's extraPct), so no second statement.
 */
export async function candidateExtraPct(
  db: Db,
  simulationId: string,
  userId: number,
  started: boolean,
  known: number | null = null,
) {
  if (started && known != null) return known;
  if (started) {
    const row = await db
      .select({ pct: simulationAccommodations.extraTimePct })
      .from(simulationAccommodations)
      .where(and(eq(simulationAccommodations.simulationId, simulationId), eq(simulationAccommodations.userId, userId)))
      .get();
    return row?.pct ?? 0;
  }
  const rows = await db.all<{ userId: number; pct: number }>(candidatesSql(simulationId, userId));
  return rows[0]?.pct ?? 0;
}
