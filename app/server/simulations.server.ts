// Live group simulations, the student side: configuration, audience and access, the student's view (never an
// answer key before grading), attempts and ranking, the room of a student. The live part (start, clock,
// autosave, deadlines, grading) is the SimulationRoom Durable Object (workers/simulation-room.ts).
// Staff side (create, start, live summary, results): simulation-admin.server.ts; the grading write: simulation-grading.server.ts.
import { nextSitting } from "~/lib/edition";
import { defaultEdition } from "./editions.server";
import { and, asc, count, eq, gt, inArray, isNotNull, lt, or } from "drizzle-orm";
import { chunk } from "~/lib/chunk";
import {
  groupSimulations,
  simulationStage,
  type MySimulation,
  type MySimulations,
  type OfficialSitting,
} from "~/lib/my-simulations";
import {
  flowEnd,
  percentileWithin,
  rankScores,
  type AnswerKey,
  type FlowSubject,
  type SimulationResult,
} from "~/lib/simulation";
import { ROOM_LOCATION_HINT, roomName, shardOf } from "~/lib/simulation-protocol";
import { catchUpWithPrimary } from "./db/d1-session.server";
import { candidateOptions, candidateQuestions, candidateSeed, studentWindows, withGrades } from "~/lib/simulation-day";
import { editionOrDefault } from "./editions.server";
import type { Db } from "./db/client.server";
import {
  classMembers,
  questions,
  simulationAllowedClasses,
  simulationAllowedUsers,
  simulationAttempts,
  simulationQuestions,
  simulations,
  simulationSubjects,
  subjects,
  type Question,
} from "./db/schema";
import { HttpError } from "./errors.server";
import type { SessionUser } from "./session.server";

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

export type SimulationConfig = {
  id: string;
  title: string;
  started: boolean;
  startTime: number | null;
  gradedAt: number | null;
  createdBy: number | null;
  shards: number;
  /** The exam edition a template simulation follows (its grades out of 30); null when made by hand. */
  editionId: number | null;
  subjects: (FlowSubject & { position: number; questions: Question[] })[];
  /** The explicit lists; who may enter is their union, read by simulationAudience when asked. */
  allowedUsers: number[];
  allowedClasses: number[];
};

