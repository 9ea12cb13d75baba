// What the dashboard's lazily loaded chart chunk holds (see charts.tsx).
export { BarChart } from "~/components/charts/BarChart";
export { DistributionChart } from "~/components/charts/DistributionChart";
export { TopicBars } from "~/components/charts/TopicBars";
export { TrendChart } from "~/components/charts/TrendChart";
