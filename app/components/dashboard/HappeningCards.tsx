// The dashboard's "what is happening" cards (issue 34): the live or next simulation the student is in, and a Quiz
// Rush event that is live or opens within 24 hours. Nothing is rendered when there is neither.
import { Link } from "react-router";
import { MY_SIM_TEXT as T } from "~/components/simulation-lists/texts";
import { SittingEnd } from "~/components/simulation-lists/SittingEnd";
import { TimeLeft } from "~/components/simulation-lists/TimeLeft";
import { type MySimulation, simulationHref } from "~/lib/my-simulations";
import { formatRomeDateTime } from "~/lib/rush";
import { useServerNow } from "~/lib/use-server-now";
import type { RushHeadsUp } from "~/server/rush.server";

export type Happening = { now: number; simulation: MySimulation | null; rush: RushHeadsUp | null };

export function HappeningCards({ happening }: { happening: Happening }) {
  const now = useServerNow(happening.now);
  const { simulation, rush } = happening;
  const rushShown = rush != null && now < rush.event.endsAt;
  if (!simulation && !rushShown) return null;
  return (
    <section className="happening" aria-label={T.happening} data-testid="happening">
      {simulation ? <SimulationCard sim={simulation} now={now} /> : null}
      {rush && rushShown ? <RushCard rush={rush} now={now} /> : null}
    </section>
  );
}

function SimulationCard({ sim, now }: { sim: MySimulation; now: number }) {
  const live = sim.stage === "live" || (sim.startTime != null && now >= sim.startTime);
  return (
    <article className="happening__card" aria-labelledby="happening-sim" data-testid="happening-simulation">
      <p className="happening__kicker">
        {T.simulationCard} · {live ? T.live : T.upcoming}
      </p>
      <h2 id="happening-sim" className="happening__title">
        {sim.title}
      </h2>
      {sim.startTime == null ? (
        <p className="small muted">{T.waitingTeacher}</p>
      ) : live ? (
        <p className="small muted">
          {T.startedAt} {formatRomeDateTime(sim.startTime)} {T.romeTime} · <SittingEnd sim={sim} now={now} />
        </p>
      ) : (
        <>
          <p className="small muted">
            {T.startsAt}: {formatRomeDateTime(sim.startTime)} {T.romeTime} ·{" "}
            <TimeLeft target={sim.startTime} now={now} label={T.startsIn} />
          </p>
          {sim.endsAt != null ? (
            <p className="small muted">
              <SittingEnd sim={sim} now={now} />
            </p>
          ) : null}
        </>
      )}
      <div className="happening__actions">
        <Link className="btn btn--primary" to={simulationHref(sim.id)}>
          {T.enter}
        </Link>
        <Link to="/simulazioni">{T.allSimulations}</Link>
      </div>
    </article>
  );
}

function RushCard({ rush, now }: { rush: RushHeadsUp; now: number }) {
  const { event } = rush;
  const live = now >= event.startsAt;
  return (
    <article className="happening__card" aria-labelledby="happening-rush" data-testid="happening-rush">
      <p className="happening__kicker">
        {T.rushCard} · {live ? T.rushLive : T.rushSoon}
      </p>
      <h2 id="happening-rush" className="happening__title">
        {event.title}
      </h2>
      <p className="small muted">
        {T.rushWindow(formatRomeDateTime(event.startsAt), formatRomeDateTime(event.endsAt))} ·{" "}
        {live ? (
          <TimeLeft target={event.endsAt} now={now} label={T.endsIn} />
        ) : (
          <TimeLeft target={event.startsAt} now={now} label={T.startsIn} />
        )}
      </p>
      <p className="small">
        {T.rushOpen}: {rush.openSubjects.map((s) => s.name).join(", ")}
      </p>
      <div className="happening__actions">
        <Link className="btn btn--primary" to="/rush">
          {T.rushGo}
        </Link>
      </div>
    </article>
  );
}
