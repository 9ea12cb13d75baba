// The dashboard's four charts, loaded in their own chunk after the page is interactive: visx and the d3
// modules under it are most of the dashboard's JavaScript, and a chart draws nothing before it is measured
// in the browser anyway. Until the chunk arrives each chart keeps its place (same height), so nothing moves.
import { lazy, Suspense, type ComponentProps, type ComponentType } from "react";

const load = () => import("./charts.impl");

function lazyChart<K extends "TrendChart" | "DistributionChart" | "BarChart" | "TopicBars">(name: K) {
  return lazy(() =>
    load().then((m) => ({ default: m[name] as ComponentType<ComponentProps<typeof import("./charts.impl")[K]>> })),
  );
}

const LazyTrend = lazyChart("TrendChart");
const LazyDistribution = lazyChart("DistributionChart");
const LazyBar = lazyChart("BarChart");
const LazyTopics = lazyChart("TopicBars");

function Slot({ height, children }: { height: number; children: React.ReactNode }) {
  return (
    <Suspense fallback={<div className="chart chart--pending" style={{ minHeight: height }} aria-hidden="true" />}>
      {children}
    </Suspense>
  );
}

type Props<K extends keyof typeof import("./charts.impl")> = ComponentProps<typeof import("./charts.impl")[K]>;

export const TrendChart = (props: Props<"TrendChart">) => (
  <Slot height={240}>
    <LazyTrend {...props} />
  </Slot>
);
export const DistributionChart = (props: Props<"DistributionChart">) => (
  <Slot height={220}>
    <LazyDistribution {...props} />
  </Slot>
);
export const BarChart = (props: Props<"BarChart">) => (
  <Slot height={220}>
    <LazyBar {...props} />
  </Slot>
);
export const TopicBars = (props: Props<"TopicBars">) => (
  <Slot height={8 + props.rows.length * (30 + 13 * (props.rows[0]?.values.length ?? 1))}>
    <LazyTopics {...props} />
  </Slot>
);
