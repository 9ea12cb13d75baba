// What staff see of a simulation: the live summary, attempts with positions, the CSV, results per class.
import { and, asc, eq, sql } from "drizzle-orm";
import { RANKING_STAFF_PAGE } from "~/lib/constants";
import { scoreDistribution, subjectAverages } from "~/lib/class-results";
import { percentileByKey, rankByKey, rankKey } from "~/lib/rank-key";
import { toCsv } from "~/lib/csv";
import type { Db } from "../db/client.server";
import { classes, classMembers, simulationAllowedClasses, simulationAttempts, simulations, users } from "../db/schema";
import { HttpError } from "../errors.server";
import { SIM_TEXT, roomFor } from "./door.server";
import { rankingPage } from "./ranking.server";
import { type StoredAttempt, simulationEdition } from "./results.server";
import { subjectGrade } from "~/lib/simulation-day";

import { type Manager, requireManagedSimulation } from "./admin.server";
/** The admin's live view: connected and answered students per room and in total (one call per room). */
export async function liveSummary(db: Db, env: Env, id: string) {
  const sim = await db
    .select({ shards: simulations.shards, started: simulations.started })
    .from(simulations)
    .where(eq(simulations.id, id))
    .get();
  if (!sim) throw new HttpError(404, SIM_TEXT.notFound);
  const [rooms, attempts] = await Promise.all([
    Promise.all(Array.from({ length: sim.shards }, (_, shard) => roomFor(env, id, shard).stats())),
    db
      .select({ n: sql<number>`count(*)` })
      .from(simulationAttempts)
      .where(eq(simulationAttempts.simulationId, id))
      .get(),
  ]);
  const total = rooms.reduce((t, r) => ({ connected: t.connected + r.connected, answered: t.answered + r.answered }), {
    connected: 0,
    answered: 0,
  });
  return {
    id,
    started: sim.started,
    shards: sim.shards,
    rooms: rooms.map((r, shard) => ({ shard, connected: r.connected, answered: r.answered, graded: r.graded })),
    total: { ...total, gradedRooms: rooms.filter((r) => r.graded).length, attempts: attempts?.n ?? 0 },
  };
}

/**
 * One page of a simulation's attempts with their ranking positions (the Tentativi dialog, GET
 * /api/admin/simulations/{id}/attempts?page=N, and its CSV read page by page): once the simulation is graded, an
 * index range of its stored ranking (rankingPage); before (rooms still grading), the attempts so far ranked in memory.
 */
export async function adminAttempts(db: Db, simulationId: string, user: Manager, page = 1) {
  const sim = await requireManagedSimulation(db, user, simulationId);
  const edition = await simulationEdition(db, sim.editionId ?? null);
  const offset = (Math.max(1, page) - 1) * RANKING_STAFF_PAGE;
  // One row of the table and of the CSV: the ranking score and the section by rankKey, the same figures as the
  // candidate's result screen.
  const row = (a: StoredAttempt, userName: string, pos: number, percentile: number) => {
    // The stored key orders the ranking: show that one (the section is read from the result by the same rule).
    const rank = rankKey({ totale: a.score, subjects: a.subjectsResult }, edition);
    return {
      id: a.id,
      userId: a.userId,
      userName,
      score: a.rankKey ?? a.score,
      section: rank.section,
      total: a.score,
      perc: a.perc,
      timeSec: a.timeSec,
      date: a.createdAt.getTime(),
      pos,
      percentile,
    };
  };
  const ranked = await rankingPage(
    db,
    { id: sim.id, gradedAt: sim.gradedAt?.getTime() ?? null, rankedCount: sim.rankedCount ?? null },
    offset,
  );
  if (ranked)
    return {
      total: ranked.total,
      page,
      pageSize: RANKING_STAFF_PAGE,
      rows: ranked.rows.map((r) => row(r.attempt, r.userName, r.pos, r.percentile)),
    };
  // Before every room has graded: the attempts so far, ranked in memory by the same key.
  const rows = await db
    .select({ a: simulationAttempts, userName: users.name, email: users.email })
    .from(simulationAttempts)
    .innerJoin(users, eq(users.id, simulationAttempts.userId))
    .where(eq(simulationAttempts.simulationId, simulationId))
    .all();
  const keyed = rows.map((r) => ({
    userId: r.a.userId,
    key: r.a.rankKey ?? r.a.score,
    row: r,
  }));
  const all = keyed.map((r) => r.key);
  return {
    total: rows.length,
    page,
    pageSize: RANKING_STAFF_PAGE,
    rows: rankByKey(keyed)
      .slice(offset, offset + RANKING_STAFF_PAGE)
      .map((r) => row(r.row.a, r.row.userName || r.row.email, r.pos, percentileByKey(r.key, all))),
  };
}

