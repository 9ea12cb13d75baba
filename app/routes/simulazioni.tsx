// /simulazioni: the simulations a student is in (issue 34): live now (Entra), upcoming (start and countdown, or
// waiting for the teacher's Avvia), past (score, position, the result). Every time shown is the server's.
import { useEffect } from "react";
import { Link, useLoaderData, useRevalidator } from "react-router";
import { MY_SIM_TEXT as T } from "~/components/simulation-lists/texts";
import { SittingEnd } from "~/components/simulation-lists/SittingEnd";
import { TimeLeft } from "~/components/simulation-lists/TimeLeft";
import { SCORE_SCALE } from "~/lib/constants";
import { formatDecimal } from "~/lib/format";
import { type MySimulation, simulationHref, simulationResultHref } from "~/lib/my-simulations";
import { formatRomeDateTime } from "~/lib/rush";
import { SOLO_TEXT } from "~/lib/solo-day";
import { SOLO_DAY_HREF } from "~/lib/study-plan-view";
import { useServerNow } from "~/lib/use-server-now";
import { dbOf } from "~/server/context";
import { requirePageUser } from "~/server/page-guard.server";
import { mySimulations, nextOfficialSitting } from "~/server/simulation/mine.server";
import "~/styles/simulations.css";
import type { Route } from "./+types/simulazioni";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const now = Date.now();
  const db = dbOf(args.context);
  const [lists, officialSitting] = await Promise.all([mySimulations(db, user.id, now), nextOfficialSitting(db, now)]);
  return { now, ...lists, officialSitting };
}

export function meta() {
  return [{ title: "Unicum" }];
}

export default function Simulazioni() {
  const data = useLoaderData<typeof loader>();
  const { live, upcoming, past, officialSitting } = data;
  const now = useServerNow(data.now);
  const revalidator = useRevalidator();

  // A start or an end passing while the page is open moves a simulation to its next list: ask the server again.
  const boundary = Math.min(
    ...upcoming.flatMap((s) => (s.startTime != null ? [s.startTime] : [])),
    // A live simulation is over for the student at THEIR end (later with extra time).
    ...live.flatMap((s) => (s.myEndsAt != null ? [s.myEndsAt] : [])),
  );
  const crossed = now >= boundary;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per loader answer (data.now changes with each), not per revalidator state
  useEffect(() => {
    if (crossed && revalidator.state === "idle") void revalidator.revalidate();
  }, [crossed, data.now]);

  const nothing = !live.length && !upcoming.length && !past.length;
  return (
    <section className="page my-sims">
      <h1 className="page__title">{T.title}</h1>
      <p className="muted">{T.intro}</p>

      {officialSitting ? (
        <section className="my-sims__section" aria-labelledby="official-title">
          <h2 id="official-title" className="my-sims__h2">
            {T.officialTitle}
          </h2>
          <div className="my-sim">
            <p className="my-sim__title">{officialSitting.title}</p>
            <p className="small">
              {T.startsAt}: {formatRomeDateTime(officialSitting.startsAt)} {T.romeTime} ·{" "}
              <TimeLeft target={officialSitting.startsAt} now={now} label={T.startsIn} />
            </p>
          </div>
        </section>
      ) : null}

      <section className="my-sims__section" aria-labelledby="solo-day-title">
        <h2 id="solo-day-title" className="my-sims__h2">
          {SOLO_TEXT.openDay}
        </h2>
        <div className="my-sim">
          <p className="my-sim__body small">{SOLO_TEXT.openDayHint}</p>
          <Link className="btn btn--primary my-sim__action" to={SOLO_DAY_HREF} data-testid="solo-day-link">
            {SOLO_TEXT.openDayGo}
          </Link>
        </div>
      </section>

      {nothing ? (
        <p className="alert" role="status">
          {T.none}
        </p>
      ) : (
        <>
          <SimulationList id="live" title={T.live} empty={T.noLive} items={live} now={now} />
          <SimulationList id="upcoming" title={T.upcoming} empty={T.noUpcoming} items={upcoming} now={now} />
          <SimulationList id="past" title={T.past} empty={T.noPast} items={past} now={now} />
        </>
      )}
    </section>
  );
}

function SimulationList({
  id,
  title,
  empty,
  items,
  now,
}: {
  id: string;
  title: string;
  empty: string;
  items: MySimulation[];
  now: number;
}) {
  return (
    <section className="my-sims__section" aria-labelledby={`sims-${id}`} data-testid={`sims-${id}`}>
      <h2 id={`sims-${id}`} className="my-sims__h2">
        {title}
      </h2>
      {items.length ? (
        <ul className="my-sims__list">
          {items.map((sim) => (
            <li key={sim.id} className="my-sim" data-testid={`my-sim-${sim.id}`}>
              <SimulationItem sim={sim} now={now} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{empty}</p>
      )}
    </section>
  );
}

function SimulationItem({ sim, now }: { sim: MySimulation; now: number }) {
  const enter = (
    <Link className="btn btn--primary my-sim__action" to={simulationHref(sim.id)}>
      {T.enter}
    </Link>
  );
  if (sim.stage === "live") {
    return (
      <>
        <div className="my-sim__body">
          <h3 className="my-sim__title">{sim.title}</h3>
          <p className="small muted">
            {T.startedAt} {formatRomeDateTime(sim.startTime!)} {T.romeTime}
            {sim.endsAt != null ? (
              <>
                {" · "}
                <SittingEnd sim={sim} now={now} />
              </>
            ) : null}
          </p>
        </div>
        {enter}
      </>
    );
  }
  if (sim.stage === "upcoming") {
    return (
      <>
        <div className="my-sim__body">
          <h3 className="my-sim__title">{sim.title}</h3>
          {sim.startTime != null ? (
            <>
              <p className="small muted">
                {T.startsAt}: {formatRomeDateTime(sim.startTime)} {T.romeTime} ·{" "}
                <TimeLeft target={sim.startTime} now={now} label={T.startsIn} />
              </p>
              <p className="small muted">
                <SittingEnd sim={sim} now={now} />
              </p>
            </>
          ) : (
            <p className="small muted">
              {T.waitingTeacher}. {T.waitingHint}
            </p>
          )}
        </div>
        {enter}
      </>
    );
  }
  const r = sim.result;
  return (
    <>
      <div className="my-sim__body">
        <h3 className="my-sim__title">{sim.title}</h3>
        <p className="small muted">
          {sim.startTime != null ? `${formatRomeDateTime(sim.startTime)} ${T.romeTime}` : null}
        </p>
        {r ? (
          <p className="my-sim__result">
            {sim.edition ? (
              <span>
                {T.rankingScore}: <strong>{formatDecimal(r.score, 1)}</strong>
              </span>
            ) : (
              <span>
                {T.score}: <strong>{formatDecimal(r.score, 1)}</strong> / {SCORE_SCALE}
              </span>
            )}
            <span>
              {T.position}: <strong>{T.positionOf(r.position, r.participants)}</strong>
            </span>
          </p>
        ) : (
          <p className="small">{T.notSat}</p>
        )}
      </div>
      {r ? (
        <Link className="btn my-sim__action" to={simulationResultHref(sim.id, r.attemptId)}>
          {T.result}
        </Link>
      ) : null}
    </>
  );
}
