// The student's plan to a sitting (issue 46, point 1): the one service. It stores the choice (a sitting of the default
// edition, minutes a day) and computes the days on every read (app/lib/study-plan.ts) from one batch of reads
// (study-plan-reads.server.ts) taken as the day began, so the day's card is stable while its work is marked done from
// the day's real attempts (app/lib/study-plan-progress.ts). The dashboard reads today's card beside its other reads.
import { eq } from "drizzle-orm";
import { italianDay, italianMidnight } from "~/lib/days";
import { type ExamEdition, EDITION_SUBJECT_CREDITS, sittingStartsAt } from "~/lib/edition";
import type { PlanInputBody } from "~/lib/forms/study-plan";
import { passProbability, type TopicAnswers } from "~/lib/forecast";
import { focusWeights, sittingResults, type SittingResults } from "~/lib/sitting-results";
import { buildPlan, minutesPerQuestion, type PlanDay, planDates, type PlanSubject } from "~/lib/study-plan";
import { type DayWork, dayProgress, type ItemProgress } from "~/lib/study-plan-progress";
import { PLAN_TEXT } from "~/lib/study-plan-text";
import type { Db } from "./db/client.server";
import { studyPlans } from "./db/schema";
import { defaultEdition } from "./editions.server";
import { HttpError } from "./errors.server";
import { type PlanRows, readPlanRows } from "./study-plan-reads.server";

export type PlanSettings = {
  editionId: number;
  sittingDate: string;
  sittingLabel: string;
  minutesPerDay: number;
  weekdays: (number | null)[] | null;
  /** The Rome day the plan was made. */
  since: string;
};

/** What the plan says today and after: everything a screen shows of it. */
export type ActivePlan = {
  state: "active";
  settings: PlanSettings;
  daysLeft: number;
  days: PlanDay[];
  /** Today's items with what the day's attempts did of them (null: no day left before the sitting). */
  today: { items: ItemProgress[]; complete: boolean; budget: number; minutes: number; overBudget: boolean } | null;
  /** Subject names by id, the edition's paper length (links), its pace (minutes per question) for reviews. */
  names: Record<number, string>;
  questionTotal: number;
  reviewMinutes: number;
};

export type PlanState =
  | { state: "none" }
  /** The plan's sitting has started, or the default edition changed (or dropped the sitting) since it was made. */
  | { state: "passed" | "edition"; settings: PlanSettings }
  | ActivePlan;

/** The plan of the rows read with `readPlanRows`, as of `now`. */
export function planOf(edition: ExamEdition, rows: PlanRows, now: number): PlanState {
  const row = rows.plan;
  if (!row) return { state: "none" };
  const sitting = edition.format.sittings.find((s) => s.date === row.sitting_date);
  const weekdays = row.weekday_minutes ? (JSON.parse(row.weekday_minutes) as (number | null)[]) : null;
  const settings: PlanSettings = {
    editionId: row.edition_id,
    sittingDate: row.sitting_date,
    sittingLabel: sitting?.label ?? row.sitting_date,
    minutesPerDay: row.minutes_per_day,
    weekdays,
    since: italianDay(row.created_at),
  };
  if (row.edition_id !== edition.id || !sitting) return { state: "edition", settings };
  if (sittingStartsAt(sitting) <= now) return { state: "passed", settings };

  const f = edition.format;
  const today = italianDay(now);
  const names = Object.fromEntries(rows.subjects.map((s) => [s.id, s.name]));
  const nameMap = new Map(rows.subjects.map((s) => [s.id, s.name]));
  const focus = focusWeights(edition, sittingResults(edition, gradesOf(rows), nameMap, now));
  const paper = { questions: f.questionTotal, passMark: f.passMark, scoring: f.scoring };
  const subjects: PlanSubject[] = f.subjects.map((s) => {
    const groups = rows.groups.filter((g) => g.subject_id === s.subjectId).map(toGroup);
    const mix = new Map(rows.mix.filter((m) => m.subject_id === s.subjectId).map((m) => [m.topic_id, m.n]));
    return {
      subjectId: s.subjectId,
      name: names[s.subjectId] ?? s.name ?? "",
      paperMinutes: s.minutes,
      questions: f.questionTotal,
      passProbability: passProbability(groups, mix, paper),
      focus: focus.get(s.subjectId) ?? 1,
      units: f.units
        .filter((u) => u.subjectId === s.subjectId)
        .map((u) => {
          const stat = rows.units.find((x) => x.subject_id === s.subjectId && x.unit === u.number);
          const bank = rows.bank.find((x) => x.subject_id === s.subjectId && x.unit === u.number);
          return {
            number: u.number,
            credits: u.credits,
            answered: stat?.n ?? 0,
            correct: stat?.k ?? 0,
            seen: stat?.seen ?? 0,
            bank: bank?.n ?? 0,
          };
        }),
    };
  });
  const work = dayWork(edition, rows);
  // Reviews due by tonight not touched yet today, plus those reviewed today: the same count all day.
  const dueByDay: number[] = [];
  for (const r of rows.due) dueByDay[r.d] = r.d === 0 ? r.before : r.n;
  dueByDay[0] = (dueByDay[0] ?? 0) + work.reviews;
  const days = buildPlan({
    today,
    sittingDate: sitting.date,
    budget: { minutes: settings.minutesPerDay, weekdays },
    subjects,
    breakMin: f.breakMin,
    dueByDay: Array.from(dueByDay, (n) => n ?? 0),
    subjectCredits: EDITION_SUBJECT_CREDITS,
  });
  const first = days[0];
  const progress = first ? dayProgress(first, work) : null;
  return {
    state: "active",
    settings,
    daysLeft: planDates(today, sitting.date).length,
    days,
    today:
      first && progress
        ? { ...progress, budget: first.budget, minutes: first.minutes, overBudget: first.overBudget }
        : null,
    names,
    questionTotal: f.questionTotal,
    reviewMinutes: subjects.reduce((sum, s) => sum + minutesPerQuestion(s), 0) / Math.max(1, subjects.length),
  };
}

