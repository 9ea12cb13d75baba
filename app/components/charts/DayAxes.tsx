// The axes of a chart over days (the dashboard's trend, /piano's forecast): a value axis with the caller's ticks and
// a day axis ("12 nov") in Italy's calendar, fewer ticks on a narrow screen.
import { AxisBottom, AxisLeft } from "@visx/axis";
import type { scaleLinear, scaleTime } from "@visx/scale";
import { TIME_ZONE } from "~/lib/constants";
import { tickLabel } from "./ChartFrame";

let dayFormat: Intl.DateTimeFormat | undefined;
/** Made at first use, not at load (a formatter with a time zone costs a phone's main thread before hydration). */
const formatDay = (d: Date) =>
  (dayFormat ??= new Intl.DateTimeFormat("it-IT", { day: "numeric", month: "short", timeZone: TIME_ZONE })).format(d);

export function DayAxes(props: {
  x: ReturnType<typeof scaleTime<number>>;
  y: ReturnType<typeof scaleLinear<number>>;
  innerH: number;
  width: number;
  yTicks: number[];
  yFormat?: (value: number) => string;
}) {
  return (
    <>
      <AxisLeft
        scale={props.y}
        tickValues={props.yTicks}
        {...(props.yFormat ? { tickFormat: (v) => props.yFormat!(Number(v)) } : {})}
        stroke="#3a3e47"
        tickStroke="#3a3e47"
        tickLabelProps={tickLabel}
      />
      <AxisBottom
        top={props.innerH}
        scale={props.x}
        numTicks={props.width < 480 ? 3 : 6}
        tickFormat={(d) => formatDay(d as Date)}
        stroke="#3a3e47"
        tickStroke="#3a3e47"
        tickLabelProps={tickLabel}
      />
    </>
  );
}
