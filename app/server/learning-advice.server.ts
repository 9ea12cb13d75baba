// What the learning engine advises a student: the review of the day (the questions whose FSRS memory is due), the
// score forecast, the peer difficulty of each question and the targeted ('Mirato') draw. The memories are written by
// learning.server.ts; the math lives in ~/lib/forecast.
import { and, asc, eq, lte, sql, type SQL } from "drizzle-orm";
import {
  expectedSection,
  forecastSubject,
  passProbability,
  type RankingSection,
  type TopicAnswers,
} from "~/lib/forecast";
import { defaultEdition } from "./editions.server";
import type { Db } from "./db/client.server";
import { questionMemory, questions, statQuestionAccuracy, subjects } from "./db/schema";
import { HttpError } from "./errors.server";
import { sealedQuestionIdsSql } from "~/server/simulation/seal.server";
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

// --- Review of the day ---

export const HORIZON_MAX_MS = 30 * DAY;
const HORIZON_ERROR =
  "Orizzonte non valido: usa un numero di giorni o di ore come 1d o 12h, al massimo 30d (campo: horizon).";

/** `Nd` / `Nh` (up to 30 days) → milliseconds; empty = due now. Anything else is a 400. */
export function parseHorizon(value: string | null): number {
  if (value == null || value === "") return 0;
  const match = /^(\d{1,4})([dh])$/.exec(value.trim());
  if (!match) throw new HttpError(400, HORIZON_ERROR);
  const ms = Number(match[1]) * (match[2] === "d" ? DAY : HOUR);
  if (ms > HORIZON_MAX_MS) throw new HttpError(400, HORIZON_ERROR);
  return ms;
}

export type DueQuestion = {
  questionId: number;
  subjectId: number;
  topicId: number | null;
  dueAt: string;
  lastAnswerCorrect: boolean | null;
};

/**
 * Questions due by now + horizon, most overdue first. Ids and dates only: never question content or keys,
 * and nothing of a sealed question (its due date and last verdict would tell how it was answered).
 */
export async function dueReview(
  db: Db,
  userId: number,
  horizonMs = 0,
  now = Date.now(),
): Promise<{ count: number; due: DueQuestion[] }> {
  const rows = await db
    .select({
      questionId: questionMemory.questionId,
      subjectId: questions.subjectId,
      topicId: questions.topicId,
      due: questionMemory.due,
      lastCorrect: questionMemory.lastCorrect,
    })
    .from(questionMemory)
    .innerJoin(questions, eq(questions.id, questionMemory.questionId))
    .where(
      and(
        eq(questionMemory.userId, userId),
        lte(questionMemory.due, new Date(now + horizonMs)),
        eq(questions.active, true),
        sql`${questionMemory.questionId} NOT IN (${sealedQuestionIdsSql(userId, now)})`,
      ),
    )
    .orderBy(asc(questionMemory.due), asc(questionMemory.questionId))
    .all();
  return {
    count: rows.length,
    due: rows.map((r) => ({
      questionId: r.questionId,
      subjectId: r.subjectId,
      topicId: r.topicId,
      dueAt: r.due.toISOString(),
      lastAnswerCorrect: r.lastCorrect,
    })),
  };
}

/** Just the number due now (dashboard), sealed questions left out as in dueReview. */
export async function dueCount(db: Db, userId: number, now = Date.now()): Promise<number> {
  const row = await db.get<{ n: number }>(sql`
    SELECT count(*) AS n FROM question_memory m JOIN questions q ON q.id = m.question_id
    WHERE m.user_id = ${userId} AND m.due <= ${now} AND q.active = 1
      AND q.id NOT IN (${sealedQuestionIdsSql(userId, now)})`);
  return row?.n ?? 0;
}

// --- Score forecast ---

export type SubjectForecast = {
  subjectId: number;
  name: string;
  predicted: number | null;
  low: number | null;
  high: number | null;
  answers: number;
  /** P(raw score ≥ the edition's pass mark) on one real paper (issue 29); null below the answers a forecast needs. */
  passProbability: number | null;
};

