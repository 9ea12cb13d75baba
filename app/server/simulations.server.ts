// Live group simulations, the student side: configuration, audience and access, the student's view (never an
// answer key before grading), attempts and ranking, the room of a student. The live part (start, clock,
// autosave, deadlines, grading) is the SimulationRoom Durable Object (workers/simulation-room.ts).
// Staff side (create, start, live summary, results): simulation-admin.server.ts; the grading write: simulation-grading.server.ts.
import { RANKING_AROUND, RANKING_PAGE_TOP, RANKING_STAFF_PAGE, SHEET_GAP_BOXES } from "~/lib/constants";
import { editionGapBoxes, nextSitting } from "~/lib/edition";
import { defaultEdition } from "./editions.server";
import { and, asc, between, count, eq, gt, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import { chunk } from "~/lib/chunk";
import {
  groupSimulations,
  simulationStage,
  type MySimulation,
  type MySimulations,
  type OfficialSitting,
} from "~/lib/my-simulations";
import { flowEnd, type AnswerKey, type FlowSubject, type SimulationResult } from "~/lib/simulation";
import { ROOM_LOCATION_HINT, roomName, shardOf } from "~/lib/simulation-protocol";
import { catchUpWithPrimary } from "./db/d1-session.server";
import type { SealedSubject } from "~/lib/sealed-subject";
import { sealSubject, subjectBinding } from "./sealed-subjects.server";
import {
  candidateOptions,
  candidateQuestions,
  candidateSeed,
  studentFlow,
  studentWindows,
  withGrades,
} from "~/lib/simulation-day";
import { editionOrDefault } from "./editions.server";
import type { Db } from "./db/client.server";
import {
  classMembers,
  questions,
  simulationAccommodations,
  users,
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
import { RANK_ATTEMPTS_SQL, RANKED_COUNT_SQL } from "./simulation-grading.server";
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

/** One subject of a simulation's plan; `questions` is empty until the simulation has started (simulationPlan). */
export type PlanSubject = FlowSubject & { position: number; questionCount: number; questions: Question[] };

/** A simulation with its plan and explicit audience lists: its row (less the ranking count) and more. */
export type SimulationConfig = Omit<SimulationHead, "rankedCount"> & {
  subjects: PlanSubject[];
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
      questionCount: s.questionCount,
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
      extraPct: simulationAccommodations.extraTimePct,
      rankPos: simulationAttempts.rankPos,
      rankedCount: simulations.rankedCount,
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
  const attempts = new Map<
    string,
    { id: number; score: number; timeSec: number; ranked: { pos: number; participants: number } | null }
  >();
  const items = rows.map((r): MySimulation => {
    const startTime = r.started && r.startTime ? r.startTime.getTime() : null;
    const flow = flows.get(r.id) ?? [];
    const extraTimePct = r.extraPct ?? 0;
    // The sitting's end (everybody's) and the student's own (later by their accommodation).
    const endsAt = startTime != null ? flowEnd(flow, startTime) : null;
    const myEndsAt = startTime != null ? flowEnd(studentFlow(flow, extraTimePct), startTime) : null;
    if (r.attemptId != null)
      attempts.set(r.id, {
        id: r.attemptId,
        score: r.score ?? 0,
        timeSec: r.timeSec ?? 0,
        // The final ranking, once written (issue 31): no count needed.
        ranked: r.rankPos != null && r.rankedCount != null ? { pos: r.rankPos, participants: r.rankedCount } : null,
      });
    const attempted = r.attemptId != null;
    // Live until the student's own end: an accommodated candidate is still writing after the others.
    const stage = simulationStage({ started: r.started, startTime, endsAt: myEndsAt, attempted }, now);
    return { id: r.id, title: r.title, stage, startTime, endsAt, myEndsAt, extraTimePct, result: null };
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

/** A simulation's own row, what every student call needs besides its plan. */
export type SimulationHead = {
  id: string;
  title: string;
  started: boolean;
  startTime: number | null;
  gradedAt: number | null;
  createdBy: number | null;
  shards: number;
  /** The exam edition a template simulation follows (its grades out of 30); null when made by hand. */
  editionId: number | null;
  /** How many attempts its final ranking holds; null until ranked (rankSimulation). */
  rankedCount: number | null;
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
    createdBy: number | null;
    shards: number;
    editionId: number | null;
    rankedCount: number | null;
    seat: number | null;
    extraPct: number | null;
    member: number;
    createdAt: number;
    planVersion: number;
  } | null>(sql`SELECT s.id, s.title, s.started, s.start_time AS startTime, s.graded_at AS gradedAt,
      s.created_by AS createdBy, s.shards, s.edition_id AS editionId, s.ranked_count AS rankedCount,
      s.created_at AS createdAt, s.plan_version AS planVersion,
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
    createdBy: row.createdBy,
    shards,
    editionId: row.editionId,
    rankedCount: row.rankedCount,
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
 * Plans per isolate, by version: a started one is fixed at Avvia (the start instant is its version); before Avvia the
 * version is the simulation's save (planVersion), and the copy is read again after PLAN_LOBBY_MAX_AGE_MS at most (a
 * question of the bank edited meanwhile).
 */
const plans = new Map<string, { version: string; at: number; subjects: PlanSubject[] }>();
const PLANS_KEPT = 32;
const PLAN_LOBBY_MAX_AGE_MS = 60_000;

/** Sets `key` as the most recent entry of a per-isolate cache, dropping the oldest past `kept` entries. */
function keepRecent<V>(cache: Map<string, V>, key: string, value: V, kept: number) {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > kept) cache.delete(cache.keys().next().value!);
}

/**
 * A simulation's plan for the student view: its subjects and their questions (the view shows only the open ones, in
 * clear; the others are sealed, sealedSubjectsFor). Once started the plan cannot change (saveSimulation refuses), so it
 * is read once per isolate and kept with the start instant as its version (a simulation deleted and made again under
 * the same id starts anew); before the start it is kept under the save's version (planVersion), for a minute at most.
 * Without a version (before the start) the questions are not read.
 */
export async function simulationPlan(db: Db, sim: SimulationHead): Promise<PlanSubject[]> {
  const version = sim.started
    ? sim.startTime != null
      ? `s:${sim.startTime}`
      : null
    : sim.planVersion != null
      ? `p:${sim.planVersion}`
      : null;
  const now = Date.now();
  if (version != null) {
    const cached = plans.get(sim.id);
    if (cached?.version === version && (sim.started || now - cached.at < PLAN_LOBBY_MAX_AGE_MS)) return cached.subjects;
  }
  const subs = await db
    .select({ s: simulationSubjects, name: subjects.name })
    .from(simulationSubjects)
    .innerJoin(subjects, eq(subjects.id, simulationSubjects.subjectId))
    .where(eq(simulationSubjects.simulationId, sim.id))
    .orderBy(asc(simulationSubjects.position))
    .all();
  const qs =
    version == null
      ? []
      : await db
          .select({ pos: simulationQuestions.subjectPosition, q: questions })
          .from(simulationQuestions)
          .innerJoin(questions, eq(questions.id, simulationQuestions.questionId))
          .where(eq(simulationQuestions.simulationId, sim.id))
          .orderBy(asc(simulationQuestions.subjectPosition), asc(simulationQuestions.position))
          .all();
  const plan = subs.map(({ s, name }) => ({
    id: s.subjectId,
    name,
    position: s.position,
    timeMin: s.timeMin,
    breakAfterMin: s.breakAfterMin,
    questionCount: s.questionCount,
    questions: qs.filter((q) => q.pos === s.position).map((q) => q.q),
  }));
  if (version != null) keepRecent(plans, sim.id, { version, at: now, subjects: plan }, PLANS_KEPT);
  return plan;
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

/** Which subjects have opened for a candidate at `now` (server time, their own windows, accommodation included). */
export function openSubjects(
  config: Pick<SimulationHead, "started" | "startTime"> & { subjects: PlanSubject[] },
  now: number,
  extraPct: number,
): boolean[] {
  const windows = config.startTime != null ? studentWindows(config.subjects, config.startTime, extraPct) : [];
  return config.subjects.map((_, i) => {
    const opensAt = windows[i]?.startsAt;
    return config.started && opensAt != null && now >= opensAt;
  });
}

/** One subject's questions as a candidate sees them: THEIR order of questions and options, never a key. */
export function candidateSubjectQuestions(
  config: Pick<SimulationHead, "id"> & { subjects: PlanSubject[] },
  subjectIndex: number,
  userId: number,
): PublicQuestion[] {
  const seed = candidateSeed(config.id, userId);
  return candidateQuestions(config.subjects[subjectIndex]?.questions ?? [], seed, subjectIndex).map(
    (q): PublicQuestion => ({
      id: q.id,
      type: q.type,
      text: q.stem,
      topic: q.topicId,
      difficulty: q.difficulty,
      ...(q.type === "mc" ? { options: candidateOptions(q.options ?? [], seed, q.id) } : {}),
    }),
  );
}

/**
 * Sealed prefetch (issue 31): for each subject not yet open for the candidate at `now`, a sealed copy of exactly what
 * the open subject will return (their order), which the room's key opens at their own opening. Before Avvia too (the
 * lobby): the plan is the last save's, and the key is bound to its questions and their content, so a copy sealed before
 * a later save or an edit of one of them does not open (the runner then asks the server); a lobby loaded before Avvia
 * needs no call at the start.
 */
export async function sealedSubjectsFor(
  secret: string | undefined,
  config: Pick<SimulationHead, "id" | "started" | "startTime"> & { subjects: PlanSubject[] },
  now: number,
  candidate: { userId: number; extraPct: number },
): Promise<SealedSubject[]> {
  if (!secret) return [];
  const open = openSubjects(config, now, candidate.extraPct);
  return Promise.all(
    config.subjects.flatMap((s, i) =>
      open[i] || !s.questions.length
        ? []
        : [
            subjectBinding(s.questions).then((binding) =>
              sealSubject(secret, config.id, i, binding, candidateSubjectQuestions(config, i, candidate.userId)),
            ),
          ],
    ),
  );
}

/**
 * What a candidate may see: the flow, with the questions of subjects that have already opened for them (server time,
 * their own windows: an accommodated candidate's next subject opens after their extended one), in THEIR order
 * (questions and options seeded by simulation and user: the same on every reload, different between candidates),
 * and never an answer key or explanation. Answers name questions by id and options by text, so grading ignores it.
 */
export function publicSimulation(
  config: Pick<SimulationHead, "id" | "title" | "started" | "startTime"> & { subjects: PlanSubject[] },
  now: number,
  candidate: { userId: number; extraPct: number },
  sheet: { gapBoxes: number } = { gapBoxes: SHEET_GAP_BOXES },
  room?: { shard: number; shards: number },
) {
  const open = openSubjects(config, now, candidate.extraPct);
  const flow = config.subjects.map((s, i) => ({
    id: s.id,
    name: s.name,
    timeMin: s.timeMin,
    breakAfterMin: s.breakAfterMin,
    questionCount: s.questionCount,
    questions: open[i] ? candidateSubjectQuestions(config, i, candidate.userId) : [],
  }));
  return {
    id: config.id,
    title: config.title,
    started: config.started,
    startTime: config.startTime,
    serverTime: now,
    /** This candidate's accommodation (extra time, %): their deadlines follow studentWindows. */
    extraTimePct: candidate.extraPct,
    /** The completamento boxes of the simulation's edition (the default edition's for one made by hand). */
    gapBoxes: sheet.gapBoxes,
    /** The candidate's room (issue 31): known before the start, and Avvia does not move a seated candidate. */
    ...(room ? { room: room.shard, rooms: room.shards } : {}),
    flow,
    subjects: flow,
  };
}

// --- Attempts and ranking ---

export type StoredAttempt = typeof simulationAttempts.$inferSelect;

export type RankingEntry = { userId: number; pos: number; score: number };

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
    score: simulationAttempts.score,
  };
  const mine = await db
    .select({
      row: simulationAttempts.rankRow,
      pos: simulationAttempts.rankPos,
      below: simulationAttempts.rankBelow,
      score: simulationAttempts.score,
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
      id: r.a.id,
      userId: r.a.userId,
      userName: r.userName || r.email,
      score: r.a.score,
      perc: r.a.perc,
      timeSec: r.a.timeSec,
      date: r.a.createdAt.getTime(),
      pos: r.a.rankPos ?? 0,
      percentile: percentileOf(r.a.rankBelow ?? 0, total),
    })),
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
    .select({
      title: simulations.title,
      editionId: simulations.editionId,
      gradedAt: simulations.gradedAt,
      rankedCount: simulations.rankedCount,
    })
    .from(simulations)
    .where(eq(simulations.id, simulationId))
    .get()
    .then((r) => (r ? { ...r, gradedAt: r.gradedAt?.getTime() ?? null } : undefined));
  const edition = await simulationEdition(db, sim?.editionId ?? null);
  return {
    ...withGrades(resultOf(row), edition),
    edition: editionRef(edition),
    title: sim?.title ?? simulationId,
    userId: row.userId,
    ranking: await rankingFor(db, simulationId, row.userId, sim ? { id: simulationId, ...sim } : undefined),
  };
}

/** What a result page says of the edition a simulation followed (its summary shows it), or null. */
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
  // One point lookup for the door and the room; the room touches only this student's rows.
  const { sim, shard } = await requireSimulationAccess(db, id, user);
  const outcome = await roomFor(env, id, shard).submitAttempt(user.id, body.answers, body.timeTaken);
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
  if (outcome.pending) return outcome;
  // The room graded on the primary through its own binding: the student's next read (the ranking) must see it.
  await catchUpWithPrimary(env);
  const edition = await simulationEdition(db, sim.editionId);
  return { ...outcome, result: { ...withGrades(outcome.result, edition), edition: editionRef(edition) } };
}
