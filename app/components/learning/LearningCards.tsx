// The dashboard's learning cards: how many questions are due today and the score forecast per subject.
import { formatDecimal } from "~/lib/format";
import { Link } from "react-router";
import { SCORE_SCALE } from "~/lib/constants";
import { FORECAST_MIN_ANSWERS } from "~/lib/forecast";
import type { SectionForecast, SubjectForecast } from "~/server/learning-advice.server";
import { L } from "./messages";

/** A subject's forecast as the server computes it (type-only import). */
export type ForecastRow = SubjectForecast;

const fmt = (n: number) => formatDecimal(n, 1, 1);

const percent = (p: number) => Math.round(p * 100);

export function LearningCards({
  dueCount,
  forecast,
  section,
}: {
  dueCount: number;
  forecast: ForecastRow[];
  section?: SectionForecast | null;
}) {
  return (
    <div className="learn">
      <section className="mini learn__review" aria-labelledby="learn-review">
        <h2 id="learn-review" className="mini__title">
          {L.reviewOfTheDay}
        </h2>
        <p className="mini__value" data-testid="review-of-the-day">
          {L.reviewCount(dueCount)}
        </p>
        {dueCount > 0 ? (
          <Link className="btn btn--small" to="/ripasso/errori">
            {L.reviewGo}
          </Link>
        ) : (
          <p className="small muted">{L.reviewNone}</p>
        )}
      </section>
      <section className="panel learn__forecast" aria-labelledby="learn-forecast" data-testid="forecast">
        <h2 id="learn-forecast" className="panel__title">
          {L.forecastTitle}
        </h2>
        <ul className="learn__list">
          {forecast.map((s) => (
            <li key={s.subjectId}>
              <strong>{s.name}</strong>
              {s.predicted != null && s.low != null && s.high != null ? (
                <span>
                  <span className="learn__score">
                    {fmt(s.predicted)} <span className="small muted">/ {SCORE_SCALE}</span>
                  </span>{" "}
                  <span className="small muted">
                    {L.forecastRange(fmt(s.low), fmt(s.high))} · {L.forecastOn(s.answers)}
                  </span>
                  {s.passProbability != null ? (
                    <span className="small learn__pass" data-testid={`pass-${s.subjectId}`}>
                      {" "}
                      · {L.forecastPass(percent(s.passProbability))}
                    </span>
                  ) : null}
                </span>
              ) : (
                <span className="small muted">{L.forecastNeedMore(s.answers, FORECAST_MIN_ANSWERS)}</span>
              )}
            </li>
          ))}
        </ul>
        {section ? (
          <p className="learn__section" data-testid="forecast-section">
            {L.forecastSection(section.section, percent(section.probability))}
          </p>
        ) : null}
        <p className="small muted learn__explain">{L.forecastExplain}</p>
      </section>
    </div>
  );
}
