import { formatClock } from "~/lib/timer";
import { T } from "./messages";

const R = 26;
const C = 2 * Math.PI * R;

/** Circular countdown 'Tempo residuo'; red in the last 10 seconds or 10 percent. */
export function Countdown({ remaining, total }: { remaining: number; total: number }) {
  const fraction = total > 0 ? Math.max(0, Math.min(1, remaining / total)) : 0;
  const low = remaining <= Math.max(10, total * 0.1);
  return (
    <div
      className={`countdown${low ? " countdown--low" : ""}`}
      role="timer"
      aria-label={`${T.remaining}: ${formatClock(remaining)}`}
    >
      <svg width="64" height="64" viewBox="0 0 64 64" aria-hidden="true">
        <circle className="countdown__track" cx="32" cy="32" r={R} fill="none" strokeWidth="6" />
        <circle
          className="countdown__bar"
          cx="32"
          cy="32"
          r={R}
          fill="none"
          strokeWidth="6"
          strokeLinecap="round"
          strokeDasharray={C}
          strokeDashoffset={C * (1 - fraction)}
        />
      </svg>
      <div>
        <div className="muted small">{T.remaining}</div>
        <div className="countdown__time" data-testid="countdown">
          {formatClock(remaining)}
        </div>
      </div>
    </div>
  );
}
