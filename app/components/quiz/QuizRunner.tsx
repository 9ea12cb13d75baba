import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { useToast } from "~/components/ui/Toast";
import { formError, type FormReply } from "~/lib/forms";
import { DIFFICULTY_LABELS } from "~/lib/constants";
import { prng } from "~/lib/prng";
import { sample } from "~/lib/review";
import type { DrawnQuiz } from "~/server/quiz.server";
import { Countdown } from "./Countdown";
import { GapInput } from "./GapInput";
import { LETTERS, T, TYPE_LABELS } from "./messages";
import { ReportModal } from "./ReportModal";

type Answer = { optionId: number | null; text: string };

function isAnswered(a: Answer | undefined): boolean {
  return !!a && (a.optionId != null || a.text.trim() !== "");
}

function storageKey(quizId: number) {
  return `quiz_answers_${quizId}`;
}

/** The quiz runner: one question at a time, free navigation, server grading on 'Consegna'. */
export function QuizRunner({ quiz }: { quiz: DrawnQuiz }) {
  // The submission posts to the /test route's action, which grades it and redirects to the summary.
  const sender = useFetcher<FormReply>();
  const toast = useToast();
  const total = quiz.questions.length;
  const [index, setIndex] = useState(0);
  // The server renders the first question (useful before the JavaScript arrives); the answers saved in this browser
  // come back right after hydration, and nothing is saved before they have.
  const [answers, setAnswers] = useState<Record<number, Answer>>({});
  const restored = useRef(false);
  useEffect(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(storageKey(quiz.quizId)) ?? "{}") as Record<number, Answer>;
      if (Object.keys(saved).length) setAnswers(saved);
    } catch {
      // storage unavailable or unreadable: start empty
    }
    restored.current = true;
  }, [quiz.quizId]);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
  const spent = useRef<Record<number, number>>({});
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

  // Countdown from the server's remaining seconds, against the monotonic clock.
  const timed = quiz.timeLimitSec != null;
  const deadline = useRef(performance.now() + (quiz.remainingSec ?? 0) * 1000);
  const [remaining, setRemaining] = useState(quiz.remainingSec ?? 0);
  useEffect(() => {
    if (!timed) return;
    const tick = () => setRemaining(Math.max(0, Math.ceil((deadline.current - performance.now()) / 1000)));
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [timed]);

  useEffect(() => {
    if (!restored.current) return;
    try {
      localStorage.setItem(storageKey(quiz.quizId), JSON.stringify(answers));
    } catch {
      // storage unavailable: answers stay in memory
    }
  }, [answers, quiz.quizId]);

  const submit = useCallback(() => {
    if (submitting) return;
    accumulate();
    setSubmitting(true);
    setError(null);
    const timeTaken = timed
      ? Math.max(0, quiz.timeLimitSec! - Math.max(0, Math.ceil((deadline.current - performance.now()) / 1000)))
      : Math.round(quiz.elapsedSec + (performance.now() - loadedAt.current) / 1000);
    const body = {
      answers: quiz.questions.map((q) => {
        const a = answers[q.id];
        const time_sec = Math.round(spent.current[q.id] ?? 0);
        return q.type === "mc"
          ? { question_id: q.id, option_id: a?.optionId ?? null, answer_text: null, time_sec }
          : { question_id: q.id, option_id: null, answer_text: a?.text.trim() ? a.text : null, time_sec };
      }),
      timeTaken,
      quizId: quiz.quizId,
      ...(quiz.rushEventId ? { rushEventId: quiz.rushEventId } : {}),
    };
    // The saved copy goes with the submission; a refusal puts it back (below).
    localStorage.removeItem(storageKey(quiz.quizId));
    void sender.submit(body, { method: "post", action: `/test?id=${quiz.quizId}`, encType: "application/json" });
  }, [accumulate, answers, quiz, sender, submitting, timed]);

  // A refused or failed submission: the server's message (or the network one), the answers saved again, the
  // controls back. A successful one has redirected to the summary.
  const reply = sender.state === "idle" ? sender.data : undefined;
  useEffect(() => {
    if (!reply) return;
    setError(formError(reply) ?? T.submitError);
    setSubmitting(false);
    try {
      localStorage.setItem(storageKey(quiz.quizId), JSON.stringify(answers));
    } catch {
      // storage unavailable: answers stay in memory
    }
    // Only a new reply: the answers change while the student goes on.
    // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  }, [reply, quiz.quizId]);

  // A real exam ends at zero: the attempt is submitted when the countdown runs out.
  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (timed && remaining <= 0 && !autoSubmitted.current) {
      autoSubmitted.current = true;
      void submit();
    }
  }, [remaining, submit, timed]);

  const question = quiz.questions[index]!;
  const options = order[question.id] ?? [];
  const answer = answers[question.id];
  const setAnswer = (next: Answer) => setAnswers((all) => ({ ...all, [question.id]: next }));
  const choose = (optionId: number) =>
    setAnswer({ optionId: answer?.optionId === optionId ? null : optionId, text: "" });

  // Keyboard: A-E or 1-5 choose an option, arrow keys move between questions.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (submitting || reporting != null || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement | null;
      if (
        target &&
        (target.tagName === "INPUT" ||
          target.tagName === "TEXTAREA" ||
          target.tagName === "SELECT" ||
          target.isContentEditable)
      )
        return;
      if (e.key === "ArrowRight") {
        e.preventDefault();
        goTo(index + 1);
        return;
      }
      if (e.key === "ArrowLeft") {
        e.preventDefault();
        goTo(index - 1);
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

  const answeredCount = quiz.questions.filter((q) => isAnswered(answers[q.id])).length;
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
        <button type="button" className="btn btn--primary" onClick={submit} disabled={submitting}>
          {submitting ? T.submitting : T.submit}
        </button>
      </header>
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="quiz__layout">
        <article className="practice-card practice-stack question-card" aria-labelledby="question-text">
          <div className="question-card__head">
            <div className="row">
              <span className="chip">{TYPE_LABELS[question.type]}</span>
              {question.topic ? <span className="chip">{question.topic}</span> : null}
              <span className="chip">{DIFFICULTY_LABELS[question.difficulty] ?? ""}</span>
            </div>
            {reported.has(question.id) ? (
              <span className="chip chip--warn">{T.alreadyReported}</span>
            ) : (
              <button
                type="button"
                className="btn btn--small"
                onClick={() => setReporting(question.id)}
                disabled={submitting}
              >
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
                    disabled={submitting}
                    onClick={() => choose(o.id)}
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
              boxes={quiz.gapBoxes}
              value={answer?.text ?? ""}
              disabled={submitting}
              onChange={(text) => setAnswer({ optionId: null, text })}
            />
          )}
          <div className="quiz__arrows">
            <button
              type="button"
              className="btn"
              onClick={() => goTo(index - 1)}
              disabled={submitting || index === 0}
              aria-label={T.previous}
            >
              ←
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => goTo(index + 1)}
              disabled={submitting || index === total - 1}
              aria-label={T.next}
            >
              →
            </button>
          </div>
        </article>
        <nav className="practice-card practice-stack" aria-labelledby="navigator-title">
          <h2 id="navigator-title" style={{ margin: 0, fontSize: "1.1rem" }}>
            {T.navigator}
          </h2>
          <p className="muted small" style={{ margin: 0 }}>
            {answeredCount}/{total} risposte date
          </p>
          <div className="navigator__grid">
            {quiz.questions.map((q, i) => {
              const done = isAnswered(answers[q.id]);
              return (
                <button
                  key={q.id}
                  type="button"
                  className={`navigator__item${done ? " navigator__item--answered" : ""}`}
                  aria-current={i === index ? "step" : undefined}
                  aria-label={`Domanda ${i + 1}${done ? ", risposta data" : ""}`}
                  disabled={submitting}
                  onClick={() => goTo(i)}
                >
                  {i + 1}
                </button>
              );
            })}
          </div>
        </nav>
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
