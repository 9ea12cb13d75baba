// 'Accuratezza per argomento': per topic, horizontal bars for you, the friend and the site (0-100%),
// with the topic label above its bars (cut to 24 characters), readable at 375 px.
import { Group } from "@visx/group";
import { scaleLinear } from "@visx/scale";
import { Bar, Line } from "@visx/shape";
import { truncateLabel } from "~/lib/analytics";
import { WEAK_TOPIC_THRESHOLD } from "~/lib/constants";
import { ChartFrame, type LegendItem } from "./ChartFrame";

export type TopicRow = {
  topicId: number;
  name: string;
  values: { key: string; value: number | null; color: string }[];
};

const BAR = 10;
const GAP = 3;
const LABEL = 18;
const ROW_GAP = 12;
const MARGIN = { top: 4, right: 44, bottom: 4, left: 4 };

export function TopicBars({ rows, legend, summary }: { rows: TopicRow[]; legend: LegendItem[]; summary: string }) {
  const series = rows[0]?.values.length ?? 1;
  const rowHeight = LABEL + series * (BAR + GAP) + ROW_GAP;
  const height = MARGIN.top + MARGIN.bottom + rows.length * rowHeight;
  return (
    <ChartFrame
      title="Accuratezza per argomento"
      summary={summary}
      height={height}
      legend={legend}
      testId="chart-topics"
    >
      {(width) => {
        const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
        const x = scaleLinear({ domain: [0, 100], range: [0, innerW] });
        return (
          <Group left={MARGIN.left} top={MARGIN.top}>
            <Line
              from={{ x: x(WEAK_TOPIC_THRESHOLD * 100), y: 0 }}
              to={{ x: x(WEAK_TOPIC_THRESHOLD * 100), y: rows.length * rowHeight }}
              stroke="#3a3e47"
              strokeDasharray="3 3"
            />
            {rows.map((row, i) => (
              <g key={row.topicId} transform={`translate(0, ${i * rowHeight})`}>
                <text y={12} fill="#e6e7ea" fontSize={12}>
                  {truncateLabel(row.name)}
                </text>
                {row.values.map((v, j) => {
                  const w = v.value == null ? 0 : x(v.value);
                  const yy = LABEL + j * (BAR + GAP);
                  return (
                    <g key={v.key}>
                      <Bar
                        className="chart-hbar"
                        data-bar={v.key}
                        x={0}
                        y={yy}
                        width={Math.max(w, v.value == null ? 0 : 2)}
                        height={BAR}
                        rx={3}
                        fill={v.color}
                      />
                      <text x={w + 4} y={yy + BAR - 1} fill="#a9adb7" fontSize={10}>
                        {v.value == null ? "—" : `${Math.round(v.value)}%`}
                      </text>
                    </g>
                  );
                })}
              </g>
            ))}
          </Group>
        );
      }}
    </ChartFrame>
  );
}
