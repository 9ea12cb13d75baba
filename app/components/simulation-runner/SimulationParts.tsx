// The simulation screen's pieces without state: the flow's types, the answer helpers (the candidate's question and
// option order comes from the server, simulation-day.ts), and the small views (centered message, save summary, question grid, overview of the subjects).
import type { FlowPhase } from "~/lib/simulation";
import { T } from "./texts";

export type PublicQuestion = { id: number; type: "mc" | "gap"; text: string; options?: string[] };
export type FlowItem = {
  id: number;
  name: string;
  timeMin: number;
  breakAfterMin: number;
  questionCount: number;
  questions: PublicQuestion[];
};
export type Answers = Record<string, Record<string, string>>;

export function mergeAnswers(base: Answers, over: Answers): Answers {
  const out: Answers = { ...base };
  for (const [s, qs] of Object.entries(over)) out[s] = { ...(out[s] ?? {}), ...qs };
  return out;
}

export const answeredCount = (answers: Answers) =>
  Object.values(answers).reduce((n, qs) => n + Object.values(qs).filter((v) => v.trim() !== "").length, 0);

export function Centered({ children, role }: { children: React.ReactNode; role?: string }) {
  return (
    <main className="sim-centered" role={role}>
      {children}
    </main>
  );
}

export function SaveSummary({ pending }: { pending: number }) {
  return (
    <p className={`small ${pending ? "sim-unsaved" : "muted"}`} data-testid="sim-save-summary">
      {pending ? T.notYetSaved(pending) : T.allSaved}
    </p>
  );
}

export function QuestionGrid(props: {
  count: number;
  answered: (i: number) => boolean;
  current: number;
  onPick?: (i: number) => void;
  disabled?: boolean;
}) {
  return (
    <nav className="sim-grid" aria-label="Domande">
      {Array.from({ length: props.count }, (_, i) => (
        <button
          key={i}
          type="button"
          className={`sim-grid__cell${props.answered(i) ? " sim-grid__cell--filled" : ""}${props.current === i ? " sim-grid__cell--current" : ""}`}
          aria-current={props.current === i ? "true" : undefined}
          aria-label={`Domanda ${i + 1}${props.answered(i) ? ", risposta data" : ""}`}
          disabled={props.disabled}
          onClick={() => props.onPick?.(i)}
        >
          {i + 1}
        </button>
      ))}
    </nav>
  );
}

export function Overview({ flow, phase, answers }: { flow: FlowItem[]; phase: FlowPhase; answers: Answers }) {
  const totalQuestions = flow.reduce((n, s) => n + s.questionCount, 0);
  // An accommodated candidate's minutes may be fractional (+30 % of 1′): shown rounded.
  const totalMin = Math.round(flow.reduce((n, s) => n + s.timeMin, 0));
  const badge = (i: number) => {
    if (phase.kind === "waiting") return T.badge.waiting;
    if (phase.kind === "finished" || i < phase.index || (phase.kind === "break" && i === phase.index))
      return T.badge.done;
    return i === phase.index ? T.badge.current : T.badge.waiting;
  };
  return (
    <aside className="sim-right" aria-label={T.overview}>
      <h2>{T.overview}</h2>
      <dl className="sim-overview">
        <dt>{T.totalQuestions}</dt>
        <dd>{totalQuestions}</dd>
        <dt>{T.totalTime}</dt>
        <dd>{T.minutes(totalMin)}</dd>
        <dt>{T.completed}</dt>
        <dd data-testid="sim-completed">{answeredCount(answers)}</dd>
      </dl>
      <ul className="sim-subjects">
        {flow.map((s, i) => (
          <li key={`${s.id}-${i}`}>
            <span>{s.name}</span>{" "}
            <span className={`sim-badge sim-badge--${badge(i).replace(" ", "-")}`}>{badge(i)}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
