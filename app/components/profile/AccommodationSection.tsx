// 'Tempo aggiuntivo' on /profilo (issue 29): shown only to a pupil with an accommodation (set by an admin or a
// teacher); in simulations it always applies, and here the pupil chooses whether it extends practice timers too.
import { useState } from "react";
import { formError } from "~/lib/forms";
import { EXTRA_TIME_TEXT } from "~/lib/simulation-day";
import { useFormAction } from "~/lib/use-form-action";

export function AccommodationSection({ pct, practice }: { pct: number; practice: boolean }) {
  const [apply, setApply] = useState(practice);
  const [error, setError] = useState<string | null>(null);
  const { busy, submit } = useFormAction("/profilo");
  if (!pct) return null;
  const toggle = (next: boolean) => {
    setError(null);
    setApply(next);
    submit({ intent: "extra-time-practice", apply: next }, (reply) => {
      if (reply.result.status === "success") return;
      setApply(!next);
      setError(formError(reply) ?? "Salvataggio non riuscito: riprova.");
    });
  };
  return (
    <section className="profile__card" aria-labelledby="extra-time-title">
      <h2 id="extra-time-title" className="profile__h2">
        {EXTRA_TIME_TEXT.label}: {EXTRA_TIME_TEXT.badge(pct)}
      </h2>
      <p className="muted">{EXTRA_TIME_TEXT.practiceHint(pct)}</p>
      <label className="check">
        <input type="checkbox" checked={apply} disabled={busy} onChange={(e) => toggle(e.target.checked)} />{" "}
        {EXTRA_TIME_TEXT.practiceToggle}
      </label>
      {error ? (
        <p role="alert" className="alert alert--error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
