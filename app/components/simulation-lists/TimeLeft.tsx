import { formatCountdown } from "~/lib/rush";

/** 'days g HH:MM:SS' until `target`, from server time `now` (the caller ticks it: useServerNow). */
export function TimeLeft({ target, now, label }: { target: number; now: number; label: string }) {
  return (
    <span className="time-left">
      {label}{" "}
      <time className="time-left__value" dateTime={`PT${Math.max(0, Math.floor((target - now) / 1000))}S`}>
        {formatCountdown(target - now)}
      </time>
    </span>
  );
}
