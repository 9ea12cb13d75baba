import { formatDecimal } from "~/lib/format";
import { useEffect, useRef, useState } from "react";
import { Link, useLoaderData } from "react-router";
import {
  formatDateTime,
  formatDuration,
  LETTERS,
  partialDetail,
  partialReason,
  T,
  TYPE_LABELS,
} from "~/components/quiz/messages";
import { ReportModal } from "~/components/quiz/ReportModal";
import { DIFFICULTY_LABELS, SCORE_SCALE } from "~/lib/constants";
import {
  ATTEMPT_NOT_FOUND,
  attemptSummary,
  latestCompletedAttemptId,
  type AttemptSummary,
} from "~/server/attempt-reads.server";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { requirePageUser } from "~/server/page-guard.server";
import "~/styles/quiz.css";
import type { Route } from "./+types/test.riepilogo";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  const raw = args.params.attemptId;
  // Without an id: the last stored result.
  const id = raw === undefined ? await latestCompletedAttemptId(db, user.id) : Number(raw);
  if (id == null) return { summary: null, error: "Nessun tentativo" };
  if (!Number.isInteger(id) || id <= 0) return { summary: null, error: ATTEMPT_NOT_FOUND };
  try {
    return { summary: await attemptSummary(db, user, id), error: null };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { summary: null, error: ATTEMPT_NOT_FOUND };
    throw error;
  }
}

const SENT_CLOSE_MS = 900;

function signed(score: number): string {
  const abs = formatDecimal(Math.abs(score), 3);
  return score > 0 ? `+${abs}` : score < 0 ? `−${abs}` : "0";
}

export default function SummaryScreen() {
  const { summary, error } = useLoaderData<typeof loader>();
  if (!summary) {
    return (
      <section className="page practice-stack">
        <h1 className="page__title">{T.summaryTitle}</h1>
        <p className="alert alert--error" role="alert">
          {error}
        </p>
        <p className="row">
          <Link className="btn" to="/tentativi">
            Tentativi
          </Link>
          <Link className="btn btn--primary" to="/test/nuovo">
            Nuovo test
          </Link>
        </p>
      </section>
    );
  }
  return <Summary summary={summary as AttemptSummary} />;
}

