import { nextSitting } from "~/lib/edition";
import { defaultEdition } from "../editions.server";
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import { chunk } from "~/lib/chunk";
import {
  groupSimulations,
  simulationStage,
  type MySimulation,
  type MySimulations,
  type OfficialSitting,
} from "~/lib/my-simulations";
import type { FlowSubject } from "~/lib/simulation";
import { candidateEnd } from "~/lib/sitting-timeline";
import { rankScoreSql } from "./ranking.server";
import type { Db } from "../db/client.server";
import {
  classMembers,
  simulationAccommodations,
  simulationAllowedClasses,
  simulationAllowedUsers,
  simulationAttempts,
  simulations,
  simulationSubjects,
} from "../db/schema";

/** How many past simulations /simulazioni lists (the most recent). */
export const MY_PAST_SIMULATIONS_LIMIT = 20;

/**
 * The simulations a student is in (issue 34: /simulazioni and the dashboard): those of their audience (picked, or
 * a member of a picked class, as simulationAudience reads it now) and those they sat, as live, upcoming and past
 * at `now`. A past one they sat carries their score and position: the position is a COUNT of the attempts ahead
 * (never the whole ranking), in one batch for all of them. `results: false` (the dashboard) skips the past list.
 */
export async function mySimulations(
  db: Db,
  userId: number,
  now: number,
  options: { results?: boolean } = {},
): Promise<MySimulations> {
  const direct = db
    .select({ id: simulationAllowedUsers.simulationId })
    .from(simulationAllowedUsers)
    .where(eq(simulationAllowedUsers.userId, userId));
  const viaClasses = db
    .select({ id: simulationAllowedClasses.simulationId })
    .from(simulationAllowedClasses)
    .innerJoin(classMembers, eq(classMembers.classId, simulationAllowedClasses.classId))
    .where(eq(classMembers.userId, userId));
  const rows = await db
    .select({
      id: simulations.id,
      title: simulations.title,
      started: simulations.started,
      startTime: simulations.startTime,
      attemptId: simulationAttempts.id,
      score: simulationAttempts.score,
      timeSec: simulationAttempts.timeSec,
      extraPct: simulationAccommodations.extraTimePct,
      rankPos: simulationAttempts.rankPos,
      rankedCount: simulations.rankedCount,
      sittingEndsAt: simulations.endsAt,
      rankScore: rankScoreSql,
      editionId: simulations.editionId,
    })
    .from(simulations)
    .leftJoin(
      simulationAttempts,
      and(eq(simulationAttempts.simulationId, simulations.id), eq(simulationAttempts.userId, userId)),
    )
    // The student's extra time, fixed at the start (accommodations.server.ts): their own end is later.
    .leftJoin(
      simulationAccommodations,
      and(eq(simulationAccommodations.simulationId, simulations.id), eq(simulationAccommodations.userId, userId)),
    )
    // A day alone is on /giornata (issue 46), not among the simulations with others.
    .where(
      and(
        isNull(simulations.soloUserId),
        or(isNotNull(simulationAttempts.id), inArray(simulations.id, direct), inArray(simulations.id, viaClasses)),
      ),
    )
    .orderBy(asc(simulations.createdAt), asc(simulations.id))
    .all();
  if (!rows.length) return { live: [], upcoming: [], past: [] };

  // Each started simulation's close: its flow, read in chunks (D1 binds at most 100 values per statement).
  const startedIds = rows.filter((r) => r.started && r.startTime).map((r) => r.id);
  const flows = new Map<string, FlowSubject[]>();
  for (const part of chunk(startedIds, 90)) {
    const subs = await db
      .select({
        simulationId: simulationSubjects.simulationId,
        id: simulationSubjects.subjectId,
        timeMin: simulationSubjects.timeMin,
        breakAfterMin: simulationSubjects.breakAfterMin,
      })
      .from(simulationSubjects)
      .where(inArray(simulationSubjects.simulationId, part))
      .orderBy(asc(simulationSubjects.simulationId), asc(simulationSubjects.position))
      .all();
    for (const { simulationId, ...subject } of subs) {
      flows.set(simulationId, [...(flows.get(simulationId) ?? []), { ...subject, name: "" }]);
    }
  }
  const attempts = new Map<
    string,
    { id: number; score: number; ranked: { pos: number; participants: number } | null }
  >();
  const items = rows.map((r): MySimulation => {
    const startTime = r.started && r.startTime ? r.startTime.getTime() : null;
    const flow = flows.get(r.id) ?? [];
    const extraTimePct = r.extraPct ?? 0;
    // The common plan's end and the student's own (later by their accommodation): candidateEnd, the one deadline
    // rule; the sitting's end (its latest candidate, stored at Avvia) is when its ranking follows.
    const endsAt = startTime != null ? candidateEnd(flow, startTime, 0) : null;
    const myEndsAt = startTime != null ? candidateEnd(flow, startTime, extraTimePct) : null;
    const sittingEndsAt = startTime != null ? (r.sittingEndsAt?.getTime() ?? null) : null;
    if (r.attemptId != null)
      attempts.set(r.id, {
        id: r.attemptId,
        // The ranking score (rankKey): what orders the ranking and what the result screen shows.
        score: r.rankScore ?? r.score ?? 0,
        // The final ranking, once written (issue 31): no count needed.
        ranked: r.rankPos != null && r.rankedCount != null ? { pos: r.rankPos, participants: r.rankedCount } : null,
      });
    const attempted = r.attemptId != null;
    // Live until the student's own end: an accommodated candidate is still writing after the others.
    const stage = simulationStage({ started: r.started, startTime, endsAt: myEndsAt, attempted }, now);
    return {
      id: r.id,
      title: r.title,
      stage,
      startTime,
      endsAt,
      myEndsAt,
      sittingEndsAt,
      extraTimePct,
      edition: r.editionId != null,
      result: null,
    };
  });

  const lists = groupSimulations(items);
  if (options.results === false) return { ...lists, past: [] };
  const past = lists.past.slice(0, MY_PAST_SIMULATIONS_LIMIT);
  const sat = past.flatMap((p) => {
    const attempt = attempts.get(p.id);
    if (attempt?.ranked) {
      const { pos: position, participants } = attempt.ranked;
      p.result = { attemptId: attempt.id, score: attempt.score, position, participants };
      return [];
    }
    return attempt ? [{ sim: p, attempt }] : [];
  });
  if (sat.length) {
    // Two COUNTs per simulation (ahead of the student, everybody), all in one round trip.
    const counts = (await db.batch(
      sat.flatMap(({ sim, attempt }) => [
        db
          .select({ n: count() })
          .from(simulationAttempts)
          .where(
            and(
              eq(simulationAttempts.simulationId, sim.id),
              // Strictly ahead by the ranking key (rankKey): equal keys share a position, the time plays no part.
              gt(rankScoreSql, attempt.score),
            ),
          ),
        db.select({ n: count() }).from(simulationAttempts).where(eq(simulationAttempts.simulationId, sim.id)),
      ]) as unknown as Parameters<Db["batch"]>[0],
    )) as unknown as { n: number }[][];
    sat.forEach(({ sim, attempt }, i) => {
      sim.result = {
        attemptId: attempt.id,
        score: attempt.score,
        position: (counts[2 * i]?.[0]?.n ?? 0) + 1,
        participants: counts[2 * i + 1]?.[0]?.n ?? 0,
      };
    });
  }
  return { ...lists, past };
}

/** The next official sitting of the default exam edition (issue 29), which /simulazioni shows above the student's own. */
export async function nextOfficialSitting(db: Db, now: number): Promise<OfficialSitting | null> {
  const edition = await defaultEdition(db).catch(() => null);
  const next = edition ? nextSitting(edition, now) : null;
  if (!edition || !next) return null;
  return { title: `${next.sitting.label} ${edition.label}`, startsAt: next.startsAt };
}