const toGroup = (g: PlanRows["groups"][number]): TopicAnswers => ({
  topicId: g.topic_id,
  ageDays: Math.max(0, g.age),
  n: g.n,
  correct: g.k,
});

export const gradesOf = (rows: Pick<PlanRows, "grades">) =>
  rows.grades.map((g) => ({ sittingDate: g.sitting_date, subjectId: g.subject_id, grade: g.grade }));

/**
 * Today's work from today's completed attempts: a review quiz (the review of the day, a redo) counts its answers as
 * reviews; the edition's full paper of a subject (its questions, timed, drawn in its split) as that paper; any other
 * quiz its answers as practice of its subject. A graded day alone (issue 46) counts each of its papers (read as one).
 */
export function dayWork(edition: ExamEdition, rows: Pick<PlanRows, "today">): DayWork {
  const work = { reviews: 0, practice: {} as Record<number, number>, papers: [] as number[] };
  for (const a of rows.today) {
    if (a.kind === "redo") work.reviews += a.answered;
    else if (a.subject_id != null && a.edition_id === edition.id && a.total === edition.format.questionTotal && a.timed)
      work.papers.push(a.subject_id);
    else if (a.subject_id != null) work.practice[a.subject_id] = (work.practice[a.subject_id] ?? 0) + a.answered;
  }
  return work;
}

const DAY = 24 * 60 * 60 * 1000;
/** The days of history /piano shows before today. */
export const HISTORY_DAYS = 28;

/** The plan and the rows it came from, as of `now` (the edition and the rows side by side: one round trip). */
export async function readPlan(db: Db, userId: number, now: number, options: { gated: boolean; history?: boolean }) {
  const today = italianDay(now);
  const dayStart = italianMidnight(today);
  const [edition, rows] = await Promise.all([
    defaultEdition(db),
    readPlanRows(db, {
      userId,
      now,
      dayStart,
      gated: options.gated,
      historySince: options.history ? dayStart - HISTORY_DAYS * DAY : undefined,
    }),
  ]);
  return { edition, rows, plan: planOf(edition, rows, now) };
}

/** The dashboard's card: today's part of the plan. The edition and the rows are read side by side (one round). */
export async function todayCard(db: Db, userId: number, now = Date.now()): Promise<PlanState> {
  const { plan } = await readPlan(db, userId, now, { gated: true });
  // The card needs today only: the days after it stay on /piano.
  return plan.state === "active" ? { ...plan, days: plan.days.slice(0, 1) } : plan;
}

/** Saves the student's plan (a new one, or new minutes or sitting): a sitting of the default edition not started yet. */
export async function savePlan(db: Db, userId: number, body: PlanInputBody, now = Date.now()): Promise<void> {
  const edition = await defaultEdition(db);
  if (body.editionId !== edition.id) throw new HttpError(400, PLAN_TEXT.errors.edition);
  const sitting = edition.format.sittings.find((s) => s.date === body.sittingDate);
  if (!sitting) throw new HttpError(400, PLAN_TEXT.errors.sitting);
  if (sittingStartsAt(sitting) <= now) throw new HttpError(409, PLAN_TEXT.errors.sittingStarted);
  const values = {
    editionId: edition.id,
    sittingDate: sitting.date,
    minutesPerDay: body.minutesPerDay,
    weekdayMinutes: body.weekdays?.some((w) => w != null) ? body.weekdays : null,
    updatedAt: new Date(now),
  };
  await db
    .insert(studyPlans)
    .values({ userId, ...values, createdAt: new Date(now) })
    .onConflictDoUpdate({ target: studyPlans.userId, set: values });
}

/** Deletes the student's plan (their grades stay). */
export async function deletePlan(db: Db, userId: number): Promise<void> {
  await db.delete(studyPlans).where(eq(studyPlans.userId, userId));
}

export type { SittingResults };
