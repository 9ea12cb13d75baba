// /piano's choice (issue 46): a sitting of the default edition (its dates from the edition), the minutes a day
// (30/60/90/120 or another number) and, optionally, other minutes on some weekdays (0: a day off). Posted to /piano's
// action, which checks it with the JSON call's schema; the page then shows the plan recomputed.
import { useId, useState } from "react";
import { formError } from "~/lib/forms";
import { PLAN_MINUTE_CHOICES, PLAN_MINUTES_MAX, PLAN_MINUTES_MIN } from "~/lib/study-plan";
import { PLAN_TEXT as T } from "~/lib/study-plan-text";
import { useFormAction } from "~/lib/use-form-action";
import type { PlanSettings } from "~/server/study-plan.server";

const WEEKDAY_CHOICES = [0, 30, 60, 90, 120, 180, 240, 300, 360];

export function PlanForm(props: {
  editionId: number;
  sittings: { date: string; label: string; started: boolean }[];
  settings: PlanSettings | null;
}) {
  const open = props.sittings.filter((s) => !s.started);
  const current = props.settings;
  const [sitting, setSitting] = useState(
    open.find((s) => s.date === current?.sittingDate)?.date ?? open[0]?.date ?? "",
  );
  const initial = current?.minutesPerDay ?? 60;
  const preset = (PLAN_MINUTE_CHOICES as readonly number[]).includes(initial);
  const [choice, setChoice] = useState<string>(preset ? String(initial) : "altro");
  const [other, setOther] = useState(preset ? "" : String(initial));
  const [weekdays, setWeekdays] = useState<(number | null)[]>(current?.weekdays ?? Array(7).fill(null));
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const { busy, submit } = useFormAction("/piano");
  const ids = { sitting: useId(), other: useId(), minutes: useId() };

  if (!open.length) return <p className="alert">{T.noSitting}</p>;

  const reply = (ok: string) => (r: Parameters<Parameters<typeof submit>[1]>[0]) =>
    setMessage(
      r.result.status === "success" ? { error: false, text: ok } : { error: true, text: formError(r) ?? T.saveFailed },
    );
  const save = () => {
    setMessage(null);
    const minutesPerDay = choice === "altro" ? Number(other.trim()) : Number(choice);
    submit(
      { intent: "save-plan", editionId: props.editionId, sittingDate: sitting, minutesPerDay, weekdays },
      reply(T.saved),
    );
  };

  return (
    <form
      className="plan-section"
      aria-labelledby="plan-form-title"
      data-testid="plan-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <h2 id="plan-form-title">{current ? T.save : T.makePlan}</h2>
      <div className="plan-form__row">
        <div className="field">
          <label htmlFor={ids.sitting}>{T.sitting}</label>
          <select id={ids.sitting} className="select" value={sitting} onChange={(e) => setSitting(e.target.value)}>
            {open.map((s) => (
              <option key={s.date} value={s.date}>
                {T.sittingOption(s.label, s.date.split("-").reverse().join("/"))}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="field" style={{ border: "none", padding: 0, margin: 0 }}>
        <legend id={ids.minutes}>{T.minutes}</legend>
        <div className="timer-choices">
          {[...PLAN_MINUTE_CHOICES.map(String), "altro"].map((value) => (
            <label key={value} className="timer-choice">
              <input
                type="radio"
                name="minutes"
                value={value}
                checked={choice === value}
                onChange={() => setChoice(value)}
              />
              <span>{value === "altro" ? T.minutesOther : `${value} min`}</span>
            </label>
          ))}
        </div>
        {choice === "altro" ? (
          <div className="field">
            <label htmlFor={ids.other}>{T.minutesOther}</label>
            <input
              id={ids.other}
              className="input"
              type="number"
              inputMode="numeric"
              min={PLAN_MINUTES_MIN}
              max={PLAN_MINUTES_MAX}
              value={other}
              onChange={(e) => setOther(e.target.value)}
            />
          </div>
        ) : null}
      </fieldset>
      <fieldset className="plan-weekdays">
        <legend className="small muted">{T.weekdays}</legend>
        {T.weekdayNames.map((day, i) => (
          <label key={day} className="field">
            {day}
            <select
              className="select"
              value={weekdays[i] == null ? "" : String(weekdays[i])}
              onChange={(e) =>
                setWeekdays((list) =>
                  list.map((v, j) => (j === i ? (e.target.value === "" ? null : Number(e.target.value)) : v)),
                )
              }
            >
              <option value="">{T.weekdaySame}</option>
              {[...new Set([...WEEKDAY_CHOICES, ...(weekdays[i] != null ? [weekdays[i]] : [])])]
                .sort((a, b) => a - b)
                .map((m) => (
                  <option key={m} value={m}>
                    {m === 0 ? T.weekdayOff : `${m} min`}
                  </option>
                ))}
            </select>
          </label>
        ))}
      </fieldset>
      <div className="plan-form__row">
        <button type="submit" className="btn btn--primary" disabled={busy || !sitting}>
          {T.save}
        </button>
        {current ? (
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => {
              setMessage(null);
              submit({ intent: "delete-plan" }, reply(T.removed));
            }}
          >
            {T.remove}
          </button>
        ) : null}
      </div>
      {message ? (
        <p role={message.error ? "alert" : "status"} className={message.error ? "alert alert--error" : "alert"}>
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