/** The most likely ranking section (300: three exams passed, 200: two, 100: one, 0: none) and its probability. */
export type SectionForecast = { section: RankingSection; probability: number };

/** The exam's topic mix, approximated by the bank: each topic's share of the subject's active questions. */
async function examTopicMix(db: Db): Promise<Map<number, Map<number, number>>> {
  const rows = await db.all<{ subject_id: number; topic_id: number | null; n: number }>(sql`
    SELECT subject_id, topic_id, count(*) AS n FROM questions WHERE active = 1 GROUP BY subject_id, topic_id`);
  const mix = new Map<number, Map<number, number>>();
  for (const r of rows) {
    const m = mix.get(r.subject_id) ?? new Map<number, number>();
    m.set(r.topic_id ?? 0, r.n);
    mix.set(r.subject_id, m);
  }
  return mix;
}

/**
 * GET /api/me/forecast: the exam subjects (Chimica, Fisica, Biologia) always, the others once answered.
 * Answers to sealed questions are left out (with the rest known, a forecast would tell their verdict).
 */
export async function scoreForecast(
  db: Db,
  userId: number,
  now = Date.now(),
): Promise<{ subjects: SubjectForecast[]; section: SectionForecast | null }> {
  const [groups, mix, subjectRows, edition] = await Promise.all([
    db.all<{ subject_id: number; topic_id: number | null; age: number; n: number; k: number }>(sql`
      SELECT q.subject_id, q.topic_id, (${now} - aa.answered_at) / ${DAY} AS age, count(*) AS n,
        sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END) AS k
      FROM attempts a JOIN attempt_answers aa ON aa.attempt_id = a.id JOIN questions q ON q.id = aa.question_id
      WHERE a.user_id = ${userId} AND a.status = 'completed'
        AND aa.question_id NOT IN (${sealedQuestionIdsSql(userId, now)})
      GROUP BY q.subject_id, q.topic_id, age`),
    examTopicMix(db),
    db.select({ id: subjects.id, name: subjects.name }).from(subjects).orderBy(asc(subjects.id)).all(),
    defaultEdition(db),
  ]);
  const bySubject = new Map<number, TopicAnswers[]>();
  for (const g of groups) {
    const list = bySubject.get(g.subject_id) ?? [];
    list.push({ topicId: g.topic_id ?? 0, ageDays: Math.max(0, g.age), n: g.n, correct: g.k });
    bySubject.set(g.subject_id, list);
  }
  // The default edition's exams, in the day's order; its paper length and pass mark (issue 29).
  const exam: readonly number[] = edition.format.subjects.map((s) => s.subjectId);
  const paper = {
    questions: edition.format.questionTotal,
    passMark: edition.format.passMark,
    scoring: edition.format.scoring,
  };
  const order = (id: number) => (exam.includes(id) ? exam.indexOf(id) : exam.length + id);
  const rows = subjectRows
    .filter((s) => exam.includes(s.id) || bySubject.has(s.id))
    .sort((a, b) => order(a.id) - order(b.id))
    .map((s): SubjectForecast => {
      const answers = bySubject.get(s.id) ?? [];
      const topicMix = mix.get(s.id) ?? new Map();
      return {
        subjectId: s.id,
        name: s.name,
        ...forecastSubject(answers, topicMix),
        passProbability: exam.includes(s.id) ? passProbability(answers, topicMix, paper) : null,
      };
    });
  // The section needs every exam of the edition forecast.
  const passes = exam.map((id) => rows.find((r) => r.subjectId === id)?.passProbability ?? null);
  const section = passes.every((p): p is number => p !== null)
    ? expectedSection(passes, edition.format.sectionPoints)
    : null;
  return { subjects: rows, section };
}

// --- Peer difficulty ---

export const PEER_MIN_ANSWERS = 20;

