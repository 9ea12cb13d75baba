// What of the plan was done (issue 46, point 1), pure: today's items marked from the day's real attempts (no checkbox),
// a past day judged against its time budget, and the forecast as it stood on a past day (its trend). The server reads
// the attempts (app/server/study-plan.server.ts); the plan itself is study-plan.ts.
import { addDays } from "./days.ts";
import { groupsAsOf, passProbability, type TopicAnswers } from "./forecast.ts";
import type { PlanDay, PlanItem } from "./study-plan.ts";

/** The work of one day, from its completed attempts. */
export type DayWork = {
  /** Questions answered in review quizzes (the review of the day, a redo). */
  reviews: number;
  /** Questions answered in practice quizzes per subject (full papers apart). */
  practice: Readonly<Record<number, number>>;
  /** The subject of each full paper completed (the edition's paper, timed). */
  papers: readonly number[];
};

export const NO_WORK: DayWork = { reviews: 0, practice: {}, papers: [] };

export type ItemProgress = PlanItem & { done: number; target: number; complete: boolean };

/** Today's items with what the attempts did of each. A full paper counts for one paper item or exam day only. */
export function dayProgress(day: PlanDay, work: DayWork): { items: ItemProgress[]; complete: boolean } {
  const papers = [...work.papers];
  const takePaper = (subjectId: number) => {
    const at = papers.indexOf(subjectId);
    if (at < 0) return 0;
    papers.splice(at, 1);
    return 1;
  };
  // Exam days first: their papers are the day; a separate paper item takes only what is left.
  const order = [...day.items].sort((a, b) => Number(b.kind === "exam-day") - Number(a.kind === "exam-day"));
  const marked = new Map<PlanItem, ItemProgress>();
  for (const item of order) {
    let done = 0;
    let target = 1;
    if (item.kind === "review") [done, target] = [Math.min(item.count, work.reviews), item.count];
    else if (item.kind === "practice")
      [done, target] = [Math.min(item.count, work.practice[item.subjectId] ?? 0), item.count];
    else if (item.kind === "paper") done = takePaper(item.subjectId);
    else [done, target] = [item.subjectIds.reduce((n, id) => n + takePaper(id), 0), item.subjectIds.length];
    marked.set(item, { ...item, done, target, complete: done >= target });
  }
  const items = day.items.map((item) => marked.get(item)!);
  return { items, complete: items.length > 0 && items.every((i) => i.complete) };
}

/** A day's work in minutes: its answers at the edition's pace. */
export const workedMinutes = (answered: number, minutesPerQuestion: number) => answered * minutesPerQuestion;

/** The share of a day's budget that makes it done. */
export const DONE_SHARE = 0.8;

export type DayStatus = "fatto" | "parziale" | "saltato" | "riposo";

/**
 * A past day against its budget (what it planned is not stored: the plan is recomputed each day): done from 80 % of
 * the budget, partly done with any work below that, missed with none; a day off is a rest unless worked.
 */
export function pastDayStatus(budget: number, worked: number): DayStatus {
  if (budget <= 0) return worked > 0 ? "fatto" : "riposo";
  if (worked >= DONE_SHARE * budget - 1e-9) return "fatto";
  return worked > 0 ? "parziale" : "saltato";
}

/**
 * P(≥ pass mark) of a subject as it stood `daysAgo` days before the groups' reference day, for each of `days` (oldest
 * first): the forecast's trend, recomputed from the answers of the time (the model is the forecast's own).
 */
export function passTrend(
  groups: readonly TopicAnswers[],
  mix: ReadonlyMap<number, number>,
  paper: Parameters<typeof passProbability>[2],
  daysAgo: readonly number[],
): (number | null)[] {
  return daysAgo.map((d) => passProbability(groupsAsOf(groups, d), mix, paper));
}

/** A day of /piano's calendar: a past day judged, today, or a day to come with what it plans. */
export type CalendarDay = {
  date: string;
  status: DayStatus | "oggi" | "futuro";
  budget: number;
  /** Past: the minutes worked; today and after: the minutes planned. */
  minutes: number;
  exam: boolean;
  paper: boolean;
};

/**
 * The calendar from the first day shown (the plan's first day, at most `historyDays` back) to the eve of the sitting:
 * past days by their work (answers per day at the edition's pace) against their budget, then the plan's days.
 */
export function planCalendar(args: {
  since: string;
  today: string;
  historyDays: number;
  days: readonly PlanDay[];
  answeredByDay: ReadonlyMap<string, number>;
  budgetOf: (day: string) => number;
  minutesPerQuestion: number;
}): CalendarDay[] {
  const out: CalendarDay[] = [];
  const first = [args.since, addDays(args.today, -args.historyDays)].sort().at(-1)!;
  for (let day = first; day < args.today; day = addDays(day, 1)) {
    const budget = args.budgetOf(day);
    const minutes = workedMinutes(args.answeredByDay.get(day) ?? 0, args.minutesPerQuestion);
    out.push({ date: day, status: pastDayStatus(budget, minutes), budget, minutes, exam: false, paper: false });
  }
  for (const d of args.days)
    out.push({
      date: d.date,
      status: d.date === args.today ? "oggi" : "futuro",
      budget: d.budget,
      minutes: d.minutes,
      exam: d.items.some((i) => i.kind === "exam-day"),
      paper: d.items.some((i) => i.kind === "paper"),
    });
  return out;
}
