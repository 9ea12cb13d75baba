// 'Distribuzione punteggi (tutti)': the site histogram 0-31 as an area, with vertical lines for
// the percentiles (Top 20% = p80, p90) and the student's mean.
import { AxisBottom } from "@visx/axis";
import { curveMonotoneX } from "@visx/curve";
import { LinearGradient } from "@visx/gradient";
import { Group } from "@visx/group";
import { scaleLinear } from "@visx/scale";
import { AreaClosed, Line, LinePath } from "@visx/shape";
import { SCORE_SCALE } from "~/lib/constants";
import type { HistogramBin } from "~/lib/analytics";
import { ChartFrame, tickLabel } from "./ChartFrame";

export type Marker = { key: string; label: string; value: number; color: string };

const HEIGHT = 220;
const MARGIN = { top: 34, right: 14, bottom: 28, left: 14 };

/**
 * Display-only smoothing: attempts of 10, 20 or 31 questions hit only some of the 32 scores, so the
 * raw histogram is a comb. A small kernel (1-2-3-2-1) shows the shape; percentiles stay exact.
 */
export function smoothBins(bins: HistogramBin[]): HistogramBin[] {
  const weights = [1, 2, 3, 2, 1];
  return bins.map((bin, i) => {
    let sum = 0;
    let w = 0;
    weights.forEach((k, j) => {
      const other = bins[i + j - 2];
      if (other) {
        sum += other.count * k;
        w += k;
      }
    });
    return { score: bin.score, count: sum / w };
  });
}

export function DistributionChart({
  bins: raw,
  markers,
  summary,
}: {
  bins: HistogramBin[];
  markers: Marker[];
  summary: string;
}) {
  const bins = smoothBins(raw);
  return (
    <ChartFrame
      title="Distribuzione punteggi (tutti)"
      summary={summary}
      height={HEIGHT}
      legend={markers.map((m) => ({ label: m.label, color: m.color }))}
      testId="chart-distribution"
    >
      {(width) => {
        const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
        const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
        const x = scaleLinear({ domain: [0, SCORE_SCALE], range: [0, innerW] });
        const y = scaleLinear({
          domain: [0, Math.max(1, ...bins.map((b) => b.count))],
          range: [innerH, 0],
          nice: true,
        });
        return (
          <Group left={MARGIN.left} top={MARGIN.top}>
            <LinearGradient id="dist-fill" from="#ff9233" to="#ff9233" fromOpacity={0.55} toOpacity={0.05} />
            <g className="chart-area">
              <AreaClosed
                data={bins}
                x={(b) => x(b.score)}
                y={(b) => y(b.count)}
                yScale={y}
                curve={curveMonotoneX}
                fill="url(#dist-fill)"
              />
              <LinePath
                data={bins}
                x={(b) => x(b.score)}
                y={(b) => y(b.count)}
                curve={curveMonotoneX}
                stroke="#ff9233"
                strokeWidth={2}
                fill="none"
              />
            </g>
            {markers.map((m, i) => (
              <g key={m.key} className="chart-marker" data-marker={m.key}>
                <Line
                  from={{ x: x(m.value), y: 0 }}
                  to={{ x: x(m.value), y: innerH }}
                  stroke={m.color}
                  strokeWidth={2}
                  strokeDasharray="4 3"
                />
                <text
                  x={x(m.value)}
                  y={-6 - (i % 2) * 14}
                  textAnchor={x(m.value) > innerW - 30 ? "end" : x(m.value) < 30 ? "start" : "middle"}
                  fill={m.color}
                  fontSize={11}
                >
                  {m.label}
                </text>
              </g>
            ))}
            <AxisBottom
              top={innerH}
              scale={x}
              tickValues={[0, 5, 10, 15, 20, 25, 31]}
              stroke="#3a3e47"
              tickStroke="#3a3e47"
              tickLabelProps={tickLabel}
            />
          </Group>
        );
      }}
    </ChartFrame>
  );
}
