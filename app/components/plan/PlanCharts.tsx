// /piano's charts, loaded in their own chunk after the page is interactive (as the dashboard's: charts.tsx there);
// until it arrives each chart keeps its place, so nothing moves.
import { lazy, Suspense } from "react";
import type { CalendarDay } from "~/lib/study-plan-progress";
import { weekdayOf } from "~/lib/study-plan";
import type { TrendLine } from "./PlanCharts.impl";

const load = () => import("./PlanCharts.impl");
const LazyCalendar = lazy(() => load().then((m) => ({ default: m.PlanCalendarChart })));
const LazyTrend = lazy(() => load().then((m) => ({ default: m.PassTrendChart })));

function Slot({ height, children }: { height: number; children: React.ReactNode }) {
  return (
    <Suspense fallback={<div className="chart chart--pending" style={{ minHeight: height }} aria-hidden="true" />}>
      {children}
    </Suspense>
  );
}

export function PlanCalendarChart(props: { days: CalendarDay[]; summary: string }) {
  const weeks = props.days.length ? Math.ceil((weekdayOf(props.days[0]!.date) + props.days.length) / 7) : 1;
  return (
    <Slot height={18 + weeks * 40}>
      <LazyCalendar {...props} />
    </Slot>
  );
}

export function PassTrendChart(props: { lines: TrendLine[]; summary: string }) {
  return (
    <Slot height={220}>
      <LazyTrend {...props} />
    </Slot>
  );
}