/** `allowedUsers: false` skips the allowed list (60,000 ids at a national sitting), e.g. for the rooms. */
export async function loadSimulation(
  db: Db,
  id: string,
  options: { allowedUsers?: boolean } = {},
): Promise<SimulationConfig | null> {
  const sim = await db.select().from(simulations).where(eq(simulations.id, id)).get();
  if (!sim) return null;
  const [subs, qs, allowed, allowedClassRows] = await Promise.all([
    db
      .select({ s: simulationSubjects, name: subjects.name })
      .from(simulationSubjects)
      .innerJoin(subjects, eq(subjects.id, simulationSubjects.subjectId))
      .where(eq(simulationSubjects.simulationId, id))
      .orderBy(asc(simulationSubjects.position))
      .all(),
    db
      .select({ pos: simulationQuestions.subjectPosition, q: questions })
      .from(simulationQuestions)
      .innerJoin(questions, eq(questions.id, simulationQuestions.questionId))
      .where(eq(simulationQuestions.simulationId, id))
      .orderBy(asc(simulationQuestions.subjectPosition), asc(simulationQuestions.position))
      .all(),
    options.allowedUsers === false
      ? Promise.resolve([])
      : db
          .select({ userId: simulationAllowedUsers.userId })
          .from(simulationAllowedUsers)
          .where(eq(simulationAllowedUsers.simulationId, id))
          .all(),
    db
      .select({ classId: simulationAllowedClasses.classId })
      .from(simulationAllowedClasses)
      .where(eq(simulationAllowedClasses.simulationId, id))
      .all(),
  ]);
  return {
    id: sim.id,
    title: sim.title,
    started: sim.started,
    startTime: sim.startTime ? sim.startTime.getTime() : null,
    gradedAt: sim.gradedAt ? sim.gradedAt.getTime() : null,
    createdBy: sim.createdBy ?? null,
    shards: sim.shards,
    editionId: sim.editionId ?? null,
    subjects: subs.map(({ s, name }) => ({
      id: s.subjectId,
      name,
      position: s.position,
      timeMin: s.timeMin,
      breakAfterMin: s.breakAfterMin,
      questions: qs.filter((q) => q.pos === s.position).map((q) => q.q),
    })),
    allowedUsers: allowed.map((a) => a.userId),
    allowedClasses: allowedClassRows.map((a) => a.classId),
  };
}

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
    })
    .from(simulations)
    .leftJoin(
      simulationAttempts,
      and(eq(simulationAttempts.simulationId, simulations.id), eq(simulationAttempts.userId, userId)),
    )
    .where(or(isNotNull(simulationAttempts.id), inArray(simulations.id, direct), inArray(simulations.id, viaClasses)))
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
  const attempts = new Map<string, { id: number; score: number; timeSec: number }>();
  const items = rows.map((r): MySimulation => {
    const startTime = r.started && r.startTime ? r.startTime.getTime() : null;
    const endsAt = startTime != null ? flowEnd(flows.get(r.id) ?? [], startTime) : null;
    if (r.attemptId != null) attempts.set(r.id, { id: r.attemptId, score: r.score ?? 0, timeSec: r.timeSec ?? 0 });
    const attempted = r.attemptId != null;
    const stage = simulationStage({ started: r.started, startTime, endsAt, attempted }, now);
    return { id: r.id, title: r.title, stage, startTime, endsAt, result: null };
  });

  const lists = groupSimulations(items);
  if (options.results === false) return { ...lists, past: [] };
  const past = lists.past.slice(0, MY_PAST_SIMULATIONS_LIMIT);
  const sat = past.flatMap((p) => {
    const attempt = attempts.get(p.id);
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
              or(
                gt(simulationAttempts.score, attempt.score),
                and(eq(simulationAttempts.score, attempt.score), lt(simulationAttempts.timeSec, attempt.timeSec)),
              ),
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

/** Admins may always enter; everybody else must be in the simulation's allowed set. */
export async function canEnterSimulation(
  db: Db,
  simulationId: string,
  user: Pick<SessionUser, "id" | "effectiveRole">,
): Promise<boolean> {
  if (user.effectiveRole === "admin") return true;
  return (await simulationAudience(db, simulationId, user.id)).length > 0;
}

export async function requireSimulationFor(db: Db, id: string, user: SessionUser): Promise<SimulationConfig> {
  const config = await loadSimulation(db, id);
  if (!config) throw new HttpError(404, SIM_TEXT.notFound);
  if (!(await canEnterSimulation(db, id, user))) throw new HttpError(403, SIM_TEXT.notAllowed);
  return config;
}

/**
 * The same check as requireSimulationFor, with point lookups in one round trip (the socket path runs it per
 * connection), and the user's room: the shard stored at start, or for someone without a stored shard (an admin,
 * a pupil let in through a class, or a student admitted after the start) the same deterministic shardOf.
 */
export async function requireSimulationAccess(
  db: Db,
  id: string,
  user: SessionUser,
): Promise<{ shard: number; shards: number }> {
  const [sim, allowed, audience] = await db.batch([
    db.select({ id: simulations.id, shards: simulations.shards }).from(simulations).where(eq(simulations.id, id)),
    db
      .select({ userId: simulationAllowedUsers.userId, shard: simulationAllowedUsers.shard })
      .from(simulationAllowedUsers)
      .where(and(eq(simulationAllowedUsers.simulationId, id), eq(simulationAllowedUsers.userId, user.id))),
    simulationAudience(db, id, user.id),
  ]);
  if (!sim.length) throw new HttpError(404, SIM_TEXT.notFound);
  if (user.effectiveRole !== "admin" && !audience.length) throw new HttpError(403, SIM_TEXT.notAllowed);
  const shards = sim[0]!.shards;
  const stored = allowed[0]?.shard;
  return { shards, shard: stored != null && stored < shards ? stored : shardOf(user.id, shards) };
}

export function answerKeysOf(config: SimulationConfig) {
  return config.subjects.map((s) => ({
    id: s.id,
    name: s.name,
    questionIds: s.questions.map((q) => q.id),
    keys: s.questions.map(
      (q): AnswerKey => ({
        id: q.id,
        type: q.type,
        options: q.options ?? null,
        correctIndex: q.correctIndex ?? null,
        accepted: q.acceptedAnswers ?? null,
        measure: q.measure,
        tolerance: q.tolerance,
      }),
    ),
  }));
}

export type PublicQuestion = {
  id: number;
  type: "mc" | "gap";
  text: string;
  topic: number | null;
  difficulty: number;
  options?: string[];
};

/**
 * What a candidate may see: the flow, with the questions of subjects that have already opened for them (server time,
 * their own windows: an accommodated candidate's next subject opens after their extended one), in THEIR order
 * (questions and options seeded by simulation and user: the same on every reload, different between candidates),
 * and never an answer key or explanation. Answers name questions by id and options by text, so grading ignores it.
 */
export function publicSimulation(
  config: SimulationConfig,
  now: number,
  candidate: { userId: number; extraPct: number },
) {
  const windows = config.startTime != null ? studentWindows(config.subjects, config.startTime, candidate.extraPct) : [];
  const seed = candidateSeed(config.id, candidate.userId);
  const flow = config.subjects.map((s, i) => {
    const opensAt = windows[i]?.startsAt;
    const open = config.started && opensAt != null && now >= opensAt;
    return {
      id: s.id,
      name: s.name,
      timeMin: s.timeMin,
      breakAfterMin: s.breakAfterMin,
      questionCount: s.questions.length,
      questions: open
        ? candidateQuestions(s.questions, seed, i).map(
            (q): PublicQuestion => ({
              id: q.id,
              type: q.type,
              text: q.stem,
              topic: q.topicId,
              difficulty: q.difficulty,
              ...(q.type === "mc" ? { options: candidateOptions(q.options ?? [], seed, q.id) } : {}),
            }),
          )
        : [],
    };
  });
  return {
    id: config.id,
    title: config.title,
    started: config.started,
    startTime: config.startTime,
    serverTime: now,
    /** This candidate's accommodation (extra time, %): their deadlines follow studentWindows. */
    extraTimePct: candidate.extraPct,
    flow,
    subjects: flow,
  };
}

// --- Attempts and ranking ---

export type StoredAttempt = typeof simulationAttempts.$inferSelect;

export async function rankingFor(db: Db, simulationId: string, userId: number) {
  const rows = await db
    .select({
      id: simulationAttempts.id,
      userId: simulationAttempts.userId,
      score: simulationAttempts.score,
      timeSec: simulationAttempts.timeSec,
    })
    .from(simulationAttempts)
    .where(eq(simulationAttempts.simulationId, simulationId))
    .all();
  const ranked = rankScores(rows);
  const mine = ranked.find((r) => r.userId === userId) ?? null;
  return {
    pos: mine?.pos ?? null,
    position: mine?.pos ?? null,
    percentile: mine
      ? percentileWithin(
          mine.score,
          rows.map((r) => r.score),
        )
      : null,
    participants: rows.length,
    ranking: ranked.map((r) => ({ userId: r.userId, pos: r.pos, score: r.score })),
  };
}

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
    .select({ title: simulations.title, editionId: simulations.editionId })
    .from(simulations)
    .where(eq(simulations.id, simulationId))
    .get();
  return {
    ...withGrades(resultOf(row), await simulationEdition(db, sim?.editionId ?? null)),
    title: sim?.title ?? simulationId,
    userId: row.userId,
    ranking: await rankingFor(db, simulationId, row.userId),
  };
}

/** The edition a simulation follows (for its grades), or null (made by hand, or the edition is gone). */
export async function simulationEdition(db: Db, editionId: number | null) {
  if (editionId == null) return null;
  return editionOrDefault(db, editionId).catch(() => null);
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
  const config = await requireSimulationFor(db, id, user);
  const room = await roomOfUser(db, env, id, user);
  const outcome = await room.submitAttempt(user.id, body.answers, body.timeTaken);
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
  if (outcome.pending) return outcome;
  // The room graded on the primary through its own binding: the student's next read (the ranking) must see it.
  await catchUpWithPrimary(env);
  return { ...outcome, result: withGrades(outcome.result, await simulationEdition(db, config.editionId)) };
}
