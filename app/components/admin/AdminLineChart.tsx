// A small responsive line chart (visx) for the Analytics tab.
import { AxisBottom, AxisLeft } from "@visx/axis";
import { curveMonotoneX } from "@visx/curve";
import { GridRows } from "@visx/grid";
import { Group } from "@visx/group";
import { ParentSize } from "@visx/responsive";
import { scaleLinear, scalePoint } from "@visx/scale";
import { Circle, LinePath } from "@visx/shape";

export type Series = { label: string; color: string; values: number[] };

type Props = {
  /** One label per x position (dates or numbers as text). */
  xLabels: string[];
  series: Series[];
  ariaLabel: string;
  /** Index of x to highlight (the slider value). */
  highlight?: number;
  height?: number;
  tickEvery?: number;
};

const MARGIN = { top: 12, right: 16, bottom: 36, left: 44 };

function Chart({ width, xLabels, series, ariaLabel, highlight, height = 240, tickEvery }: Props & { width: number }) {
  const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const x = scalePoint<string>({ domain: xLabels, range: [0, innerW] });
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const y = scaleLinear<number>({ domain: [0, max], range: [innerH, 0], nice: true });
  const step = tickEvery ?? Math.max(1, Math.ceil(xLabels.length / Math.max(2, Math.floor(innerW / 70))));
  return (
    <svg width={width} height={height} role="img" aria-label={ariaLabel}>
      <Group left={MARGIN.left} top={MARGIN.top}>
        <GridRows scale={y} width={innerW} numTicks={4} stroke="var(--border)" strokeOpacity={0.6} />
        {series.map((s) => (
          <LinePath
            key={s.label}
            data={s.values}
            x={(_, i) => x(xLabels[i]!) ?? 0}
            y={(d) => y(d)}
            stroke={s.color}
            strokeWidth={2}
            curve={curveMonotoneX}
          />
        ))}
        {highlight !== undefined && xLabels[highlight] !== undefined
          ? series.map((s) => (
              <Circle
                key={s.label}
                cx={x(xLabels[highlight]!) ?? 0}
                cy={y(s.values[highlight] ?? 0)}
                r={5}
                fill={s.color}
                stroke="var(--bg)"
                strokeWidth={2}
              />
            ))
          : null}
        <AxisLeft
          scale={y}
          numTicks={4}
          stroke="var(--border)"
          tickStroke="var(--border)"
          tickLabelProps={{ fill: "var(--muted)", fontSize: 11, textAnchor: "end", dx: -4, dy: 3 }}
        />
        <AxisBottom
          top={innerH}
          scale={x}
          stroke="var(--border)"
          tickStroke="var(--border)"
          tickValues={xLabels.filter((_, i) => i % step === 0)}
          tickLabelProps={{ fill: "var(--muted)", fontSize: 11, textAnchor: "middle" }}
        />
      </Group>
    </svg>
  );
}

export function AdminLineChart(props: Props) {
  return (
    <div className="adm-chart" style={{ height: props.height ?? 240 }}>
      <ParentSize debounceTime={50}>
        {({ width }) => (width > 0 ? <Chart {...props} width={width} /> : null)}
      </ParentSize>
    </div>
  );
}
