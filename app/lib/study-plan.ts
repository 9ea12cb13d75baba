// The student's plan to a sitting (issue 46, point 1), the pure arithmetic: the time budget of each day, the weights of
// subjects and units, what is due, and the days from today to the eve of the sitting. The server reads the inputs
// (app/server/study-plan.server.ts) and computes the plan on every read, from the state at the start of the day, so the
// day's card stays the same all day while the work done is marked from real attempts (study-plan-progress.ts).
//
// The rules, in order of precedence on a day:
// 1. Whole exam days: at least EXAM_DAYS of them in the final FINAL_DAYS days (the eve excluded when there is room), on
//    the days with the most time. The day is the edition's papers in order with its breaks; when the day's budget is
//    smaller, the plan still sets it there and says so (overBudget): the day cannot be split and it must happen.
// 2. Reviews due (FSRS), today's overdue included; what does not fit moves to the next day.
// 3. Full papers of one subject in the PAPER_WEEKS weeks before the final days: one per subject and week, on the
//    week's days with the most time, the subject furthest from P(≥ pass mark) first; a paper that does not fit its day
//    waits for the next day where it fits.
// 4. New questions with the rest of the time, split across subjects by their weight (subjectWeight) and inside a
//    subject across its units (unitWeight); each subject's block names its heaviest units.
// Minutes per question come from the edition: a subject's paper minutes over its questions (50′ / 31 in 2026/27).
import { addDays } from "./days.ts";

export const PLAN_MINUTE_CHOICES = [30, 60, 90, 120] as const;
/** The minutes a day a plan accepts (a weekday may also be 0: a day off). */
export const PLAN_MINUTES_MIN = 10;
export const PLAN_MINUTES_MAX = 600;
export const FINAL_DAYS = 10;
export const EXAM_DAYS = 2;
export const PAPER_WEEKS = 4;
/** A subject's block of new questions smaller than this goes to the heaviest subject instead. */
export const MIN_BLOCK = 5;
/** Units named in a subject's block ("unità 3 e 6"). */
export const BLOCK_UNITS = 2;
/** The weight of an exam still to pass at the next sitting (after the first sitting's grades). */
export const RETAKE_FOCUS = 3;

export type PlanUnit = {
  number: number;
  credits: number;
  /** The student's answers in the unit (before today) and how many were right. */
  answered: number;
  correct: number;
  /** Distinct questions of the unit the student has answered, and the unit's questions in the bank. */
  seen: number;
  bank: number;
};

export type PlanSubject = {
  subjectId: number;
  name: string;
  /** The edition's paper: its minutes and questions. */
  paperMinutes: number;
  questions: number;
  /** The forecast's P(raw score ≥ pass mark) on one paper, null when it has too few answers. */
  passProbability: number | null;
  /** A multiplier from the grades of an earlier sitting (sitting-results.ts: focusWeights); 1 without. */
  focus?: number;
  units: PlanUnit[];
};

export type PlanBudget = { minutes: number; weekdays?: readonly (number | null)[] | null };

export type PlanInput = {
  /** Today, Rome calendar day (YYYY-MM-DD). */
  today: string;
  sittingDate: string;
  budget: PlanBudget;
  subjects: PlanSubject[];
  /** The edition's break between papers (minutes). */
  breakMin: number;
  /** Reviews due on each day from today (index 0: due by tonight, overdue included). */
  dueByDay: readonly number[];
  /** Credits of a subject (6 in the semestre filtro): a unit's share of the paper is its credits over these. */
  subjectCredits: number;
};

export type PlanItem =
  | { kind: "review"; count: number; minutes: number }
  | { kind: "practice"; subjectId: number; count: number; units: number[]; minutes: number }
  | { kind: "paper"; subjectId: number; minutes: number }
  | { kind: "exam-day"; subjectIds: number[]; minutes: number };

export type PlanDay = {
  date: string;
  budget: number;
  /** Minutes of the items. */
  minutes: number;
  /** An exam day longer than the day's budget. */
  overBudget: boolean;
  items: PlanItem[];
};

