// Live group simulations, the staff side (admins and teachers): list, save, delete, start (rooms follow the
// audience), the live summary, attempts and the results per class. Teachers manage only their own simulations.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { RANKING_STAFF_PAGE, SIMULATION_START_LEAD_MS } from "~/lib/constants";
import { paperSplit } from "~/lib/edition";
import { scoreDistribution, subjectAverages } from "~/lib/class-results";
import { flowEnd, percentileWithin, rankScores } from "~/lib/simulation";
import { toCsv } from "~/lib/csv";
import { seatsAtSave, seatsAtStart } from "~/lib/room-seats";
import type { Db } from "./db/client.server";
import {
  classes,
  classMembers,
  questions,
  simulationAllowedClasses,
  simulationAllowedUsers,
  simulationAttempts,
  simulationSeats,
  simulationQuestions,
  simulations,
  simulationSubjects,
  subjects,
  users,
} from "./db/schema";
import { drawForSubject, shortfallNote } from "./draws.server";
import { defaultEdition } from "./editions.server";
import { snapshotAccommodations } from "./accommodations.server";
import { HttpError } from "./errors.server";
import type { SessionUser } from "./session.server";
import { checkTeacherSimulation } from "./simulation-policy.server";
import {
  SIM_TEXT,
  type SimulationConfig,
  loadSimulation,
  rankingPage,
  simulationAudience,
  roomFor,
  simulationEdition,
} from "./simulations.server";
import { subjectGrade } from "~/lib/simulation-day";
import { chunk } from "~/lib/chunk";

// --- Admin and teacher ---

type Manager = Pick<SessionUser, "id" | "effectiveRole">;

/** A teacher manages the simulations they created; an admin manages all of them. */
export function canManageSimulation(user: Manager, sim: { createdBy: number | null }): boolean {
  return user.effectiveRole === "admin" || (user.effectiveRole === "docente" && sim.createdBy === user.id);
}

/** Unknown → 404, someone else's (for a teacher) → 403. */
export async function requireManagedSimulation(db: Db, user: Manager, id: string) {
  const sim = await db.select().from(simulations).where(eq(simulations.id, id)).get();
  if (!sim) throw new HttpError(404, SIM_TEXT.notFound);
  if (!canManageSimulation(user, { createdBy: sim.createdBy ?? null })) throw new HttpError(403, SIM_TEXT.notYours);
  return sim;
}

/**
 * The Simulazioni tab's list (issue 31): one D1 batch of five statements, whatever the number of simulations and
 * the size of their audiences: the rows, their subjects, their question ids, their listed users with names and their
 * classes with names.
 */