export type AdminAttemptRow = Awaited<ReturnType<typeof adminAttempts>>["rows"][number];

const RANKING_CSV_COLUMNS: { key: keyof AdminAttemptRow & string; label: string }[] = [
  { key: "pos", label: "Posizione" },
  { key: "userId", label: "ID utente" },
  { key: "userName", label: "Utente" },
  { key: "score", label: "Punteggio in graduatoria" },
  { key: "section", label: "Sezione" },
  { key: "total", label: "Totale (/31)" },
  { key: "perc", label: "Corrette (%)" },
  { key: "percentile", label: "Percentile" },
  { key: "timeSec", label: "Tempo (s)" },
];

/** The whole ranking as CSV, read and sent one page at a time (a national sitting's 60,000 rows never sit in memory). */
export async function rankingCsv(db: Db, simulationId: string, user: Manager): Promise<ReadableStream<Uint8Array>> {
  const first = await adminAttempts(db, simulationId, user, 1);
  const pages = Math.max(1, Math.ceil(first.total / first.pageSize));
  const encoder = new TextEncoder();
  let page = 1;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const current = page === 1 ? first : await adminAttempts(db, simulationId, user, page);
      const text = toCsv(current.rows, RANKING_CSV_COLUMNS);
      // Only the first page carries the BOM and the header row.
      controller.enqueue(encoder.encode(page === 1 ? text : text.slice(text.indexOf("\r\n") + 2)));
      page += 1;
      if (page > pages) controller.close();
    },
  });
}

/**
 * Results per class of a finished simulation, for its teacher (or an admin): the class's pupils ranked
 * among themselves, the average per subject (0-31), the distribution of totals and who did not show up.
 * Membership is read now, like the allowed set.
 */
export async function classResults(db: Db, simulationId: string, user: Manager) {
  const sim = await requireManagedSimulation(db, user, simulationId);
  if (!sim.gradedAt) throw new HttpError(409, SIM_TEXT.notFinished);
  // A template simulation follows its exam edition: each pupil's exams get their grade out of 30 (issue 29).
  const edition = await simulationEdition(db, sim.editionId ?? null);
  const linked = await db
    .select({ id: classes.id, name: classes.name, ownerId: classes.ownerId })
    .from(simulationAllowedClasses)
    .innerJoin(classes, eq(classes.id, simulationAllowedClasses.classId))
    .where(eq(simulationAllowedClasses.simulationId, simulationId))
    .orderBy(asc(classes.name))
    .all();
  const out = [];
  for (const cls of linked) {
    const rows = await db
      .select({ userId: users.id, name: users.name, email: users.email, a: simulationAttempts })
      .from(classMembers)
      .innerJoin(users, eq(users.id, classMembers.userId))
      .leftJoin(
        simulationAttempts,
        and(eq(simulationAttempts.userId, classMembers.userId), eq(simulationAttempts.simulationId, simulationId)),
      )
      .where(eq(classMembers.classId, cls.id))
      .orderBy(asc(users.name), asc(users.id))
      .all();
    const present = rows.filter((r) => r.a !== null).map((r) => ({ ...r, a: r.a! }));
    const ranked = rankByKey(
      present.map((r) => {
        const rank = rankKey({ totale: r.a.score, subjects: r.a.subjectsResult }, edition);
        return { userId: r.userId, key: r.a.rankKey ?? r.a.score, section: rank.section, row: r };
      }),
    );
    out.push({
      classId: cls.id,
      name: cls.name,
      members: rows.length,
      participants: present.length,
      ranking: ranked.map((r) => ({
        pos: r.pos,
        userId: r.userId,
        name: r.row.name || r.row.email,
        email: r.row.email,
        score: r.key,
        section: r.section,
        total: r.row.a.score,
        perc: r.row.a.perc,
        timeSec: r.row.a.timeSec,
        subjects: r.row.a.subjectsResult.map((s) => ({
          subjectId: s.id,
          name: s.name,
          score31: s.score31,
          ...(edition ? { grade: subjectGrade(edition, s) } : {}),
        })),
        ...(edition ? { passed: r.row.a.subjectsResult.filter((s) => subjectGrade(edition, s).passed).length } : {}),
      })),
      subjectAverages: subjectAverages(present.map((r) => r.a.subjectsResult)),
      distribution: scoreDistribution(present.map((r) => r.a.score)),
      absent: rows
        .filter((r) => r.a === null)
        .map((r) => ({ userId: r.userId, name: r.name || r.email, email: r.email })),
    });
  }
  return {
    id: sim.id,
    title: sim.title,
    edition: edition ? { id: edition.id, label: edition.label, academicYear: edition.academicYear } : null,
    classes: out,
  };
}
