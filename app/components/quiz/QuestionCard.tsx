import { DIFFICULTY_LABELS } from "~/lib/constants";
import type { Answer, RunnerQuestion } from "~/lib/quiz-answers";
import { GapInput } from "./GapInput";
import { LETTERS, T, TYPE_LABELS } from "./messages";

/** One question of the runner: its chips, the report button, the text, the options or the boxes, the arrows. */
export function QuestionCard({
  question,
  options,
  answer,
  index,
  total,
  gapBoxes,
  disabled,
  reported,
  reportNote,
  onReport,
  onChoose,
  onType,
  onGo,
}: {
  question: RunnerQuestion;
  options: RunnerQuestion["options"];
  answer: Answer | undefined;
  index: number;
  total: number;
  gapBoxes: number;
  disabled: boolean;
  reported: boolean;
  /** Why reporting is not possible here (a downloaded quiz offline): shown instead of the button. */
  reportNote: string | null;
  onReport: () => void;
  onChoose: (optionId: number) => void;
  onType: (text: string) => void;
  onGo: (index: number) => void;
}) {
  return (
    <article className="practice-card practice-stack question-card" aria-labelledby="question-text">
      <div className="question-card__head">
        <div className="row">
          <span className="chip">{TYPE_LABELS[question.type]}</span>
          {question.topic ? <span className="chip">{question.topic}</span> : null}
          <span className="chip">{DIFFICULTY_LABELS[question.difficulty] ?? ""}</span>
        </div>
        {reported ? (
          <span className="chip chip--warn">{T.alreadyReported}</span>
        ) : reportNote ? (
          <span className="muted small">{reportNote}</span>
        ) : (
          <button type="button" className="btn btn--small" onClick={onReport} disabled={disabled}>
            {T.report}
          </button>
        )}
      </div>
      {/* React escapes the text: the stem is never injected as HTML. */}
      <p id="question-text" className="question-card__text">
        {question.question_text}
      </p>
      {question.type === "mc" ? (
        <ul className="options" aria-label="Opzioni di risposta">
          {options.map((o, pos) => (
            <li key={o.id}>
              <button
                type="button"
                className="option"
                aria-pressed={answer?.optionId === o.id}
                disabled={disabled}
                onClick={() => onChoose(o.id)}
              >
                <span className="option__letter" aria-hidden="true">
                  {LETTERS[pos]}
                </span>
                <span>
                  <span className="visually-hidden">{LETTERS[pos]}. </span>
                  {o.option_text}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <GapInput
          key={question.id}
          questionNumber={index + 1}
          boxes={gapBoxes}
          value={answer?.text ?? ""}
          disabled={disabled}
          onChange={onType}
        />
      )}
      <div className="quiz__arrows">
        <button
          type="button"
          className="btn"
          onClick={() => onGo(index - 1)}
          disabled={disabled || index === 0}
          aria-label={T.previous}
        >
          ←
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => onGo(index + 1)}
          disabled={disabled || index === total - 1}
          aria-label={T.next}
        >
          →
        </button>
      </div>
    </article>
  );
}
