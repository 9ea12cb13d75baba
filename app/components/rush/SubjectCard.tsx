import { formatDecimal } from "~/lib/format";
import { formatRomeDateTime, RUSH_TEXT } from "~/lib/rush";
import { SubjectIcon } from "./SubjectIcon";

export type SubjectCardState =
  | { kind: "open" }
  | { kind: "pending" }
  | { kind: "completed"; score: number; at: number };

const scoreText = (score: number) => formatDecimal(score, 1);

/** One subject of the event: icon, name, 'Max 31', and 'Avvia quiz' or 'Completato' with the date. */
export function SubjectCard(props: {
  subject: { id: number; name: string };
  state: SubjectCardState;
  canStart: boolean;
  onStart: (subjectId: number) => void;
}) {
  const { subject, state } = props;
  const titleId = `rush-subject-${subject.id}`;
  return (
    <li className={`rush-subject rush-subject--${state.kind}`} data-subject-id={subject.id}>
      <div className="rush-subject__head">
        <SubjectIcon name={subject.name} />
        <h3 id={titleId} className="rush-subject__name">
          {subject.name}
        </h3>
      </div>
      <p className="muted small rush-subject__max">{RUSH_TEXT.maxScore}</p>
      {state.kind === "completed" ? (
        <>
          <button
            type="button"
            className="btn rush-subject__done"
            aria-describedby={`${titleId}-date`}
            onClick={() => props.onStart(subject.id)}
          >
            {RUSH_TEXT.completed}
          </button>
          <p className="small rush-subject__date" id={`${titleId}-date`}>
            <time dateTime={new Date(state.at).toISOString()}>{formatRomeDateTime(state.at)}</time>
            <span className="muted"> · {scoreText(state.score)} / 31</span>
          </p>
        </>
      ) : (
        <>
          <button
            type="button"
            className="btn btn--primary"
            disabled={!props.canStart}
            onClick={() => props.onStart(subject.id)}
          >
            {RUSH_TEXT.start}
          </button>
          {state.kind === "pending" ? <p className="small muted rush-subject__date">{RUSH_TEXT.started}</p> : null}
        </>
      )}
    </li>
  );
}
