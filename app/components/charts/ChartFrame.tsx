// Shared frame for the dashboard charts: measures its width (visx ParentSize), gives the SVG an
// accessible name and a text summary, and a legend. Charts render only once measured (client side).
import { ParentSize } from "@visx/responsive";
import { useId } from "react";
import { CHART_ANIMATION_MS } from "~/lib/constants";
import "~/styles/charts.css";

export type LegendItem = { label: string; color: string; dashed?: boolean };

export function ChartFrame(props: {
  title: string;
  /** One sentence a screen reader hears instead of the picture. */
  summary: string;
  height: number;
  legend?: LegendItem[];
  testId: string;
  children: (width: number) => React.ReactNode;
}) {
  const descId = useId();
  return (
    <figure
      className="chart"
      data-testid={props.testId}
      style={{ ["--chart-ms" as string]: `${CHART_ANIMATION_MS}ms` }}
    >
      <div className="chart__canvas" style={{ height: props.height }}>
        <ParentSize debounceTime={50}>
          {({ width }) =>
            width > 0 ? (
              <svg width={width} height={props.height} role="img" aria-label={props.title} aria-describedby={descId}>
                {props.children(width)}
              </svg>
            ) : null
          }
        </ParentSize>
      </div>
      <figcaption id={descId} className="visually-hidden">
        {props.summary}
      </figcaption>
      {props.legend?.length ? (
        <ul className="chart__legend" aria-hidden="true">
          {props.legend.map((item) => (
            <li key={item.label}>
              <span
                className={`chart__swatch${item.dashed ? " chart__swatch--dashed" : ""}`}
                style={{ background: item.dashed ? undefined : item.color, borderColor: item.color }}
              />
              {item.label}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}

export const axisColor = "var(--muted)";
export const tickLabel = () => ({ fill: "#a9adb7", fontSize: 11, fontFamily: "inherit" });
