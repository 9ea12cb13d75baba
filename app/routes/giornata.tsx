// /giornata (issue 46, point 2): the exam day alone. The default edition's day as the student would sit it (its papers
// in order with their minutes, the breaks, their own extra time), one button that starts it (or resumes the one
// running), and the past days with their section. The same services as GET/POST /api/me/exam-days.
import { useState } from "react";
import { Link, type ShouldRevalidateFunctionArgs, useLoaderData, useNavigate } from "react-router";
import { soloDayStartSchema } from "~/lib/forms/solo-day";
import { formError } from "~/lib/forms";
import { simulationHref, simulationResultHref } from "~/lib/my-simulations";
import { formatRomeDateTime } from "~/lib/rush";
import { SOLO_TEXT as T } from "~/lib/solo-day";
import { useFormAction } from "~/lib/use-form-action";
import { dbOf, getEnv } from "~/server/context";
import { handleJson } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import { soloDayPage, startSoloDay } from "~/server/simulation/solo.server";
import "~/styles/simulations.css";
import type { Route } from "./+types/giornata";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  return soloDayPage(dbOf(args.context), user.id);
}

export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const env = getEnv(args.context);
  return handleJson(args.request, soloDayStartSchema, (input) => startSoloDay(dbOf(args.context), env, user.id, input));
}

/** The start opens the runner (the reply's id): the page is not read again under the button that asked. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

export function meta() {
  return [{ title: `${T.pageTitle} · Unicum` }];
}

export default function SoloDayScreen() {
  const { edition, flow, extraPct, totalMin, running, days } = useLoaderData<typeof loader>();
  return (
    <section className="page my-sims">
      <h1 className="page__title">{T.pageTitle}</h1>
      <p className="muted">{T.intro(edition.label)}</p>
      <section className="my-sims__section" aria-labelledby="solo-day-title">
        <h2 id="solo-day-title" className="my-sims__h2">
          {T.dayTitle(edition.label)}
        </h2>
        <div className="my-sim">
          <div className="my-sim__body">
            <ol className="solo-day__flow" data-testid="solo-day-flow">
              {flow.map((s, i) => (
                <li key={s.id}>
                  {T.paper(s.name, s.timeMin)}
                  {i < flow.length - 1 && s.breakAfterMin > 0 ? (
                    <span className="muted small"> · {T.pause(s.breakAfterMin)}</span>
                  ) : null}
                </li>
              ))}
            </ol>
            {extraPct > 0 ? (
              <p className="small" data-testid="solo-day-extra">
                {T.extraTime(extraPct)}
              </p>
            ) : null}
            <p className="small muted">{T.total(totalMin)}</p>
            {running ? <p className="small">{T.running}</p> : null}
          </div>
          {running ? (
            <Link className="btn btn--primary my-sim__action" to={simulationHref(running.id)}>
              {T.resume}
            </Link>
          ) : (
            <StartButton editionId={edition.id} />
          )}
        </div>
      </section>
      <section className="my-sims__section" aria-labelledby="solo-days-title" data-testid="solo-days">
        <h2 id="solo-days-title" className="my-sims__h2">
          {T.pastTitle}
        </h2>
        {days.filter((d) => d.id !== running?.id).length ? (
          <ul className="my-sims__list">
            {days
              .filter((d) => d.id !== running?.id)
              .map((d) => {
                const when = formatRomeDateTime(d.startTime);
                return (
                  <li key={d.id} className="my-sim">
                    <div className="my-sim__body">
                      <h3 className="my-sim__title">{when}</h3>
                      <p className="small">
                        {d.rank?.section != null
                          ? T.sectionOf(d.rank.section, d.rank.key)
                          : d.graded
                            ? T.notSat
                            : T.notGraded}
                      </p>
                    </div>
                    {d.attemptId != null ? (
                      <Link
                        className="btn my-sim__action"
                        to={simulationResultHref(d.id, d.attemptId)}
                        aria-label={T.resultOf(when)}
                      >
                        {T.result}
                      </Link>
                    ) : null}
                  </li>
                );
              })}
          </ul>
        ) : (
          <p className="muted small">{T.noPast}</p>
        )}
      </section>
    </section>
  );
}

/** Starts the day (the route's action) and opens it in the runner; a refusal is said next to the button. */
function StartButton({ editionId }: { editionId: number }) {
  const { busy, call } = useFormAction<{ id: string }>("/giornata");
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setError(null);
    const reply = await call({ editionId });
    if (reply.value?.id) void navigate(simulationHref(reply.value.id));
    else setError(formError(reply) ?? T.startFailed);
  };
  return (
    <div className="my-sim__action">
      <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void start()}>
        {busy ? T.starting : T.start}
      </button>
      {error ? (
        <p className="alert alert--error small" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