export async function listSimulations(db: Db, user: Manager) {
  const mine = user.effectiveRole === "admin" ? undefined : eq(simulations.createdBy, user.id);
  const ids = db.select({ id: simulations.id }).from(simulations).where(mine);
  const [rows, subs, qs, people, classRows] = await db.batch([
    db.select().from(simulations).where(mine).orderBy(asc(simulations.createdAt)),
    db
      .select({
        simulationId: simulationSubjects.simulationId,
        position: simulationSubjects.position,
        subjectId: simulationSubjects.subjectId,
        name: subjects.name,
        timeMin: simulationSubjects.timeMin,
        breakAfterMin: simulationSubjects.breakAfterMin,
      })
      .from(simulationSubjects)
      .innerJoin(subjects, eq(subjects.id, simulationSubjects.subjectId))
      .where(inArray(simulationSubjects.simulationId, ids))
      .orderBy(asc(simulationSubjects.simulationId), asc(simulationSubjects.position)),
    db
      .select({
        simulationId: simulationQuestions.simulationId,
        subjectPosition: simulationQuestions.subjectPosition,
        questionId: simulationQuestions.questionId,
      })
      .from(simulationQuestions)
      .where(inArray(simulationQuestions.simulationId, ids))
      .orderBy(
        asc(simulationQuestions.simulationId),
        asc(simulationQuestions.subjectPosition),
        asc(simulationQuestions.position),
      ),
    db
      .select({
        simulationId: simulationAllowedUsers.simulationId,
        id: simulationAllowedUsers.userId,
        name: users.name,
        email: users.email,
      })
      .from(simulationAllowedUsers)
      .leftJoin(users, eq(users.id, simulationAllowedUsers.userId))
      .where(inArray(simulationAllowedUsers.simulationId, ids))
      .orderBy(asc(simulationAllowedUsers.simulationId), asc(simulationAllowedUsers.userId)),
    db
      .select({
        simulationId: simulationAllowedClasses.simulationId,
        id: simulationAllowedClasses.classId,
        name: classes.name,
      })
      .from(simulationAllowedClasses)
      .leftJoin(classes, eq(classes.id, simulationAllowedClasses.classId))
      .where(inArray(simulationAllowedClasses.simulationId, ids))
      .orderBy(asc(simulationAllowedClasses.simulationId), asc(simulationAllowedClasses.classId)),
  ]);
  const bySim = <T extends { simulationId: string }>(list: T[]) => {
    const out = new Map<string, T[]>();
    for (const item of list) {
      const group = out.get(item.simulationId);
      if (group) group.push(item);
      else out.set(item.simulationId, [item]);
    }
    return out;
  };
  const subsOf = bySim(subs);
  const questionsOf = bySim(qs);
  const peopleOf = bySim(people);
  const classesOf = bySim(classRows);
  return rows.map((c) => {
    const simQuestions = questionsOf.get(c.id) ?? [];
    // Names for the picker's chips: nobody should have to read an id.
    const allowed = peopleOf.get(c.id) ?? [];
    const allowedClasses = classesOf.get(c.id) ?? [];
    return {
      id: c.id,
      title: c.title,
      started: c.started,
      startTime: c.startTime ? c.startTime.getTime() : null,
      graded: c.gradedAt != null,
      createdBy: c.createdBy ?? null,
      subjects: (subsOf.get(c.id) ?? []).map((s) => {
        const ids = simQuestions.filter((q) => q.subjectPosition === s.position).map((q) => q.questionId);
        return {
          subjectId: s.subjectId,
          name: s.name,
          timeMin: s.timeMin,
          breakAfterMin: s.breakAfterMin,
          questionCount: ids.length,
          questions: ids,
        };
      }),
      allowedUsers: allowed.map((u) => u.id),
      allowedClasses: allowedClasses.map((k) => k.id),
      allowedUserLabels: allowed.map((u) => ({
        id: u.id,
        label: u.email ? (u.name ? `${u.name} (${u.email})` : u.email) : `Utente ${u.id}`,
      })),
      allowedClassLabels: allowedClasses.map((k) => ({ id: k.id, label: k.name ?? `Classe ${k.id}` })),
    };
  });
}

export type SimulationInput = {
  id: string;
  title: string;
  subjects: {
    subjectId: number;
    timeMin: number;
    breakAfterMin?: number;
    questionCount?: number;
    questions?: unknown[];
  }[];
  allowedUsers: number[];
  allowedClasses: number[];
};

/**
 * Create or update (same call): the id is the key. A started simulation cannot be changed.
 * A teacher edits only what they created, opens it only to classes they own and pupils of theirs, within limits.
 */
