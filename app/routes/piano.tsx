// /piano (issue 46): the plan to the sitting. The choice (sitting, minutes a day), today's card, the calendar to the
// sitting (days done and missed, exam days), the next days in words, the forecast's trend per exam, and after a sitting
// the grades received read by the edition's rules. Reads and writes go through the same services as /api/me/plan and
// /api/me/sitting-grades.
import { Link, useLoaderData } from "react-router";
import { z } from "zod";
import { AfterSitting } from "~/components/plan/AfterSitting";
import { PassTrendChart, PlanCalendarChart } from "~/components/plan/PlanCharts";
import { PlanForm } from "~/components/plan/PlanForm";
import { TodayCard } from "~/components/plan/TodayCard";
import { planInputSchema, sittingGradesSchema } from "~/lib/forms/study-plan";
import { PLAN_TEXT as T, hoursText } from "~/lib/study-plan-text";
import { dayLine, SOLO_DAY_HREF } from "~/lib/study-plan-view";
import { withLabels } from "~/lib/validation";
import { dbOf } from "~/server/context";
import { defaultEdition } from "~/server/editions.server";
import { handleIntent, handleValue } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import { saveSittingGrades } from "~/server/sitting-grades.server";
import { planPage } from "~/server/study-plan-page.server";
import { deletePlan, savePlan } from "~/server/study-plan.server";
import "~/styles/charts.css";
import "~/styles/quiz.css";
import "~/styles/plan.css";
import type { Route } from "./+types/piano";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  return planPage(dbOf(args.context), user.id);
}

const intentOnly = withLabels(z.strictObject({ intent: z.string() }), { intent: "Operazione" });

/** The write's fields without its intent (the schemas are strict: a stray field is refused). */
function fields(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return body;
  const { intent: _intent, ...rest } = body as Record<string, unknown>;
  return rest;
}

export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  return handleIntent(args.request, {
    "save-plan": (body) => handleValue(fields(body), planInputSchema, (plan) => savePlan(db, user.id, plan)),
    "delete-plan": (body) => handleValue(body, intentOnly, () => deletePlan(db, user.id)),
    "save-grades": async (body) => {
      const edition = await defaultEdition(db);
      return handleValue(fields(body), sittingGradesSchema(edition.format), (grades) =>
        saveSittingGrades(db, user.id, edition, grades),
      );
    },
  });
}

export function meta() {
  return [{ title: `${T.pageTitle} · Unicum` }];
}

export default function PlanScreen() {
  const data = useLoaderData<typeof loader>();
  const { plan, calendar, trend, edition } = data;
  const active = plan.state === "active" ? plan : null;
  const done = calendar.filter((d) => d.status === "fatto").length;
  const missed = calendar.filter((d) => d.status === "saltato").length;
  const left = calendar.filter((d) => d.status === "oggi" || d.status === "futuro").length;
  const percent = (p: number | null | undefined) => (p == null ? "—" : `${Math.round(p * 100)} %`);
  return (
    <section className="page plan-page">
      <h1 className="page__title">{T.pageTitle}</h1>
      <p className="muted">{T.intro}</p>
      {plan.state !== "none" ? <TodayCard plan={plan} showPlanLink={false} /> : null}
      <PlanForm
        editionId={edition.id}
        sittings={edition.sittings}
        settings={plan.state === "none" ? null : plan.settings}
      />
      {active ? (
        <>
          <section className="plan-section" aria-labelledby="calendar-title">
            <h2 id="calendar-title">{T.calendar}</h2>
            <p className="small" data-testid="plan-calendar-summary">
              {T.calendarSummary(done, missed, left)}
            </p>
            <PlanCalendarChart days={calendar} summary={T.calendarSummary(done, missed, left)} />
            <ul className="plan-legend small" aria-hidden="true">
              {(["fatto", "parziale", "saltato", "oggi", "futuro"] as const).map((s) => (
                <li key={s}>
                  <span className={`plan-legend__${s}`} />
                  {T.status[s]}
                </li>
              ))}
            </ul>
            <h3>{T.upcoming}</h3>
            <ul className="plan-upcoming" data-testid="plan-upcoming">
              {active.days.slice(0, 7).map((d) => (
                <li key={d.date} data-date={d.date}>
                  <strong>
                    {d.date.split("-").reverse().slice(0, 2).join("/")} · {hoursText(d.minutes)}
                  </strong>
                  <span className="small muted">
                    {d.items.length ? dayLine(d.items, active.names) : T.status.riposo}
                  </span>
                  {d.items.some((i) => i.kind === "exam-day") ? (
                    <Link className="btn btn--small btn--primary" to={SOLO_DAY_HREF} data-testid="plan-exam-day">
                      {T.goExamDay}
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
          <section className="plan-section" aria-labelledby="trend-title">
            <h2 id="trend-title">{T.trend}</h2>
            {trend.some((l) => l.points.some((p) => p.p != null)) ? (
              <PassTrendChart
                lines={trend}
                summary={T.trendSummary(trend.map((l) => `${l.name} ${percent(l.points.at(-1)?.p)}`))}
              />
            ) : (
              <p className="small muted">{T.trendNone}</p>
            )}
          </section>
        </>
      ) : null}
      <AfterSitting edition={edition} results={data.results} aggregates={data.aggregates} plan={plan} />
    </section>
  );
}
