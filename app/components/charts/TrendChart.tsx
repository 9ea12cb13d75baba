// 'Andamento simulazioni': the student's scores over time (0-31), the friend's in the peer colour,
// and the site's daily average as a dashed line.
import { curveMonotoneX } from "@visx/curve";
import { GridRows } from "@visx/grid";
import { Group } from "@visx/group";
import { scaleLinear, scaleTime } from "@visx/scale";
import { LinePath } from "@visx/shape";
import { SCORE_SCALE } from "~/lib/constants";
import { ChartFrame, type LegendItem } from "./ChartFrame";
import { DayAxes } from "./DayAxes";

export type TrendSeries = {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
  points: { date: number; score: number }[];
};

const HEIGHT = 240;
const MARGIN = { top: 12, right: 14, bottom: 28, left: 34 };

export function TrendChart({ series, summary }: { series: TrendSeries[]; summary: string }) {
  const all = series.flatMap((s) => s.points);
  const legend: LegendItem[] = series
    .filter((s) => s.points.length)
    .map((s) => ({ label: s.label, color: s.color, dashed: s.dashed }));
  return (
    <ChartFrame title="Andamento simulazioni" summary={summary} height={HEIGHT} legend={legend} testId="chart-trend">
      {(width) => {
        const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
        const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
        const times = all.map((p) => p.date);
        const min = Math.min(...times);
        const max = Math.max(...times);
        const x = scaleTime({
          domain: [new Date(min), new Date(max === min ? min + 86_400_000 : max)],
          range: [0, innerW],
        });
        const y = scaleLinear({ domain: [0, SCORE_SCALE], range: [innerH, 0] });
        return (
          <Group left={MARGIN.left} top={MARGIN.top}>
            <GridRows scale={y} width={innerW} tickValues={[0, 10, 20, 31]} stroke="#3a3e47" strokeDasharray="2 4" />
            {series.map((s) =>
              s.points.length ? (
                <g key={s.key}>
                  <LinePath
                    className={`chart-line${s.dashed ? " chart-line--dashed" : ""}`}
                    data-series={s.key}
                    data={s.points}
                    x={(p) => x(new Date(p.date))}
                    y={(p) => y(p.score)}
                    curve={curveMonotoneX}
                    stroke={s.color}
                    strokeWidth={s.dashed ? 1.5 : 2.5}
                    strokeDasharray={s.dashed ? "5 4" : undefined}
                    pathLength={s.dashed ? undefined : 1}
                    fill="none"
                  />
                  {s.dashed
                    ? null
                    : s.points.map((p, i) => (
                        <circle
                          key={i}
                          className="chart-dot"
                          cx={x(new Date(p.date))}
                          cy={y(p.score)}
                          r={3.5}
                          fill={s.color}
                        />
                      ))}
                </g>
              ) : null,
            )}
            <DayAxes x={x} y={y} innerH={innerH} width={width} yTicks={[0, 10, 20, 31]} />
          </Group>
        );
      }}
    </ChartFrame>
  );
}
