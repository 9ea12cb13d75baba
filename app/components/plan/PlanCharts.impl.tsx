// /piano's two charts (issue 46), in their own chunk (visx is most of a chart page's JavaScript): the calendar to the
// sitting, a square per day coloured by what happened or what is planned, and the forecast's P(≥ pass mark) per exam
// day by day. Each has a text summary for screen readers; the same facts are in the page's text (the list of days).
import { curveMonotoneX } from "@visx/curve";
import { GridRows } from "@visx/grid";
import { Group } from "@visx/group";
import { scaleLinear, scaleTime } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { ChartFrame, type LegendItem, tickLabel } from "~/components/charts/ChartFrame";
import { DayAxes } from "~/components/charts/DayAxes";
import { weekdayOf } from "~/lib/study-plan";
import type { CalendarDay } from "~/lib/study-plan-progress";
import { PLAN_TEXT as T } from "~/lib/study-plan-text";

export const STATUS_COLORS: Record<CalendarDay["status"], string> = {
  fatto: "#4ade80",
  parziale: "#ffd166",
  saltato: "#ff6b6b",
  riposo: "#2a2d34",
  oggi: "#ff9233",
  futuro: "#3a3e47",
};

const CELL = 36;
const GAP = 4;
const HEAD = 18;

export const calendarHeight = (days: readonly CalendarDay[]) => {
  const weeks = days.length ? Math.ceil((weekdayOf(days[0]!.date) + days.length) / 7) : 1;
  return HEAD + weeks * (CELL + GAP);
};

export function PlanCalendarChart({ days, summary }: { days: CalendarDay[]; summary: string }) {
  const height = calendarHeight(days);
  const offset = days.length ? weekdayOf(days[0]!.date) : 0;
  return (
    <ChartFrame title={T.calendar} summary={summary} height={height} testId="plan-calendar">
      {(width) => {
        const size = Math.min(CELL, Math.floor((width - 6 * GAP) / 7));
        return (
          <Group>
            {T.weekdayNames.map((name, i) => (
              <text key={name} x={i * (size + GAP) + size / 2} y={12} textAnchor="middle" {...tickLabel()}>
                {name.slice(0, 3)}
              </text>
            ))}
            {days.map((d, i) => {
              const slot = offset + i;
              const x = (slot % 7) * (size + GAP);
              const y = HEAD + Math.floor(slot / 7) * (CELL + GAP);
              const dark = d.status === "fatto" || d.status === "parziale" || d.status === "oggi";
              return (
                <g key={d.date} data-date={d.date} data-status={d.status} data-exam={d.exam}>
                  <Bar
                    x={x}
                    y={y}
                    width={size}
                    height={CELL}
                    rx={6}
                    fill={STATUS_COLORS[d.status]}
                    stroke={d.exam ? "#ff9233" : d.paper ? "#8b8cff" : "none"}
                    strokeWidth={d.exam || d.paper ? 3 : 0}
                  />
                  <text
                    x={x + size / 2}
                    y={y + CELL / 2 + 4}
                    textAnchor="middle"
                    fontSize={12}
                    fontWeight={d.exam ? 800 : 500}
                    fill={dark ? "#141518" : "#e6e7ea"}
                  >
                    {Number(d.date.slice(8))}
                  </text>
                </g>
              );
            })}
          </Group>
        );
      }}
    </ChartFrame>
  );
}

const HEIGHT = 220;
const MARGIN = { top: 12, right: 14, bottom: 28, left: 40 };
const COLORS = ["#ff9233", "#8b8cff", "#4ade80", "#ffd166", "#ff6b6b"];

export type TrendLine = { subjectId: number; name: string; points: { date: string; p: number | null }[] };

export function PassTrendChart({ lines, summary }: { lines: TrendLine[]; summary: string }) {
  const series = lines.map((l, i) => ({
    ...l,
    color: COLORS[i % COLORS.length]!,
    points: l.points.flatMap((p) => (p.p == null ? [] : [{ at: Date.parse(`${p.date}T12:00:00Z`), p: p.p * 100 }])),
  }));
  const legend: LegendItem[] = series.map((s) => ({ label: s.name, color: s.color }));
  const times = series.flatMap((s) => s.points.map((p) => p.at));
  return (
    <ChartFrame title={T.trend} summary={summary} height={HEIGHT} legend={legend} testId="plan-trend">
      {(width) => {
        const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
        const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
        const min = times.length ? Math.min(...times) : Date.now();
        const max = times.length ? Math.max(...times) : min;
        const x = scaleTime({
          domain: [new Date(min), new Date(max === min ? min + 86_400_000 : max)],
          range: [0, innerW],
        });
        const y = scaleLinear({ domain: [0, 100], range: [innerH, 0] });
        return (
          <Group left={MARGIN.left} top={MARGIN.top}>
            <GridRows scale={y} width={innerW} tickValues={[0, 50, 100]} stroke="#3a3e47" strokeDasharray="2 4" />
            {series.map((s) =>
              s.points.length ? (
                <LinePath
                  key={s.subjectId}
                  data={s.points}
                  x={(p) => x(new Date(p.at))}
                  y={(p) => y(p.p)}
                  curve={curveMonotoneX}
                  stroke={s.color}
                  strokeWidth={2.5}
                  fill="none"
                />
              ) : null,
            )}
            <DayAxes x={x} y={y} innerH={innerH} width={width} yTicks={[0, 50, 100]} yFormat={(v) => `${v} %`} />
          </Group>
        );
      }}
    </ChartFrame>
  );
}
