// A /test?… link that does not start by itself (issue 28): the quiz it would draw, and "Avvia". A Rush link always
// lands here (the student's one attempt in the subject starts only with their own click), and so does a practice
// link opened from another site.
import { Link } from "react-router";
import { formatClock } from "~/lib/timer";
import { T } from "./messages";

export type QuizStartSettings = {
  kind: "practice" | "rush" | "redo";
  subject: string | null;
  topic: string | null;
  count: number;
  timeSec: number | null;
  targeted: boolean;
};

export function QuizStartConfirm({
  settings,
  busy,
  onStart,
}: {
  settings: QuizStartSettings;
  busy: boolean;
  onStart: () => void;
}) {
  const rush = settings.kind === "rush";
  const rows: [string, string][] = [
    [T.kind, rush ? T.kindRush : settings.kind === "redo" ? T.kindRedo : T.kindPractice],
    ...(settings.kind === "redo" ? [] : ([[T.subject, settings.subject ?? "—"]] as [string, string][])),
    ...(settings.kind === "redo" ? [] : ([[T.topic, settings.topic ?? T.allTopics]] as [string, string][])),
    [T.questions, String(settings.count)],
    [T.timer, settings.timeSec ? formatClock(settings.timeSec) : T.noTimer],
    ...(settings.targeted ? ([[T.kind, T.targeted]] as [string, string][]) : []),
  ];
  return (
    <section className="page practice-stack" data-testid="quiz-start-confirm">
      <h1 className="page__title">{rush ? T.confirmRushTitle : T.confirmTitle}</h1>
      <div className="practice-card practice-stack">
        <dl className="quiz-settings" aria-label={T.settingsLabel}>
          {rows.map(([label, value], i) => (
            <div key={`${label}-${i}`} className="quiz-settings__row">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <p className={rush ? "alert" : "muted"}>{rush ? T.confirmRushNote : T.confirmNote}</p>
        <div className="row">
          <button type="button" className="btn btn--primary" onClick={onStart} disabled={busy}>
            {T.confirmStart}
          </button>
          <Link className="btn" to={rush ? "/rush" : "/test/nuovo"}>
            {T.confirmCancel}
          </Link>
        </div>
      </div>
    </section>
  );
}
