// 'Confronta la media': one vertical bar per figure (your mean, the friend's, site mean, Top 20%).
import { formatDecimal } from "~/lib/format";
import { AxisBottom } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { ChartFrame } from "./ChartFrame";

export type BarItem = { key: string; label: string; value: number | null; color: string };

const HEIGHT = 220;
const MARGIN = { top: 22, right: 8, bottom: 30, left: 8 };
const fmt = (n: number) => formatDecimal(n, 1);

export function BarChart({
  title,
  items,
  max,
  summary,
  testId,
}: {
  title: string;
  items: BarItem[];
  max: number;
  summary: string;
  testId: string;
}) {
  return (
    <ChartFrame title={title} summary={summary} height={HEIGHT} testId={testId}>
      {(width) => {
        const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
        const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
        const x = scaleBand({ domain: items.map((i) => i.key), range: [0, innerW], padding: 0.3 });
        const y = scaleLinear({ domain: [0, max], range: [innerH, 0] });
        const labels = new Map(items.map((i) => [i.key, i.label]));
        return (
          <Group left={MARGIN.left} top={MARGIN.top}>
            {items.map((item) => {
              const value = item.value ?? 0;
              const barX = x(item.key) ?? 0;
              return (
                <g key={item.key}>
                  <Bar
                    className="chart-bar"
                    data-bar={item.key}
                    x={barX}
                    y={y(value)}
                    width={x.bandwidth()}
                    height={innerH - y(value)}
                    fill={item.color}
                    rx={4}
                  />
                  <text
                    x={barX + x.bandwidth() / 2}
                    y={y(value) - 6}
                    textAnchor="middle"
                    fill="#e6e7ea"
                    fontSize={12}
                    fontWeight={600}
                  >
                    {item.value == null ? "—" : fmt(item.value)}
                  </text>
                </g>
              );
            })}
            <AxisBottom
              top={innerH}
              scale={x}
              tickFormat={(k) => labels.get(k as string) ?? ""}
              stroke="#3a3e47"
              hideTicks
              tickLabelProps={() => ({
                fill: "#a9adb7",
                fontSize: width < 420 ? 10 : 12,
                textAnchor: "middle",
                fontFamily: "inherit",
              })}
            />
          </Group>
        );
      }}
    </ChartFrame>
  );
}
