// Live group simulations, the staff side: list, save, delete. Teachers manage only their own simulations.
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { paperSplit } from "~/lib/edition";
import { seatsAtSave } from "~/lib/room-seats";
import type { Db } from "../db/client.server";
import {
  classes,
  classMembers,
  questions,
  simulationAllowedClasses,
  simulationAllowedUsers,
  simulationSeats,
  simulationQuestions,
  simulations,
  simulationSubjects,
  subjects,
  users,
} from "../db/schema";
import { drawForSubject, shortfallNote } from "../draws.server";
import { defaultEdition } from "../editions.server";
import { HttpError } from "../errors.server";
import type { SessionUser } from "../session.server";
import { checkTeacherSimulation } from "./policy.server";
import { SIM_TEXT, roomFor } from "./door.server";
import { chunk } from "~/lib/chunk";

// --- Admin and teacher ---

export type Manager = Pick<SessionUser, "id" | "effectiveRole">;

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
  // Students' days alone (issue 46) are theirs, not the staff's to manage.
  const mine = and(
    isNull(simulations.soloUserId),
    user.effectiveRole === "admin" ? undefined : eq(simulations.createdBy, user.id),
  );
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
  if (existing?.started) throw new HttpError(409, STARTED_TEXT);
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
  // A teacher's: their own pupils only, and the size of one sitting (simulation/policy.server.ts).
  await checkTeacherSimulation(db, user, {
    subjects: input.subjects.map((s) => ({
      timeMin: s.timeMin,
      breakAfterMin: s.breakAfterMin ?? 0,
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
  // Save racing Avvia (issue 44): the check above read "not started", but Avvia may land before this batch. The
  // simulation's row is updated only while not started, and a trigger refuses any write to a started simulation's
  // subjects and questions (migration 0018), which fails the whole batch: the started plan stays as it was.
  await runPlanBatch(db, [
    existing
      ? db
          .update(simulations)
          .set({ title: input.title, shards, editionId, planVersion: sql`${simulations.planVersion} + 1` })
          .where(and(eq(simulations.id, id), eq(simulations.started, false)))
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

const STARTED_TEXT = "La simulazione è già iniziata: non si può più modificare.";

/** A plan's batch; the trigger's refusal (the simulation started meanwhile) is a 409, and nothing of it landed. */
async function runPlanBatch(db: Db, statements: Parameters<Db["batch"]>[0]) {
  try {
    await db.batch(statements);
  } catch (error) {
    if (
      String((error as { cause?: unknown })?.cause ?? error).includes("simulation_started") ||
      String(error).includes("simulation_started")
    )
      throw new HttpError(409, STARTED_TEXT);
    throw error;
  }
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
