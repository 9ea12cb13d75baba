import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { prng } from "~/lib/prng";
import { type Answer, type Answers, type RunnerQuiz, type Spent, submissionAnswers } from "~/lib/quiz-answers";
import { sample } from "~/lib/review";
import { Countdown } from "./Countdown";
import { LETTERS, T } from "./messages";
import { QuestionCard } from "./QuestionCard";
import { QuizNavigator } from "./QuizNavigator";
import { ReportModal } from "./ReportModal";

export type RunnerSubmission = { answers: ReturnType<typeof submissionAnswers>; timeTaken: number };

/**
 * The quiz runner: one question at a time, free navigation, a countdown, 'Consegna'. Where the answers are kept and
 * where the submission goes is its caller's: the server's quiz (OnlineQuiz: this browser's storage, the /test action)
 * or a downloaded one (OfflineQuiz: the device's IndexedDB, the queue of submissions).
 */
export function QuizRunner({
  quiz,
  saved,
  onSave,
  onSubmit,
  submitting,
  locked = false,
  error,
  notice,
  reportNote = null,
}: {
  quiz: RunnerQuiz;
  /** What this device kept of the quiz, once read (undefined until then: nothing is saved before it is). */
  saved: { answers: Answers; spent?: Spent } | undefined;
  onSave: (answers: Answers, spent: Spent) => void;
  onSubmit: (submission: RunnerSubmission) => void;
  submitting: boolean;
  /** Handed in: the answers stay visible, nothing changes them. */
  locked?: boolean;
  error: string | null;
  notice?: ReactNode;
  reportNote?: string | null;
}) {
  const toast = useToast();
  const total = quiz.questions.length;
  const disabled = submitting || locked;
  const [index, setIndex] = useState(0);
  // The server renders the first question (useful before the JavaScript arrives); the answers kept on this device
  // come back right after, and nothing is saved before they have.
  const [answers, setAnswers] = useState<Answers>({});
  const [restored, setRestored] = useState(false);
  const spent = useRef<Spent>({});
  useEffect(() => {
    if (!saved || restored) return;
    if (Object.keys(saved.answers).length) setAnswers(saved.answers);
    spent.current = { ...(saved.spent ?? {}) };
    setRestored(true);
  }, [saved, restored]);
  const [reported, setReported] = useState<Set<number>>(() => new Set());
  const [reporting, setReporting] = useState<number | null>(null);
  // Options are shuffled once per question, seeded by the quiz and the question: the server's HTML and the browser
  // agree (no hydration mismatch), and a reload keeps the order.
  const order = useMemo(
    () =>
      Object.fromEntries(
        quiz.questions.map((q) => [
          q.id,
          sample(q.options, q.options.length, prng((Math.imul(quiz.quizId, 0x9e3779b1) ^ q.id) >>> 0)),
        ]),
      ),
    [quiz.questions, quiz.quizId],
  );

  // Time per question: accumulated on leaving a question and on submit.
  const enteredAt = useRef(performance.now());
  const loadedAt = useRef(performance.now());
  const accumulate = useCallback(() => {
    const q = quiz.questions[index];
    if (!q) return;
    const now = performance.now();
    spent.current[q.id] = (spent.current[q.id] ?? 0) + (now - enteredAt.current) / 1000;
    enteredAt.current = now;
  }, [index, quiz.questions]);

  const goTo = useCallback(
    (next: number) => {
      if (next < 0 || next >= total || next === index) return;
      accumulate();
      setIndex(next);
    },
    [accumulate, index, total],
  );

  // Countdown from the remaining seconds the caller measured, against the monotonic clock.
  const timed = quiz.timeLimitSec != null;
  const deadline = useRef(performance.now() + (quiz.remainingSec ?? 0) * 1000);
  const [remaining, setRemaining] = useState(quiz.remainingSec ?? 0);
  useEffect(() => {
    if (!timed || locked) return;
    const tick = () => setRemaining(Math.max(0, Math.ceil((deadline.current - performance.now()) / 1000)));
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [timed, locked]);

  // Every answer is kept as it is given (and the time per question whenever the student moves on).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the index is the moment the time per question changes
  useEffect(() => {
    if (restored && !locked) onSave(answers, { ...spent.current });
  }, [answers, index, locked, onSave, restored]);

  const submit = useCallback(() => {
    if (disabled) return;
    accumulate();
    const timeTaken = timed
      ? Math.max(0, quiz.timeLimitSec! - Math.max(0, Math.ceil((deadline.current - performance.now()) / 1000)))
      : Math.round(quiz.elapsedSec + (performance.now() - loadedAt.current) / 1000);
    onSave(answers, { ...spent.current });
    onSubmit({ answers: submissionAnswers(quiz.questions, answers, spent.current), timeTaken });
  }, [accumulate, answers, disabled, onSave, onSubmit, quiz, timed]);

  // A real exam ends at zero: the attempt is submitted when the countdown runs out (with the kept answers back).
  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (timed && restored && remaining <= 0 && !autoSubmitted.current && !locked) {
      autoSubmitted.current = true;
      void submit();
    }
  }, [remaining, submit, timed, locked, restored]);

  const question = quiz.questions[index]!;
  const options = order[question.id] ?? [];
  const answer = answers[question.id];
  const setAnswer = (next: Answer) => setAnswers((all) => ({ ...all, [question.id]: next }));
  const choose = (optionId: number) =>
    setAnswer({ optionId: answer?.optionId === optionId ? null : optionId, text: "" });

  // Keyboard: A-E or 1-5 choose an option, arrow keys move between questions.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (disabled || reporting != null || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement | null;
      const tag = target?.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target?.isContentEditable) return;
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        goTo(index + (e.key === "ArrowRight" ? 1 : -1));
        return;
      }
      if (question.type !== "mc") return;
      const key = e.key.toUpperCase();
      let pos = LETTERS.indexOf(key);
      if (pos < 0 && /^[1-9]$/.test(key)) pos = Number(key) - 1;
      if (pos >= 0 && pos < options.length && pos < 5) {
        e.preventDefault();
        choose(options[pos]!.id);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const userAnswerKey = (() => {
    if (question.type === "mc") {
      const pos = options.findIndex((o) => o.id === answer?.optionId);
      return pos >= 0 ? LETTERS[pos]! : "";
    }
    return answer?.text ?? "";
  })();

  return (
    <section className="page quiz" aria-busy={submitting}>
      <header className="quiz__head">
        <div>
          <h1>{T.quizTitle}</h1>
          <p className="muted" style={{ margin: 0 }} data-testid="question-position">
            Domanda {index + 1}/{total}
          </p>
        </div>
        {timed ? <Countdown remaining={remaining} total={quiz.timeLimitSec!} /> : null}
        <button type="button" className="btn btn--primary" onClick={submit} disabled={disabled}>
          {submitting ? T.submitting : T.submit}
        </button>
      </header>
      {notice}
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="quiz__layout">
        <QuestionCard
          question={question}
          options={options}
          answer={answer}
          index={index}
          total={total}
          gapBoxes={quiz.gapBoxes}
          disabled={disabled}
          reported={reported.has(question.id)}
          reportNote={reportNote}
          onReport={() => setReporting(question.id)}
          onChoose={choose}
          onType={(text) => setAnswer({ optionId: null, text })}
          onGo={goTo}
        />
        <QuizNavigator questions={quiz.questions} answers={answers} index={index} disabled={submitting} onGo={goTo} />
      </div>
      {reporting != null ? (
        <ReportModal
          texts={{
            title: T.reportTitle,
            label: T.reportMessage,
            send: T.reportSend,
            failedPrefix: T.reportFailedPrefix,
            failedDefault: T.reportFailedDefault,
          }}
          questionNumber={quiz.questions.findIndex((q) => q.id === reporting) + 1}
          payload={{ questionId: reporting, userAnswerKey }}
          messageField="message"
          onClose={() => setReporting(null)}
          onSent={() => {
            setReported((s) => new Set(s).add(reporting));
            setReporting(null);
            toast(T.reportSent, "success");
          }}
        />
      ) : null}
    </section>
  );
}