/** Monday = 0 … Sunday = 6, of a calendar day. */
export function weekdayOf(day: string): number {
  return (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
}

/** The minutes of a day: its weekday's own, else the plan's minutes a day. */
export function dayBudget(budget: PlanBudget, day: string): number {
  const own = budget.weekdays?.[weekdayOf(day)];
  return own ?? budget.minutes;
}

/** The days of the plan: from today to the eve of the sitting (none on or after the sitting's day). */
export function planDates(today: string, sittingDate: string): string[] {
  const out: string[] = [];
  for (let day = today; day < sittingDate; day = addDays(day, 1)) out.push(day);
  return out;
}

export const minutesPerQuestion = (s: Pick<PlanSubject, "paperMinutes" | "questions">) =>
  s.paperMinutes / Math.max(1, s.questions);

/** A smoothed accuracy: (right + 1) / (answers + 2), 0,5 with no answers. */
export const smoothedAccuracy = (u: Pick<PlanUnit, "answered" | "correct">) => (u.correct + 1) / (u.answered + 2);

export const coverage = (u: Pick<PlanUnit, "seen" | "bank">) => (u.bank > 0 ? Math.min(1, u.seen / u.bank) : 1);

/**
 * A unit's weight: its share of the paper (credits), × (1 + 2 · its weakness: 1 − accuracy), × (1 + what of it is
 * still unseen: 1 − coverage). A unit never answered weighs its share × 2 × 2; a mastered, fully seen one its share.
 */
export function unitWeight(u: PlanUnit, subjectCredits: number): number {
  const share = u.credits / subjectCredits;
  return share * (1 + 2 * (1 - smoothedAccuracy(u))) * (1 + (1 - coverage(u)));
}

/**
 * A subject's weight: the sum of its units' weights × its need, the forecast's distance from passing: 0,5 + (1 − P),
 * so a sure pass (P = 1) weighs a third of a sure fail (P = 0); without a forecast P counts as 0,5. × its focus.
 */
export function subjectWeight(s: PlanSubject, subjectCredits: number): number {
  const units = s.units.length
    ? s.units.reduce((sum, u) => sum + unitWeight(u, subjectCredits), 0)
    : 1 /* a subject without a syllabus: one unit's worth */;
  const need = 0.5 + (1 - (s.passProbability ?? 0.5));
  return units * need * (s.focus ?? 1);
}

/** Splits `total` in proportion to `weights` (largest remainder; ties to the earlier entry). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + Math.max(0, w), 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (Math.max(0, w) / sum) * total);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, n) => a + n, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]!++;
    left--;
  }
  return out;
}

/** The exam days: EXAM_DAYS of the final FINAL_DAYS (the eve left out when possible), the ones with the most time. */
export function examDays(dates: readonly string[], budgetOf: (day: string) => number): string[] {
  const final = dates.slice(-FINAL_DAYS);
  const candidates = final.length > EXAM_DAYS ? final.slice(0, -1) : [...final];
  const picked: string[] = [];
  const adjacent = (d: string) => picked.some((p) => p === addDays(d, 1) || p === addDays(d, -1));
  while (picked.length < Math.min(EXAM_DAYS, candidates.length)) {
    const left = candidates.filter((d) => !picked.includes(d));
    const most = Math.max(...left.map(budgetOf));
    const best = left.filter((d) => budgetOf(d) === most);
    // Among the days with the most time, one not next to another exam day (a day to review between them).
    picked.push(best.find((d) => !adjacent(d)) ?? best[0]!);
  }
  return picked.sort();
}

/** The days of the paper weeks, each with the subjects whose paper goes there (before the final days). */
function paperSlots(dates: readonly string[], budgetOf: (day: string) => number, order: readonly number[]) {
  const slots = new Map<string, number[]>();
  const end = Math.max(0, dates.length - FINAL_DAYS);
  const start = Math.max(0, end - PAPER_WEEKS * 7);
  // Weeks counted back from the final days, so the last one before them is always whole.
  for (let weekEnd = end; weekEnd > start; weekEnd -= 7) {
    const week = dates.slice(Math.max(start, weekEnd - 7), weekEnd);
    const byTime = [...week].sort((a, b) => budgetOf(b) - budgetOf(a) || a.localeCompare(b));
    order.forEach((subjectId, i) => {
      const day = byTime[i % byTime.length]!;
      slots.set(day, [...(slots.get(day) ?? []), subjectId]);
    });
  }
  return slots;
}

/** The plan, day by day, from today to the eve of the sitting. */
export function buildPlan(input: PlanInput): PlanDay[] {
  const dates = planDates(input.today, input.sittingDate);
  const budgetOf = (day: string) => dayBudget(input.budget, day);
  const credits = input.subjectCredits;
  // A working copy of the units: the plan's own questions raise their coverage, so later days turn to other units.
  const subjects = input.subjects.map((s) => ({ ...s, units: s.units.map((u) => ({ ...u })) }));
  const bySubject = new Map(subjects.map((s) => [s.subjectId, s]));
  const needOrder = [...subjects]
    .sort((a, b) => subjectWeight(b, credits) - subjectWeight(a, credits) || a.subjectId - b.subjectId)
    .map((s) => s.subjectId);
  const examSubjects = examDaySubjects(subjects);
  const exams = new Set(examDays(dates, budgetOf));
  const slots = paperSlots(dates, budgetOf, needOrder);
  const reviewMinutes = subjects.length
    ? subjects.reduce((sum, s) => sum + minutesPerQuestion(s), 0) / subjects.length
    : 1;

  let carriedReviews = 0;
  const pendingPapers: number[] = [];
  return dates.map((date, i): PlanDay => {
    const budget = budgetOf(date);
    const items: PlanItem[] = [];
    let free = budget;
    let overBudget = false;
    if (exams.has(date)) {
      const minutes =
        examSubjects.reduce((sum, id) => sum + (bySubject.get(id)?.paperMinutes ?? 0), 0) +
        input.breakMin * Math.max(0, examSubjects.length - 1);
      items.push({ kind: "exam-day", subjectIds: examSubjects, minutes });
      overBudget = minutes > budget;
      free = Math.max(0, budget - minutes);
    }
    const due = (input.dueByDay[i] ?? 0) + carriedReviews;
    const reviews = Math.min(due, Math.floor(free / reviewMinutes + 1e-9));
    carriedReviews = due - reviews;
    if (reviews > 0) {
      const minutes = reviews * reviewMinutes;
      items.push({ kind: "review", count: reviews, minutes });
      free -= minutes;
    }
    pendingPapers.push(...(slots.get(date) ?? []));
    const paper = pendingPapers.findIndex((id) => (bySubject.get(id)?.paperMinutes ?? Infinity) <= free + 1e-9);
    if (paper >= 0 && !exams.has(date)) {
      const subjectId = pendingPapers.splice(paper, 1)[0]!;
      const minutes = bySubject.get(subjectId)!.paperMinutes;
      items.push({ kind: "paper", subjectId, minutes });
      free -= minutes;
    }
    items.push(...practiceBlocks(subjects, free, credits));
    const minutes = items.reduce((sum, item) => sum + item.minutes, 0);
    return { date, budget, minutes: Math.round(minutes), overBudget, items };
  });
}

/** The subjects of a whole exam day: those the focus says to sit again (weight ≥ 1), else every one, in order. */
function examDaySubjects(subjects: readonly PlanSubject[]): number[] {
  const retake = subjects.filter((s) => (s.focus ?? 1) >= 1);
  return (retake.length ? retake : subjects).map((s) => s.subjectId);
}

/** New questions for `free` minutes, per subject by weight, each block naming its heaviest units; updates coverage. */
function practiceBlocks(subjects: PlanSubject[], free: number, credits: number): PlanItem[] {
  if (free <= 0 || !subjects.length) return [];
  const weights = subjects.map((s) => subjectWeight(s, credits));
  // Minutes by weight, then whole questions at each subject's own pace.
  const counts = subjects.map((s, i) => {
    const share = (weights[i]! / weights.reduce((a, w) => a + w, 0)) * free;
    return Math.floor(share / minutesPerQuestion(s) + 1e-9);
  });
  // Blocks under MIN_BLOCK join the heaviest subject's (at its pace, what still fits).
  const heaviest = weights.indexOf(Math.max(...weights));
  for (let i = 0; i < counts.length; i++) {
    if (i === heaviest || counts[i]! >= MIN_BLOCK) continue;
    const minutes = counts[i]! * minutesPerQuestion(subjects[i]!);
    counts[heaviest]! += Math.floor(minutes / minutesPerQuestion(subjects[heaviest]!) + 1e-9);
    counts[i] = 0;
  }
  const out: PlanItem[] = [];
  subjects.forEach((s, i) => {
    const count = counts[i]!;
    if (count <= 0) return;
    const unitCounts = apportion(
      count,
      s.units.map((u) => unitWeight(u, credits)),
    );
    const named = s.units
      .map((u, j) => ({ number: u.number, n: unitCounts[j]! }))
      .filter((u) => u.n > 0)
      .sort((a, b) => b.n - a.n || a.number - b.number)
      .slice(0, BLOCK_UNITS)
      .map((u) => u.number)
      .sort((a, b) => a - b);
    s.units.forEach((u, j) => {
      const n = unitCounts[j]!;
      const accuracy = smoothedAccuracy(u);
      u.seen = Math.min(u.bank, u.seen + n);
      u.answered += n;
      u.correct += n * accuracy;
    });
    out.push({ kind: "practice", subjectId: s.subjectId, count, units: named, minutes: count * minutesPerQuestion(s) });
  });
  return out;
}