export async function saveSimulation(
  db: Db,
  input: SimulationInput,
  user: Manager,
): Promise<{ created: boolean; drawNotes: string[] }> {
  const existing = await db.select().from(simulations).where(eq(simulations.id, input.id)).get();
  if (existing && !canManageSimulation(user, { createdBy: existing.createdBy ?? null }))
    throw new HttpError(403, SIM_TEXT.notYours);
  if (existing?.started) throw new HttpError(409, "La simulazione è già iniziata: non si può più modificare.");
  const classIds = [...new Set(input.allowedClasses)];
  const ownedClasses: { id: number; ownerId: number }[] = [];
  for (const part of chunk(classIds, 90)) {
    ownedClasses.push(
      ...(await db
        .select({ id: classes.id, ownerId: classes.ownerId })
        .from(classes)
        .where(inArray(classes.id, part))
        .all()),
    );
  }
  if (ownedClasses.length !== classIds.length) throw new HttpError(400, SIM_TEXT.unknownClass);
  if (user.effectiveRole !== "admin" && ownedClasses.some((c) => c.ownerId !== user.id))
    throw new HttpError(403, SIM_TEXT.notYourClass);
  const subjectIds = [...new Set(input.subjects.map((s) => s.subjectId))];
  const known = await db.select({ id: subjects.id }).from(subjects).where(inArray(subjects.id, subjectIds)).all();
  if (known.length !== subjectIds.length)
    throw new HttpError(400, "Materia inesistente in una riga della simulazione.");
  // D1 allows at most 100 bound variables per query: look ids up in chunks.
  const allowedIds = [...new Set(input.allowedUsers)];
  let foundUsers = 0;
  for (let i = 0; i < allowedIds.length; i += 90) {
    foundUsers += (
      await db
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, allowedIds.slice(i, i + 90)))
        .all()
    ).length;
  }
  if (foundUsers !== allowedIds.length) throw new HttpError(400, "Utente abilitato inesistente.");
  // A teacher's: their own pupils only, and the size of one sitting (simulation-policy.server.ts).
  await checkTeacherSimulation(db, user, {
    subjects: input.subjects.map((s) => ({
      timeMin: s.timeMin,
      questionCount: s.questions?.length ?? s.questionCount ?? 0,
    })),
    allowedUsers: allowedIds,
  });
  // Resolve every row's question ids before writing anything.
  // The default exam edition's split (a full paper of 31 follows it exactly; editions.server.ts).
  const edition = await defaultEdition(db);
  const rows: { subjectId: number; timeMin: number; breakAfterMin: number; ids: number[] }[] = [];
  /** For the admin: units that ran short in a weighted draw and where their questions came from. */
  const drawNotes: string[] = [];
  for (const s of input.subjects) {
    let ids: number[];
    if (s.questions) {
      ids = s.questions.map((q) =>
        typeof q === "number" ? q : typeof q === "object" && q && "id" in q ? Number((q as { id: unknown }).id) : NaN,
      );
      if (ids.some((n) => !Number.isInteger(n) || n <= 0)) throw new HttpError(400, SIM_TEXT.invalidFile);
      const unique = [...new Set(ids)];
      let found = 0;
      for (let i = 0; i < unique.length; i += 90) {
        found += (
          await db
            .select({ id: questions.id })
            .from(questions)
            .where(and(inArray(questions.id, unique.slice(i, i + 90)), eq(questions.subjectId, s.subjectId)))
            .all()
        ).length;
      }
      if (found !== unique.length)
        throw new HttpError(400, "File domande non valido: alcune domande non esistono o non sono di questa materia.");
    } else {
      // A full paper is exactly the edition's split (21 mc + 10 gap in 2026/27), weighted by unit (draws.server.ts).
      const count = s.questionCount ?? 0;
      const split = paperSplit(edition, s.subjectId);
      const mix = split && count === split.mc + split.gap ? split : undefined;
      const draw = await drawForSubject(db, s.subjectId, count, { mix, split, edition });
      ids = draw.ids;
      if (ids.length < count)
        throw new HttpError(400, `Domande insufficienti per la materia ${s.subjectId}: disponibili ${ids.length}.`);
      const name =
        (await db.select({ name: subjects.name }).from(subjects).where(eq(subjects.id, s.subjectId)).get())?.name ??
        `Materia ${s.subjectId}`;
      const note = shortfallNote(name, draw);
      if (note) drawNotes.push(note);
      if (!draw.mixMet)
        drawNotes.push(
          `${name}: domande di un tipo insufficienti, la proporzione scelta multipla/completamento non è rispettata.`,
        );
    }
    rows.push({ subjectId: s.subjectId, timeMin: s.timeMin, breakAfterMin: s.breakAfterMin ?? 0, ids });
  }
  const id = input.id;
  // The rows are the default edition's exam day (its subjects in its order, each a drawn full paper; minutes may be
  // shortened): the simulation follows that edition, and its result shows the edition's grades out of 30.
  const editionId = isEditionDay(edition, input.subjects) ? edition.id : null;
  // Rooms are chosen now already for the whole audience (listed users and the members of its classes), so that
  // students waiting before the start sit in their own room; Avvia seats only whoever joined since (room-seats.ts).
  const members: number[] = [];
  for (const part of chunk(classIds, 90)) {
    for (const m of await db
      .select({ userId: classMembers.userId })
      .from(classMembers)
      .where(inArray(classMembers.classId, part))
      .all())
      members.push(m.userId);
  }
  const { shards, seats } = seatsAtSave([...allowedIds, ...members]);
  await db.batch([
    existing
      ? db
          .update(simulations)
          .set({ title: input.title, shards, editionId, planVersion: sql`${simulations.planVersion} + 1` })
          .where(eq(simulations.id, id))
      : db.insert(simulations).values({ id, title: input.title, createdBy: user.id, shards, editionId }),
    db.delete(simulationQuestions).where(eq(simulationQuestions.simulationId, id)),
    db.delete(simulationSubjects).where(eq(simulationSubjects.simulationId, id)),
    db.delete(simulationAllowedUsers).where(eq(simulationAllowedUsers.simulationId, id)),
    db.delete(simulationAllowedClasses).where(eq(simulationAllowedClasses.simulationId, id)),
    db.delete(simulationSeats).where(eq(simulationSeats.simulationId, id)),
    ...rows.map((r, position) =>
      db.insert(simulationSubjects).values({
        simulationId: id,
        position,
        subjectId: r.subjectId,
        timeMin: r.timeMin,
        questionCount: r.ids.length,
        breakAfterMin: r.breakAfterMin,
      }),
    ),
    // Multi-row inserts in chunks (D1: at most 100 bound variables per statement).
    ...chunk(
      rows.flatMap((r, subjectPosition) =>
        r.ids.map((questionId, position) => ({ simulationId: id, subjectPosition, position, questionId })),
      ),
      24,
    ).map((part) => db.insert(simulationQuestions).values(part)),
    ...chunk(
      allowedIds.map((userId) => ({ simulationId: id, userId })),
      45,
    ).map((part) => db.insert(simulationAllowedUsers).values(part)),
    ...chunk(
      [...seats].map(([userId, shard]) => ({ simulationId: id, userId, shard })),
      30,
    ).map((part) => db.insert(simulationSeats).values(part)),
    ...chunk(
      classIds.map((classId) => ({ simulationId: id, classId })),
      45,
    ).map((part) => db.insert(simulationAllowedClasses).values(part)),
  ] as unknown as Parameters<Db["batch"]>[0]);
  return { created: !existing, drawNotes };
}

