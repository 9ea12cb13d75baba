// A simulation's plan (subjects, questions, per-candidate order) and what a candidate may see of it.
import { SHEET_GAP_BOXES } from "~/lib/constants";
import { asc, eq } from "drizzle-orm";
import type { AnswerKey, FlowSubject } from "~/lib/simulation";
import { candidateOptions, candidateQuestions, candidateSeed, studentWindows } from "~/lib/simulation-day";
import type { Db } from "../db/client.server";
import {
  questions,
  simulationAllowedClasses,
  simulationAllowedUsers,
  simulationQuestions,
  simulations,
  simulationSubjects,
  subjects,
  type Question,
} from "../db/schema";

import type { SimulationHead } from "./door.server";
/** One subject of a simulation's plan; `questions` is empty until the simulation has started (simulationPlan). */
export type PlanSubject = FlowSubject & { position: number; questionCount: number; questions: Question[] };

/** A simulation with its plan and explicit audience lists: its row (less the ranking count) and more. */
export type SimulationConfig = Omit<SimulationHead, "rankedCount"> & {
  subjects: PlanSubject[];
  /** The explicit lists; who may enter is their union, read by simulationAudience when asked. */
  allowedUsers: number[];
  allowedClasses: number[];
  /** How many saves the plan has had (simulations.plan_version): Avvia starts only the plan it read. */
  saves: number;
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
    endsAt: sim.endsAt ? sim.endsAt.getTime() : null,
    sealUntil: sim.sealUntil ? sim.sealUntil.getTime() : null,
    createdBy: sim.createdBy ?? null,
    shards: sim.shards,
    editionId: sim.editionId ?? null,
    saves: sim.planVersion,
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
 * Plans per isolate, by version: a started one is fixed at Avvia (the start instant is its version); before Avvia the
 * version is the simulation's save (planVersion), and the copy is read again after PLAN_LOBBY_MAX_AGE_MS at most (a
 * question of the bank edited meanwhile).
 */
const plans = new Map<string, { version: string; at: number; subjects: PlanSubject[] }>();
const PLANS_KEPT = 32;
const PLAN_LOBBY_MAX_AGE_MS = 60_000;

/** Sets `key` as the most recent entry of a per-isolate cache, dropping the oldest past `kept` entries. */
export function keepRecent<V>(cache: Map<string, V>, key: string, value: V, kept: number) {
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
 * What a candidate may see: the flow, with the questions of subjects that have already opened for them (server time,
 * their own windows: an accommodated candidate's next subject opens after their extended one), in THEIR order
 * (questions and options seeded by simulation and user: the same on every reload, different between candidates),
 * and never an answer key or explanation. Answers name questions by id and options by text, so grading ignores it.
 */
export function publicSimulation(
  config: Pick<SimulationHead, "id" | "title" | "started" | "startTime"> &
    Partial<Pick<SimulationHead, "endsAt">> & { subjects: PlanSubject[] },
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
    /** When the whole sitting ends (its latest candidate; stored at Avvia): its grading and ranking follow. */
    endsAt: config.endsAt ?? null,
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
