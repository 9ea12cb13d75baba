// What /piano and GET /api/me/plan show (issue 46): the plan with its calendar (past days done or missed, the days to
// the sitting), the forecast's trend per exam, and after a sitting the grades entered read by the edition's rules,
// with the aggregates of other students (at least 30). One round trip after the session: the plan's batch, the edition
// and the aggregates side by side.
import { addDays, italianDay } from "~/lib/days";
import { sittingStartsAt } from "~/lib/edition";
import { sittingResults, type SittingResults } from "~/lib/sitting-results";
import { dayBudget } from "~/lib/study-plan";
import { type CalendarDay, passTrend, planCalendar } from "~/lib/study-plan-progress";
import type { Db } from "./db/client.server";
import { readSittingAggregates, type SittingAggregate, sittingAggregates } from "./sitting-grades.server";
import { gradesOf, HISTORY_DAYS, type PlanState, readPlan } from "./study-plan.server";

export type TrendLine = { subjectId: number; name: string; points: { date: string; p: number | null }[] };

export type PlanPage = {
  now: number;
  today: string;
  edition: {
    id: number;
    label: string;
    maxGrade: number;
    lode: number;
    passMark: number;
    sittings: { date: string; label: string; started: boolean }[];
    subjects: { subjectId: number; name: string }[];
  };
  plan: PlanState;
  calendar: CalendarDay[];
  trend: TrendLine[];
  results: SittingResults;
  aggregates: SittingAggregate[];
};

export async function planPage(db: Db, userId: number, now = Date.now()): Promise<PlanPage> {
  const today = italianDay(now);
  const [{ edition, rows, plan }, aggregateRows] = await Promise.all([
    readPlan(db, userId, now, { gated: false, history: true }),
    readSittingAggregates(db),
  ]);
  const aggregates = sittingAggregates(edition, aggregateRows);
  const f = edition.format;
  const names = new Map(rows.subjects.map((s) => [s.id, s.name]));
  const subjects = f.subjects.map((s) => ({ subjectId: s.subjectId, name: names.get(s.subjectId) ?? s.name ?? "" }));

  let calendar: CalendarDay[] = [];
  let first = addDays(today, -HISTORY_DAYS);
  if (plan.state === "active") {
    const budget = { minutes: plan.settings.minutesPerDay, weekdays: plan.settings.weekdays };
    calendar = planCalendar({
      since: plan.settings.since,
      today,
      historyDays: HISTORY_DAYS,
      days: plan.days,
      answeredByDay: new Map(rows.history.map((h) => [h.day, h.answered])),
      budgetOf: (day) => dayBudget(budget, day),
      minutesPerQuestion: plan.reviewMinutes,
    });
    first = calendar[0]?.date ?? today;
  }
  // The trend: P(≥ pass mark) at the start of each day from the first shown to today, per exam.
  const daysAgo: number[] = [];
  for (let day = first, k = dayDiff(first, today); day <= today; day = addDays(day, 1), k--) daysAgo.push(k);
  const paper = { questions: f.questionTotal, passMark: f.passMark, scoring: f.scoring };
  const trend = subjects.map(({ subjectId, name }): TrendLine => {
    const groups = rows.groups
      .filter((g) => g.subject_id === subjectId)
      .map((g) => ({ topicId: g.topic_id, ageDays: Math.max(0, g.age), n: g.n, correct: g.k }));
    const mix = new Map(rows.mix.filter((m) => m.subject_id === subjectId).map((m) => [m.topic_id, m.n]));
    const ps = passTrend(groups, mix, paper, daysAgo);
    return { subjectId, name, points: daysAgo.map((k, i) => ({ date: addDays(today, -k), p: ps[i] ?? null })) };
  });

  return {
    now,
    today,
    edition: {
      id: edition.id,
      label: edition.label,
      maxGrade: f.maxGrade,
      lode: f.lode,
      passMark: f.passMark,
      sittings: f.sittings.map((s) => ({ date: s.date, label: s.label, started: sittingStartsAt(s) <= now })),
      subjects,
    },
    plan,
    calendar,
    trend,
    results: sittingResults(edition, gradesOf(rows), names, now),
    aggregates,
  };
}

function dayDiff(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