/** Whether a simulation's rows are an edition's exam day: its subjects in order, each a drawn full paper. */
export function isEditionDay(
  edition: { format: { questionTotal: number; subjects: { subjectId: number }[] } },
  rows: SimulationInput["subjects"],
): boolean {
  const { subjects: day, questionTotal } = edition.format;
  return (
    rows.length === day.length &&
    rows.every((r, i) => r.subjectId === day[i]!.subjectId && !r.questions && r.questionCount === questionTotal)
  );
}

export async function deleteSimulation(db: Db, env: Env, id: string, user: Manager) {
  await requireManagedSimulation(db, user, id);
  const existing = await db
    .select({ id: simulations.id, shards: simulations.shards })
    .from(simulations)
    .where(eq(simulations.id, id))
    .get();
  if (!existing) throw new HttpError(404, SIM_TEXT.notFound);
  await db.delete(simulations).where(eq(simulations.id, id));
  await Promise.all(Array.from({ length: existing.shards }, (_, shard) => roomFor(env, id, shard).reset()));
}

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
    const subjects = config.subjects.map((s) => ({ timeMin: s.timeMin, questionCount: s.questions.length }));
    await checkTeacherSimulation(db, user, { subjects, allowedUsers: config.allowedUsers });
  }
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
  const updated = await db
    .update(simulations)
    .set({ started: true, startTime: new Date(startTime), shards })
    .where(and(eq(simulations.id, id), eq(simulations.started, false)))
    .returning({ id: simulations.id });
  if (!updated.length) throw new HttpError(409, "La simulazione è già stata avviata.");
  // Accommodations are fixed now, before any room loads its plan: every door reads the same deadlines.
  await snapshotAccommodations(db, id);
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
  return { id, started: true, startTime, shards, endsAt: flowEnd(config.subjects, startTime) };
}

