import { elapsedPercent, formatCountdown, RUSH_TEXT } from "~/lib/rush";

/** 'Tempo rimanente Quiz Rush': remaining time (days g HH:MM:SS) and share of the window elapsed. */
export function CountdownCard({ event, now }: { event: { startsAt: number; endsAt: number } | null; now: number }) {
  const active = event != null && now >= event.startsAt && now < event.endsAt;
  const percent = active ? elapsedPercent(event.startsAt, event.endsAt, now) : 0;
  return (
    <section className="rush-card rush-countdown" aria-labelledby="rush-countdown-title">
      <h2 id="rush-countdown-title" className="rush-card__title">
        {RUSH_TEXT.countdownTitle}
      </h2>
      {active ? (
        <>
          <p className="rush-countdown__time" role="timer" aria-live="off" data-testid="rush-countdown">
            {formatCountdown(event.endsAt - now)}
          </p>
          <div
            className="rush-bar"
            role="progressbar"
            aria-label="Tempo trascorso dell'evento"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span className="rush-bar__fill" style={{ width: `${percent}%` }} />
          </div>
          <p className="muted small rush-countdown__percent">{percent}% trascorso</p>
        </>
      ) : (
        <p className="rush-countdown__none">{RUSH_TEXT.noEvent}</p>
      )}
    </section>
  );
}