/** The difficulty level 1-5 from the share of right answers of every student (after 20 answers). */
export function peerDifficulty(answered: number | null | undefined, correct: number | null | undefined): number | null {
  if (answered == null || correct == null || answered < PEER_MIN_ANSWERS) return null;
  const share = correct / answered;
  if (share >= 0.8) return 1;
  if (share >= 0.65) return 2;
  if (share >= 0.5) return 3;
  if (share >= 0.35) return 4;
  return 5;
}

// --- Test mirato ---

/**
 * Weights of the targeted draw (documented in the note):
 * - the student's accuracy in the question's topic, smoothed (k+1)/(n+2): weight 1 + 2·(1 − accuracy),
 *   so the weakest topics come up to three times as often as mastered ones;
 * - memory: due for review ×3, never answered ×2, answered and not yet due ×0.5 (FSRS says it is
 *   still remembered: asking it now teaches little);
 * - peer difficulty (after 20 answers): ×(1.5 − |share right − the student's topic accuracy|), so
 *   questions near the student's level (neither trivial nor out of reach) are preferred.
 */
export function targetedWeight(args: {
  topicAccuracy: number;
  due: boolean;
  seen: boolean;
  peerShare: number | null;
}): number {
  let w = 1 + 2 * (1 - args.topicAccuracy);
  w *= args.due ? 3 : args.seen ? 0.5 : 2;
  if (args.peerShare != null) w *= 1.5 - Math.abs(args.peerShare - args.topicAccuracy);
  return w;
}

/** Weighted sampling without replacement (Efraimidis-Spirakis: the largest u^(1/w) keys). */
export function weightedSample<T extends { weight: number }>(
  items: readonly T[],
  count: number,
  random: () => number = Math.random,
): T[] {
  return items
    .map((item) => ({ item, key: random() ** (1 / Math.max(item.weight, 1e-9)) }))
    .sort((a, b) => b.key - a.key)
    .slice(0, Math.max(0, count))
    .map((x) => x.item);
}

/** The ids of a targeted quiz from a subject (and topic filter), weighted as `targetedWeight` says. */
export async function targetedQuestionIds(
  db: Db,
  args: { userId: number; subjectId: number; topicFilter: SQL; count: number; now: number; random?: () => number },
): Promise<number[]> {
  const [candidates, accuracy] = await Promise.all([
    db
      .select({
        id: questions.id,
        topicId: questions.topicId,
        due: questionMemory.due,
        seen: questionMemory.questionId,
        answered: statQuestionAccuracy.answered,
        correct: statQuestionAccuracy.correct,
      })
      .from(questions)
      .leftJoin(
        questionMemory,
        and(eq(questionMemory.questionId, questions.id), eq(questionMemory.userId, args.userId)),
      )
      .leftJoin(statQuestionAccuracy, eq(statQuestionAccuracy.questionId, questions.id))
      .where(and(eq(questions.subjectId, args.subjectId), eq(questions.active, true), args.topicFilter))
      .all(),
    db.all<{ topic_id: number | null; n: number; k: number }>(sql`
      SELECT q.topic_id, count(*) AS n, sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END) AS k
      FROM attempts a JOIN attempt_answers aa ON aa.attempt_id = a.id JOIN questions q ON q.id = aa.question_id
      WHERE a.user_id = ${args.userId} AND a.status = 'completed' AND q.subject_id = ${args.subjectId}
      GROUP BY q.topic_id`),
  ]);
  const topicAccuracy = new Map(accuracy.map((t) => [t.topic_id ?? 0, (t.k + 1) / (t.n + 2)]));
  const weighted = candidates.map((c) => ({
    id: c.id,
    weight: targetedWeight({
      topicAccuracy: topicAccuracy.get(c.topicId ?? 0) ?? 0.5,
      due: c.due != null && c.due.getTime() <= args.now,
      seen: c.seen != null,
      peerShare: c.answered != null && c.answered >= PEER_MIN_ANSWERS ? (c.correct ?? 0) / c.answered : null,
    }),
  }));
  return weightedSample(weighted, args.count, args.random).map((c) => c.id);
}
