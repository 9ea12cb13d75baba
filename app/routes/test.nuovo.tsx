import { useEffect, useId, useMemo, useState } from "react";
import { useLoaderData, useRouteLoaderData, useSearchParams, useSubmit } from "react-router";
import { DownloadedQuizzes } from "~/components/offline/DownloadedQuizzes";
import type { loader as layoutLoader } from "./app-layout";
import { T } from "~/components/quiz/messages";
import { L } from "~/components/learning/messages";
import { StaleNotice } from "~/components/quiz/StaleNotice";
import { SubjectTopicPicker } from "~/components/SubjectTopicPicker";
import { MAX_QUESTIONS, MIN_QUESTIONS, QUESTION_PRESETS, TIMER_LEVELS } from "~/lib/constants";
import { saveCache, withOfflineCache } from "~/lib/offline-cache";
import {
  clampQuestionCount,
  formatClock,
  TIMER_CHOICES,
  timerChoiceFromTotal,
  timerTotalSeconds,
  type TimerChoice,
} from "~/lib/timer";
import { dbOf } from "~/server/context";
import { requirePageUser } from "~/server/page-guard.server";
import { listEditions } from "~/server/editions.server";
import { practiceExtraPct } from "~/server/accommodations.server";
import { unitsText } from "~/lib/study-plan-text";
import { EXTRA_TIME_TEXT, extendedSeconds } from "~/lib/simulation-day";
import { catalogue } from "~/server/quiz.server";
import { editionChoice, FullPaper } from "~/components/quiz/FullPaper";
import "~/styles/quiz.css";
import type { Route } from "./+types/test.nuovo";

const CACHE_KEY = "unicum_subjects";
const DEFAULT_COUNT = 10;

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  const [subjects, editions, extraPct] = await Promise.all([
    catalogue(db),
    listEditions(db),
    practiceExtraPct(db, user.id),
  ]);
  return { subjects, editions: editions.map(editionChoice), extraPct };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return withOfflineCache(CACHE_KEY, serverLoader);
}

type Subject = Awaited<ReturnType<typeof loader>>["subjects"][number];

/** Reads subject, topic (id or name), q and time from the query string. */
function prefill(params: URLSearchParams, subjects: Subject[]) {
  const subject = subjects.find((s) => String(s.id) === params.get("subject")) ?? null;
  const topicParam = params.get("topic")?.trim().toLowerCase() ?? "";
  const topic =
    subject && topicParam
      ? subject.topics.find((t) => String(t.id) === topicParam || t.name.toLowerCase() === topicParam)
      : undefined;
  const q = params.has("q") ? clampQuestionCount(params.get("q"), DEFAULT_COUNT) : DEFAULT_COUNT;
  const time = Number(params.get("time"));
  return {
    subjectId: subject?.id ?? null,
    topicId: topic?.id ?? null,
    count: q,
    timer: timerChoiceFromTotal(Number.isFinite(time) ? time : null, q),
  };
}

