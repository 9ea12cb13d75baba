// "Dopo la prova" on /piano (issue 46, point 3): once a sitting has started, the student enters the grades received
// (or "non sostenuto"); the page shows them read by the edition's rules (server side: sitting-results.ts): the section
// and the ranking score, the best valid grade of each exam across the sittings, what the next sitting can improve and
// a button that plans it. Other students' figures only over at least 30 of them.
import { useId, useState } from "react";
import { formError } from "~/lib/forms";
import { RANK_TEXT } from "~/lib/rank-key";
import { AGGREGATE_MIN_STUDENTS } from "~/lib/sitting-results";
import { PLAN_TEXT as T } from "~/lib/study-plan-text";
import { useFormAction } from "~/lib/use-form-action";
import type { PlanPage } from "~/server/study-plan-page.server";

type Props = Pick<PlanPage, "edition" | "results" | "aggregates" | "plan">;

/** "17,8" or "17.8" → 17.8; "" → null (nothing typed). */
const readGrade = (text: string) => (text.trim() === "" ? null : Number(text.trim().replace(",", ".")));

function GradesForm({
  edition,
  sitting,
}: {
  edition: Props["edition"];
  sitting: Props["results"]["sittings"][number];
}) {
  const { busy, submit } = useFormAction("/piano");
  const [values, setValues] = useState(() =>
    Object.fromEntries(
      sitting.grades.map((g) => [g.subjectId, g.grade ? String(g.grade.value).replace(".", ",") : ""]),
    ),
  );
  const [notSat, setNotSat] = useState(() =>
    Object.fromEntries(sitting.grades.map((g) => [g.subjectId, sitting.entered && !g.grade])),
  );
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const idBase = useId();
  const name = (id: number) => edition.subjects.find((s) => s.subjectId === id)?.name ?? "";
  return (
    <form
      className="plan-section"
      data-testid={`grades-form-${sitting.date}`}
      aria-labelledby={`${idBase}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        setMessage(null);
        const grades = edition.subjects.map(({ subjectId }) => ({
          subjectId,
          grade: notSat[subjectId] ? null : readGrade(values[subjectId] ?? ""),
        }));
        // Words typed for a number ("trenta") would travel as null, which reads as "non sostenuto": say so instead.
        if (grades.some((g) => g.grade != null && !Number.isFinite(g.grade)))
          return setMessage({ error: true, text: T.errors.grade(edition.maxGrade, edition.lode) });
        submit({ intent: "save-grades", editionId: edition.id, sittingDate: sitting.date, grades }, (r) =>
          setMessage(
            r.result.status === "success"
              ? { error: false, text: T.gradesSaved }
              : { error: true, text: formError(r) ?? T.saveFailed },
          ),
        );
      }}
    >
      <h3 id={`${idBase}-title`}>{T.enterFor(sitting.label)}</h3>
      <p className="small muted">{T.gradeHint(edition.maxGrade, edition.lode)}</p>
      <div className="plan-grades">
        {edition.subjects.map(({ subjectId }) => (
          <div key={subjectId} className="field">
            <label htmlFor={`${idBase}-${subjectId}`}>{T.gradeLabel(name(subjectId))}</label>
            <input
              id={`${idBase}-${subjectId}`}
              className="input"
              inputMode="decimal"
              value={values[subjectId] ?? ""}
              disabled={notSat[subjectId]}
              required={!notSat[subjectId]}
              onChange={(e) => setValues((v) => ({ ...v, [subjectId]: e.target.value }))}
            />
            <label className="check small">
              <input
                type="checkbox"
                checked={notSat[subjectId] ?? false}
                onChange={(e) => setNotSat((v) => ({ ...v, [subjectId]: e.target.checked }))}
              />{" "}
              {T.notSat}
            </label>
          </div>
        ))}
      </div>
      <div>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {T.saveGrades}
        </button>
      </div>
      {message ? (
        <p role={message.error ? "alert" : "status"} className={message.error ? "alert alert--error" : "alert"}>
          {message.text}
        </p>
      ) : null}
    </form>
  );
}

export function AfterSitting({ edition, results, aggregates, plan }: Props) {
  const { busy, submit } = useFormAction("/piano");
  const [error, setError] = useState<string | null>(null);
  const started = results.sittings.filter((s) => s.started);
  if (!started.length) return null;
  const label = (date: string | null) => results.sittings.find((s) => s.date === date)?.label ?? "";
  const name = (id: number) => edition.subjects.find((s) => s.subjectId === id)?.name ?? "";
  const planned = plan.state !== "none" && plan.settings.sittingDate === results.next?.date;
  const minutes = plan.state !== "none" ? plan.settings.minutesPerDay : 60;
  return (
    <section className="plan-section" aria-labelledby="after-title" data-testid="after-sitting">
      <h2 id="after-title">{T.afterTitle}</h2>
      <p className="small muted">{T.afterIntro}</p>
      {[...started].reverse().map((s) => (
        <GradesForm key={`${s.date}:${s.entered}`} edition={edition} sitting={s} />
      ))}
      {results.rank ? (
        <div className="plan-section" data-testid="sitting-results">
          <p className="plan-card__title" data-testid="sitting-section">
            {RANK_TEXT.label(results.rank)}
          </p>
          <h3>{T.bestTitle}</h3>
          <ul className="plan-results">
            {results.best.map((b) => (
              <li key={b.subjectId} data-testid={`best-${b.subjectId}`} data-passed={b.grade?.passed ?? false}>
                <strong>{b.name}</strong>:{" "}
                {!b.grade ? T.notSat : b.grade.passed ? b.grade.label : `${b.grade.label} (${T.notValid})`}
                {b.from ? <span className="small muted"> · {T.bestFrom(label(b.from))}</span> : null}
              </li>
            ))}
          </ul>
          {results.next ? (
            <>
              <h3>{T.improveTitle(results.next.label)}</h3>
              <ul className="plan-results" data-testid="improvable">
                {results.best.some((b) => b.improvable) ? (
                  results.best
                    .filter((b) => b.improvable)
                    .map((b) => (
                      <li key={b.subjectId} data-testid={`improve-${b.subjectId}`}>
                        <strong>{name(b.subjectId)}</strong>:{" "}
                        {b.improvable === "recupero" ? T.recupero(b.maxGain) : T.miglioramento(b.maxGain)}
                      </li>
                    ))
                ) : (
                  <li>{T.nothingToImprove}</li>
                )}
              </ul>
              {planned ? null : (
                <div>
                  <p className="small muted">{T.planNextHint}</p>
                  <button
                    type="button"
                    className="btn btn--primary"
                    disabled={busy}
                    onClick={() =>
                      submit(
                        {
                          intent: "save-plan",
                          editionId: edition.id,
                          sittingDate: results.next!.date,
                          minutesPerDay: minutes,
                          weekdays: plan.state !== "none" ? plan.settings.weekdays : null,
                        },
                        (r) => setError(r.result.status === "success" ? null : (formError(r) ?? T.saveFailed)),
                      )
                    }
                  >
                    {T.planNext(results.next.label)}
                  </button>
                </div>
              )}
            </>
          ) : null}
          {error ? (
            <p role="alert" className="alert alert--error">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
      {started.map((s) => {
        const agg = aggregates.find((a) => a.sittingDate === s.date);
        return (
          <p key={s.date} className="small muted" data-testid={`aggregates-${s.date}`}>
            {agg
              ? `${T.aggregates(agg.students)} ${agg.passed
                  .flatMap((p) => (p.pct == null ? [] : [T.aggregatePassed(name(p.subjectId), p.pct)]))
                  .join("; ")}`
              : T.aggregatesHidden(AGGREGATE_MIN_STUDENTS)}
          </p>
        );
      })}
    </section>
  );
}
