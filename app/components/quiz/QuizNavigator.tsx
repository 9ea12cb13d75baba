import { type Answers, isAnswered, type RunnerQuestion } from "~/lib/quiz-answers";
import { T } from "./messages";

/** The 'Naviga' grid: a numbered button per question, the answered ones highlighted. */
export function QuizNavigator({
  questions,
  answers,
  index,
  disabled,
  onGo,
}: {
  questions: RunnerQuestion[];
  answers: Answers;
  index: number;
  disabled: boolean;
  onGo: (index: number) => void;
}) {
  const answeredCount = questions.filter((q) => isAnswered(answers[q.id])).length;
  return (
    <nav className="practice-card practice-stack" aria-labelledby="navigator-title">
      <h2 id="navigator-title" style={{ margin: 0, fontSize: "1.1rem" }}>
        {T.navigator}
      </h2>
      <p className="muted small" style={{ margin: 0 }}>
        {answeredCount}/{questions.length} risposte date
      </p>
      <div className="navigator__grid">
        {questions.map((q, i) => {
          const done = isAnswered(answers[q.id]);
          return (
            <button
              key={q.id}
              type="button"
              className={`navigator__item${done ? " navigator__item--answered" : ""}`}
              aria-current={i === index ? "step" : undefined}
              aria-label={`Domanda ${i + 1}${done ? ", risposta data" : ""}`}
              disabled={disabled}
              onClick={() => onGo(i)}
            >
              {i + 1}
            </button>
          );
        })}
      </div>
    </nav>
  );
}