/**
 * Test hook for the browser tests, reached only with the development sign-in on (the route checks): moves a started
 * simulation's one start instant `aheadMs` earlier in D1 and in every room, which tells its candidates. Deadlines,
 * closings and grading then happen as if that much time had passed, so the exam day runs in seconds.
 */
export async function advanceSimulationClockForTest(db: Db, env: Env, id: string, aheadMs: number) {
  const sim = await db
    .select({ started: simulations.started, startTime: simulations.startTime, shards: simulations.shards })
    .from(simulations)
    .where(eq(simulations.id, id))
    .get();
  if (!sim) throw new HttpError(404, SIM_TEXT.notFound);
  if (!sim.started || !sim.startTime) throw new HttpError(409, "La simulazione non è ancora iniziata.");
  const startTime = sim.startTime.getTime() - aheadMs;
  await db
    .update(simulations)
    .set({ startTime: new Date(startTime) })
    .where(eq(simulations.id, id));
  await Promise.all(
    Array.from({ length: sim.shards }, (_, shard) => roomFor(env, id, shard).moveStartForTest(startTime)),
  );
  return { id, startTime };
}

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
  const offset = (Math.max(1, page) - 1) * RANKING_STAFF_PAGE;
  const ranked = await rankingPage(
    db,
    { id: sim.id, gradedAt: sim.gradedAt?.getTime() ?? null, rankedCount: sim.rankedCount ?? null },
    offset,
  );
  if (ranked) return { total: ranked.total, page, pageSize: RANKING_STAFF_PAGE, rows: ranked.rows };
  const rows = await db
    .select({ a: simulationAttempts, userName: users.name, email: users.email })
    .from(simulationAttempts)
    .innerJoin(users, eq(users.id, simulationAttempts.userId))
    .where(eq(simulationAttempts.simulationId, simulationId))
    .all();
  const all = rows.map((r) => r.a.score);
  const ranking = rankScores(rows.map((r) => ({ userId: r.a.userId, score: r.a.score, timeSec: r.a.timeSec, row: r })));
  return {
    total: rows.length,
    page,
    pageSize: RANKING_STAFF_PAGE,
    rows: ranking.slice(offset, offset + RANKING_STAFF_PAGE).map((r) => ({
      id: r.row.a.id,
      userId: r.userId,
      userName: r.row.userName || r.row.email,
      score: r.score,
      perc: r.row.a.perc,
      timeSec: r.timeSec,
      date: r.row.a.createdAt.getTime(),
      pos: r.pos,
      percentile: percentileWithin(r.score, all),
    })),
  };
}

export type AdminAttemptRow = Awaited<ReturnType<typeof adminAttempts>>["rows"][number];

const RANKING_CSV_COLUMNS: { key: keyof AdminAttemptRow & string; label: string }[] = [
  { key: "pos", label: "Posizione" },
  { key: "userId", label: "ID utente" },
  { key: "userName", label: "Utente" },
  { key: "score", label: "Punteggio" },
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
    const ranked = rankScores(
      present.map((r) => ({ userId: r.userId, score: r.a.score, timeSec: r.a.timeSec, row: r })),
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
        score: r.score,
        perc: r.row.a.perc,
        timeSec: r.timeSec,
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
