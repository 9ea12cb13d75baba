import { isCountdownCritical } from "~/lib/simulation";
import { T } from "./texts";

export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, "0");
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Circular countdown: red when the remaining time is at most max(10 s, 10 % of the subject time). */
export function CircularCountdown({
  remainingMs,
  totalMs,
  label = T.timeLeft,
}: {
  remainingMs: number;
  totalMs: number;
  label?: string;
}) {
  const r = 52;
  const c = 2 * Math.PI * r;
  const fraction = totalMs > 0 ? Math.min(1, Math.max(0, remainingMs / totalMs)) : 0;
  const critical = isCountdownCritical(remainingMs, totalMs);
  return (
    <div className={`sim-countdown${critical ? " sim-countdown--critical" : ""}`} data-critical={critical}>
      <svg viewBox="0 0 120 120" width="120" height="120" aria-hidden="true">
        <circle cx="60" cy="60" r={r} className="sim-countdown__track" />
        <circle
          cx="60"
          cy="60"
          r={r}
          className="sim-countdown__bar"
          strokeDasharray={c}
          strokeDashoffset={c * (1 - fraction)}
          transform="rotate(-90 60 60)"
        />
      </svg>
      <div className="sim-countdown__text">
        <span
          className="sim-countdown__time"
          role="timer"
          aria-label={`${label}: ${formatClock(remainingMs)}`}
          data-testid="sim-countdown"
        >
          {formatClock(remainingMs)}
        </span>
        <span className="sim-countdown__label">{label}</span>
      </div>
    </div>
  );
}