export default function NewTest() {
  const data = useLoaderData<typeof clientLoader>();
  const { subjects } = data;
  const [params] = useSearchParams();
  const submit = useSubmit();
  const initial = useMemo(() => prefill(params, subjects), [params, subjects]);
  const [subjectId, setSubjectId] = useState<number | null>(initial.subjectId);
  const [topicId, setTopicId] = useState<number | null>(initial.topicId);
  const [count, setCount] = useState<number>(initial.count);
  const [countText, setCountText] = useState<string>(String(initial.count));
  const [timer, setTimer] = useState<TimerChoice>(initial.timer);
  const [mode, setMode] = useState<"random" | "mirato">(params.get("mode") === "mirato" ? "mirato" : "random");
  // A plan's practice item names its units ("unità 3 e 6", issue 46): the draw keeps to them.
  const units = useMemo(() => {
    const raw = params.get("units") ?? "";
    return /^\d{1,2}(,\d{1,2}){0,11}$/.test(raw) ? raw.split(",").map(Number) : [];
  }, [params]);
  const ids = { count: useId(), hint: useId(), mode: useId() };

  useEffect(() => {
    if (!data.stale) saveCache(CACHE_KEY, { subjects });
  }, [data.stale, subjects]);

  useEffect(() => {
    setSubjectId(initial.subjectId);
    setTopicId(initial.topicId);
    setCount(initial.count);
    setCountText(String(initial.count));
    setTimer(initial.timer);
  }, [initial]);

  const subject = subjects.find((s) => s.id === subjectId) ?? null;
  const topic = subject?.topics.find((t) => t.id === topicId) ?? null;
  const total = timerTotalSeconds(timer, count);

  const setCountClamped = (value: unknown) => {
    const n = clampQuestionCount(value, count);
    setCount(n);
    setCountText(String(n));
  };

  // The server extends the timer by the pupil's accommodation (quiz.server.ts); the summary shows the real total.
  const extraPct = data.extraPct ?? 0;
  const extra = extraPct ? ` · ${EXTRA_TIME_TEXT.practiceApplied(extraPct)}` : "";
  const timerText =
    timer === "nessuno"
      ? "senza timer"
      : `timer ${formatClock(extendedSeconds(total, extraPct)!)} (${TIMER_LEVELS[timer]} s a domanda${extra})`;
  const summary = subject
    ? `${subject.name} · ${topic?.name ?? T.allTopics} · ${count} ${count === 1 ? "domanda" : "domande"} · ${timerText}${mode === "mirato" ? ` · ${L.modeTargeted.toLowerCase()}` : ""}${units.length ? ` · solo ${unitsText(units)}` : ""}`
    : "Scegli una materia per iniziare.";

  // The draw request of these settings (newQuizSchema): "Avvia test" posts it, "Scarica per l'offline" sends it too.
  const request = useMemo(() => {
    if (!subject) return null;
    const fields: Record<string, string> = { subjectId: String(subject.id), count: String(count) };
    if (topic) fields.topicId = String(topic.id);
    if (total) fields.time = String(total);
    if (mode === "mirato") fields.mode = "mirato";
    if (units.length) fields.units = units.join(",");
    return fields;
  }, [subject, topic, count, total, mode, units]);
  const account = useRouteLoaderData<typeof layoutLoader>("routes/app-layout")?.user.id;

  // The quiz is drawn by the /test route's action (newQuizSchema), which redirects to the runner.
  const start = () => {
    if (request) void submit(request, { method: "post", action: "/test" });
  };

  return (
    <section className="page newtest practice-stack">
      <h1 className="page__title">{T.newTestTitle}</h1>
      <StaleNotice stale={data.stale} cachedAt={data.cachedAt} />
      <form
        className="practice-card practice-stack"
        onSubmit={(e) => {
          e.preventDefault();
          start();
        }}
      >
        <SubjectTopicPicker
          subjects={subjects}
          topics={subject?.topics ?? []}
          subjectId={subjectId}
          topicId={topicId}
          onChange={(nextSubject, nextTopic) => {
            setSubjectId(nextSubject);
            setTopicId(nextTopic);
          }}
          noSubject={T.chooseSubject}
          topicDisabled={!subject}
        />
        <div className="field">
          <label htmlFor={ids.count}>{T.questionCount}</label>
          <div className="stepper">
            <button
              type="button"
              className="btn"
              aria-label={T.decrease}
              onClick={() => setCountClamped(count - 1)}
              disabled={count <= MIN_QUESTIONS}
            >
              −
            </button>
            <input
              id={ids.count}
              className="input"
              type="number"
              inputMode="numeric"
              min={MIN_QUESTIONS}
              max={MAX_QUESTIONS}
              value={countText}
              aria-describedby={ids.hint}
              onChange={(e) => {
                setCountText(e.target.value);
                if (e.target.value !== "") setCount(clampQuestionCount(e.target.value, count));
              }}
              onBlur={() => setCountClamped(countText === "" ? count : countText)}
            />
            <button
              type="button"
              className="btn"
              aria-label={T.increase}
              onClick={() => setCountClamped(count + 1)}
              disabled={count >= MAX_QUESTIONS}
            >
              +
            </button>
          </div>
          <input
            className="range"
            type="range"
            min={MIN_QUESTIONS}
            max={MAX_QUESTIONS}
            value={count}
            aria-label={T.questionCountSlider}
            onChange={(e) => setCountClamped(e.target.value)}
          />
          <div className="row" role="group" aria-label="Scelte rapide">
            {QUESTION_PRESETS.map((n) => (
              <button
                key={n}
                type="button"
                className="btn btn--small"
                aria-pressed={count === n}
                onClick={() => setCountClamped(n)}
              >
                {n}
              </button>
            ))}
          </div>
          <p id={ids.hint} className="muted small" style={{ margin: 0 }}>
            {T.countHint}
          </p>
        </div>
        <fieldset className="field" style={{ border: "none", padding: 0, margin: 0 }} aria-describedby={ids.mode}>
          <legend>{L.modeLabel}</legend>
          <div className="timer-choices">
            {(
              [
                ["random", L.modeRandom],
                ["mirato", L.modeTargeted],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="timer-choice">
                <input
                  type="radio"
                  name="mode"
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                />
                <span>{label}</span>
              </label>
            ))}
          </div>
          <p id={ids.mode} className="muted small" style={{ margin: 0 }}>
            {L.modeTargetedHint}
          </p>
        </fieldset>
        <fieldset className="field" style={{ border: "none", padding: 0, margin: 0 }}>
          <legend>{T.timer}</legend>
          <div className="timer-choices">
            {TIMER_CHOICES.map((c) => (
              <label key={c.value} className="timer-choice">
                <input
                  type="radio"
                  name="timer"
                  value={c.value}
                  checked={timer === c.value}
                  onChange={() => setTimer(c.value)}
                />
                <span>
                  {c.label}
                  {c.value !== "nessuno" ? <span className="muted small"> · {TIMER_LEVELS[c.value]} s</span> : null}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <p className="summary-line" aria-live="polite" data-testid="summary-line">
          {summary}
        </p>
        <div>
          <button type="submit" className="btn btn--primary" disabled={!subject}>
            {T.start}
          </button>
        </div>
      </form>
      <FullPaper
        editions={data.editions ?? []}
        subject={subject}
        onStart={(fields) => void submit(fields, { method: "post", action: "/test" })}
      />
      {account != null ? <DownloadedQuizzes account={account} request={request} /> : null}
    </section>
  );
}