function Summary({ summary }: { summary: AttemptSummary }) {
  const [reporting, setReporting] = useState<number | null>(null);
  const [reported, setReported] = useState<Set<number>>(() => new Set());
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  const reportingQuestion = summary.questions.find((q) => q.id === reporting);
  const rushScore = Math.min(SCORE_SCALE, Math.max(0, summary.score));

  return (
    <section className="page practice-stack">
      <header className="row row--between">
        <div>
          <h1 className="page__title" style={{ marginBottom: "0.25rem" }}>
            {T.summaryTitle} #{summary.attemptId}
          </h1>
          <p className="muted" style={{ margin: 0 }}>
            {summary.subjectName ?? "Materie miste"} · Iniziato {formatDateTime(summary.startedAt)} · Consegnato{" "}
            {formatDateTime(summary.finishedAt)}
          </p>
        </div>
        <div className="row">
          {summary.rushEventId && summary.subjectId ? (
            <Link className="btn" to={`/rush?rushDone=1&subject=${summary.subjectId}&score=${rushScore}`}>
              Torna a Quiz Rush
            </Link>
          ) : null}
          <Link className="btn" to="/tentativi">
            Tentativi
          </Link>
          <Link className="btn btn--primary" to="/test/nuovo">
            Nuovo test
          </Link>
        </div>
      </header>

      <div className="score-grid" role="group" aria-label="Risultato">
        <div className="stat">
          <span className="stat__value" data-testid="summary-score">
            {formatDecimal(summary.score, 1, 1)}/{SCORE_SCALE}
          </span>
          <span className="stat__label">Punteggio</span>
        </div>
        {summary.grade ? (
          <div className="stat" data-testid="summary-grade" data-passed={summary.grade.passed}>
            <span className="stat__value">{summary.grade.label}</span>
            <span className="stat__label">
              {T.summaryGrade} ({summary.grade.passed ? T.summaryGradePassed : T.summaryGradeFailed})
            </span>
          </div>
        ) : null}
        <div className="stat">
          <span className="stat__value" data-testid="summary-percent">
            {summary.percentCorrect}%
          </span>
          <span className="stat__label">Risposte corrette</span>
        </div>
        <div className="stat">
          <span className="stat__value">{formatDuration(summary.totalTimeSec)}</span>
          <span className="stat__label">Tempo totale</span>
        </div>
        <div className="stat">
          <span className="stat__value">{formatDuration(summary.avgTimeSec)}</span>
          <span className="stat__label">Tempo medio per domanda</span>
        </div>
      </div>
      {summary.partial ? (
        <p className="alert" role="status" data-testid="summary-partial">
          <strong>{partialReason(summary.partial)}</strong>: {partialDetail(summary.hidden)}
        </p>
      ) : null}
      {summary.edition ? (
        <p className="muted small" data-testid="summary-edition" style={{ margin: 0 }}>
          {T.summaryEdition(summary.edition.label)}
          {summary.grade ? ` · ${T.summaryFullPaper}` : ""}
        </p>
      ) : null}
      <p className="muted" data-testid="summary-counts" style={{ margin: 0 }}>
        {summary.correct} corrette · {summary.wrong} sbagliate · {summary.blank} senza risposta · {summary.total}{" "}
        domande. Ogni risposta corretta vale {SCORE_SCALE}/{summary.total}, ogni risposta sbagliata toglie 0,1 punti, le
        domande senza risposta non tolgono nulla.
      </p>

      <ol className="list" aria-label="Domande">
        {summary.questions.map((q) => {
          const state = q.sealed ? "sealed" : q.correct == null ? "blank" : q.correct ? "correct" : "wrong";
          return (
            <li
              key={q.id}
              className={`practice-card practice-stack review-q review-q--${state}`}
              data-testid="summary-question"
              data-state={state}
            >
              <div className="question-card__head">
                <div className="row">
                  <strong>Domanda {q.index}</strong>
                  <span className="chip">{TYPE_LABELS[q.type]}</span>
                  {q.topic ? <span className="chip">{q.topic}</span> : null}
                  <span className="chip">{DIFFICULTY_LABELS[q.difficulty] ?? ""}</span>
                  {q.sealed ? (
                    <span className="chip chip--warn">{T.sealedChip}</span>
                  ) : (
                    <span className={`chip ${state === "correct" ? "chip--ok" : state === "wrong" ? "chip--bad" : ""}`}>
                      {state === "correct" ? "Corretta" : state === "wrong" ? "Sbagliata" : "Senza risposta"} ·{" "}
                      {signed(q.score ?? 0)}
                    </span>
                  )}
                  <span className="chip">{formatDuration(q.timeSec)}</span>
                </div>
                {reported.has(q.id) ? (
                  <span className="chip chip--warn">{T.alreadyReported}</span>
                ) : (
                  <button type="button" className="btn btn--small" onClick={() => setReporting(q.id)}>
                    {T.report}
                  </button>
                )}
              </div>
              <p className="question-card__text" style={{ margin: 0 }}>
                {q.text}
              </p>
              {q.type === "mc" ? (
                <ul className="options">
                  {q.options.map((text, i) => {
                    const isAnswer = i === q.answerIndex;
                    const isSelected = i === q.selectedIndex;
                    return (
                      <li
                        key={i}
                        className={`option${isAnswer ? " option--correct" : isSelected && !q.sealed ? " option--wrong" : ""}`}
                      >
                        <span className="option__letter" aria-hidden="true">
                          {LETTERS[i]}
                        </span>
                        <span>
                          {text}
                          {isAnswer ? <strong> · risposta corretta</strong> : null}
                          {isSelected ? <em> · la tua risposta</em> : null}
                        </span>
                      </li>
                    );
                  })}
                </ul>
              ) : null}
              {q.sealed ? <p className="alert">{T.sealedNote}</p> : null}
              <dl className="details">
                {q.sealed ? null : (
                  <>
                    <dt>Risposta corretta</dt>
                    <dd>{q.correctText}</dd>
                  </>
                )}
                <dt>La tua risposta</dt>
                <dd>{q.userText ?? (q.sealed ? T.sealedAnswer : "Nessuna risposta")}</dd>
                {q.sheetForm ? (
                  <>
                    <dt>Sul foglio d'esame</dt>
                    <dd>scrivi {q.sheetForm}</dd>
                  </>
                ) : null}
              </dl>
              {q.explanation ? (
                <div className="explanation">
                  <strong>Spiegazione:</strong> {q.explanation}
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>

      {reportingQuestion ? (
        <ReportModal
          texts={{
            title: T.summaryReportTitle,
            label: T.summaryReason,
            send: T.reportSend,
            failedPrefix: T.summaryReportFailedPrefix,
            failedDefault: T.summaryReportFailedDefault,
            success: T.summaryReportSent,
          }}
          questionNumber={reportingQuestion.index}
          payload={{
            attemptId: summary.attemptId,
            questionId: reportingQuestion.id,
            userAnswerKey:
              reportingQuestion.type === "mc"
                ? reportingQuestion.selectedIndex != null
                  ? LETTERS[reportingQuestion.selectedIndex]
                  : ""
                : (reportingQuestion.userText ?? ""),
          }}
          messageField="note"
          onClose={() => setReporting(null)}
          onSent={() => {
            const id = reportingQuestion.id;
            setReported((s) => new Set(s).add(id));
            closeTimer.current = setTimeout(() => setReporting(null), SENT_CLOSE_MS);
          }}
        />
      ) : null}
    </section>
  );
}
