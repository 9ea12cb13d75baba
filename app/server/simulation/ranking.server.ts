// A graded simulation's stored ranking: a participant's page, the staff pages.
import { RANKING_AROUND, RANKING_PAGE_TOP, RANKING_STAFF_PAGE } from "~/lib/constants";
import { and, asc, between, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { users, simulationAttempts, simulations } from "../db/schema";
import { RANK_ATTEMPTS_SQL, RANKED_COUNT_SQL } from "./grading.server";

import type { SimulationHead } from "./door.server";
import { keepRecent } from "./plan.server";
/** `score`: what orders the ranking (rankKey: an edition's section and grades, else the total out of 31). */
export type RankingEntry = { userId: number; pos: number; score: number };

/** The ranking score of a stored attempt (rows written before rank_key rank by their total). */
export const rankScoreSql = sql<number>`coalesce(${simulationAttempts.rankKey}, ${simulationAttempts.score})`;

/** Ranks a graded simulation that has no stored ranking yet (graded before issue 31); returns its size. */
async function ensureRanked(db: Db, sim: Pick<SimulationHead, "id" | "gradedAt" | "rankedCount">) {
  if (sim.rankedCount != null || sim.gradedAt == null) return sim.rankedCount;
  // The grading write's own statements, with the id bound where they name ?1.
  const bound = (text: string) =>
    sql.join(
      text.split("?1").map((part) => sql.raw(part)),
      sql`${sim.id}`,
    );
  await db.run(bound(RANK_ATTEMPTS_SQL));
  await db.run(bound(RANKED_COUNT_SQL));
  const row = await db.select({ n: simulations.rankedCount }).from(simulations).where(eq(simulations.id, sim.id)).get();
  return row?.n ?? null;
}

/** The percentile of the spec (percentileWithin) from the stored count of those below. */
export function percentileOf(below: number, participants: number): number {
  if (participants <= 1) return 100;
  return Math.round((below / (participants - 1)) * 100);
}

/**
 * A participant's ranking (GET /api/simulations/{id}/ranking), O(1) in the audience (issue 31): their own position,
 * score and percentile, the top RANKING_PAGE_TOP and the RANKING_AROUND around them, out of `participants`; index
 * range reads of the stored ranking. `ranking` (the spec's field) is the top. Until every room has graded there is no
 * final ranking: `final: false` with null positions (the runner asks again).
 */
/** The top RANKING_PAGE_TOP of final rankings read in this isolate, by simulation, grading instant and size. */
const rankingTops = new Map<string, RankingEntry[]>();
const RANKING_TOPS_KEPT = 16;

export async function rankingFor(
  db: Db,
  simulationId: string,
  userId: number,
  known?: Pick<SimulationHead, "id" | "gradedAt" | "rankedCount">,
) {
  const sim =
    known ??
    (await db
      .select({ id: simulations.id, gradedAt: simulations.gradedAt, rankedCount: simulations.rankedCount })
      .from(simulations)
      .where(eq(simulations.id, simulationId))
      .get()
      .then((r) => (r ? { ...r, gradedAt: r.gradedAt?.getTime() ?? null } : null)));
  const participants = sim ? await ensureRanked(db, sim) : null;
  if (participants == null) {
    return {
      final: false,
      userId,
      pos: null,
      position: null,
      percentile: null,
      score: null,
      participants: null,
      ranking: [] as RankingEntry[],
      around: [] as RankingEntry[],
    };
  }
  const entry = {
    userId: simulationAttempts.userId,
    pos: simulationAttempts.rankPos,
    score: rankScoreSql,
  };
  const mine = await db
    .select({
      row: simulationAttempts.rankRow,
      pos: simulationAttempts.rankPos,
      below: simulationAttempts.rankBelow,
      score: rankScoreSql,
    })
    .from(simulationAttempts)
    .where(and(eq(simulationAttempts.simulationId, simulationId), eq(simulationAttempts.userId, userId)))
    .get();
  const half = RANKING_AROUND / 2;
  // The top of a final ranking never changes: read once per isolate (issue 31: it was 50 of a student's rows).
  const topKey = `${simulationId}:${sim?.gradedAt}:${participants}`;
  const cachedTop = rankingTops.get(topKey);
  const [top, around] = await Promise.all([
    cachedTop ??
      db
        .select(entry)
        .from(simulationAttempts)
        .where(
          and(eq(simulationAttempts.simulationId, simulationId), lte(simulationAttempts.rankRow, RANKING_PAGE_TOP)),
        )
        .orderBy(asc(simulationAttempts.rankRow))
        .all()
        .then((rows) => {
          keepRecent(rankingTops, topKey, rows as RankingEntry[], RANKING_TOPS_KEPT);
          return rows as RankingEntry[];
        }),
    mine?.row != null
      ? db
          .select(entry)
          .from(simulationAttempts)
          .where(
            and(
              eq(simulationAttempts.simulationId, simulationId),
              between(simulationAttempts.rankRow, mine.row - half, mine.row + half),
            ),
          )
          .orderBy(asc(simulationAttempts.rankRow))
          .all()
      : Promise.resolve([]),
  ]);
  const pos = mine?.pos ?? null;
  return {
    final: true,
    userId,
    pos,
    position: pos,
    percentile: mine?.below != null ? percentileOf(mine.below, participants) : null,
    score: mine?.score ?? null,
    participants,
    ranking: top as RankingEntry[],
    around: around as RankingEntry[],
  };
}

/**
 * One page of a simulation's full ranking for staff (and the CSV, read page by page): rows `offset + 1` to
 * `offset + limit` of the stored order, with names, and the total. Null when the simulation has no final ranking yet.
 */
export async function rankingPage(
  db: Db,
  sim: Pick<SimulationHead, "id" | "gradedAt" | "rankedCount">,
  offset: number,
  limit = RANKING_STAFF_PAGE,
) {
  const total = await ensureRanked(db, sim);
  if (total == null) return null;
  const rows = await db
    .select({ a: simulationAttempts, userName: users.name, email: users.email })
    .from(simulationAttempts)
    .innerJoin(users, eq(users.id, simulationAttempts.userId))
    .where(
      and(eq(simulationAttempts.simulationId, sim.id), between(simulationAttempts.rankRow, offset + 1, offset + limit)),
    )
    .orderBy(asc(simulationAttempts.rankRow))
    .all();
  return {
    total,
    rows: rows.map((r) => ({
      attempt: r.a,
      userName: r.userName || r.email,
      pos: r.a.rankPos ?? 0,
      percentile: percentileOf(r.a.rankBelow ?? 0, total),
    })),
  };
}
