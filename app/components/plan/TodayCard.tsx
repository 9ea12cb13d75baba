// The dashboard's card of the plan (issue 46): "Oggi: 18 ripassi, 20 domande di Fisica (unità 3 e 6), …", one button
// per item to the screen that does it, each item marked done from the day's real attempts (no checkbox).
import { Link } from "react-router";
import { PLAN_TEXT as T } from "~/lib/study-plan-text";
import { dayLine, itemView } from "~/lib/study-plan-view";
import type { PlanState } from "~/server/study-plan.server";

export function TodayCard({ plan, showPlanLink = true }: { plan: PlanState; showPlanLink?: boolean }) {
  if (plan.state !== "active") {
    const text = plan.state === "none" ? T.noPlan : plan.state === "passed" ? T.sittingPassed : T.editionChanged;
    return (
      <section className="plan-card" aria-labelledby="plan-card-title" data-testid="plan-card" data-state={plan.state}>
        <h2 id="plan-card-title" className="plan-card__title">
          {T.cardTitle}
        </h2>
        <p className="plan-card__line">{text}</p>
        <Link className="btn btn--small btn--primary" to="/piano">
          {plan.state === "none" ? T.makePlan : T.openPlan}
        </Link>
      </section>
    );
  }
  const today = plan.today;
  return (
    <section className="plan-card" aria-labelledby="plan-card-title" data-testid="plan-card" data-state="active">
      <div className="plan-card__head">
        <h2 id="plan-card-title" className="plan-card__title">
          {T.cardTitle}
        </h2>
        <span className="small muted" data-testid="plan-days-left">
          {T.daysLeft(plan.daysLeft, plan.settings.sittingLabel)}
        </span>
      </div>
      {!today ? (
        <p className="plan-card__line">{T.examToday}</p>
      ) : today.items.length === 0 ? (
        <p className="plan-card__line">{T.restDay}</p>
      ) : (
        <>
          <p className="plan-card__line" data-testid="plan-today-line">
            <strong>{T.today}:</strong> {dayLine(today.items, plan.names)}
          </p>
          {today.overBudget ? <p className="small plan-card__note">{T.overBudget(today.minutes)}</p> : null}
          <ul className="plan-items">
            {today.items.map((item, i) => {
              const view = itemView(item, plan.names);
              const key =
                item.kind === "practice" || item.kind === "paper" ? `${item.kind}-${item.subjectId}` : item.kind;
              return (
                <li
                  key={`${key}-${i}`}
                  className="plan-item"
                  data-testid={`plan-item-${key}`}
                  data-complete={item.complete}
                >
                  <span className="plan-item__text">
                    {view.text}
                    <span className="small muted">
                      {" · "}
                      {item.complete ? T.done : T.progress(item.done, item.target)}
                    </span>
                  </span>
                  {item.complete ? (
                    <span className="chip chip--ok">{T.done}</span>
                  ) : (
                    <Link className="btn btn--small" to={view.href}>
                      {view.action}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
          {today.complete ? (
            <p className="plan-card__done" role="status">
              {T.allDone}
            </p>
          ) : null}
        </>
      )}
      {showPlanLink ? (
        <Link className="small" to="/piano">
          {T.openPlan}
        </Link>
      ) : null}
    </section>
  );
}
