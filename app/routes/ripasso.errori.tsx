import { useEffect, useId, useMemo, useState } from "react";
import { useLoaderData, useNavigate } from "react-router";
import { T } from "~/components/quiz/messages";
import { StaleNotice } from "~/components/quiz/StaleNotice";
import { SubjectTopicPicker } from "~/components/SubjectTopicPicker";
import { DEFAULT_REVIEW_COUNT, MAX_QUESTIONS, MIN_QUESTIONS, REVIEW_PAUSED_SHOWN } from "~/lib/constants";
import { saveCache, withOfflineCache } from "~/lib/offline-cache";
import { O } from "~/components/offline/messages";
import { formatCountdown, isReviewPaused, sample } from "~/lib/review";
import { clampQuestionCount } from "~/lib/timer";
import { dbOf } from "~/server/context";
import { requirePageUser } from "~/server/page-guard.server";
import { dueReview } from "~/server/learning-advice.server";
import { listWrongQuestions } from "~/server/review.server";
import { L } from "~/components/learning/messages";
import "~/styles/quiz.css";
import type { Route } from "./+types/ripasso.errori";

const CACHE_KEY = "wrong_questions-all";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  // `now` comes with the data, so the server and the hydrating browser print the same countdowns.
  const db = dbOf(args.context);
  const now = Date.now();
  const [items, due] = await Promise.all([listWrongQuestions(db, user.id, now), dueReview(db, user.id, 0, now)]);
  // The review of the day: due questions (FSRS), most overdue first, at most one quiz's worth.
  return { items, now, dueCount: due.count, dueIds: due.due.slice(0, MAX_QUESTIONS).map((d) => d.questionId) };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return withOfflineCache(CACHE_KEY, serverLoader);
}

type StateFilter = "all" | "ready" | "paused";

export default function ReviewMistakes() {
  const data = useLoaderData<typeof clientLoader>();
  const navigate = useNavigate();
  const [now, setNow] = useState(() => (data.stale ? Date.now() : data.now));
  const [subjectId, setSubjectId] = useState<number | null>(null);
  const [topicId, setTopicId] = useState<number | null>(null);
  const [state, setState] = useState<StateFilter>("all");
  const [count, setCount] = useState(String(DEFAULT_REVIEW_COUNT));
  const ids = { state: useId(), count: useId() };

  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(id);
  }, []);
  useEffect(() => {
    if (data.stale) return;
    saveCache(CACHE_KEY, { items: data.items });
    // Per-subject copies under the spec's key wrong_questions-{subjectId}.
    const bySubject = new Map<number, typeof data.items>();
    for (const item of data.items) bySubject.set(item.subjectId, [...(bySubject.get(item.subjectId) ?? []), item]);
    for (const [id, items] of bySubject) saveCache(`wrong_questions-${id}`, { items });
  }, [data]);

  // The paused state follows the clock of this page, so the list changes while it stays open.
  const items = useMemo(
    () => data.items.map((i) => ({ ...i, paused: isReviewPaused(Date.parse(i.lastWrongAt), now) })),
    [data.items, now],
  );
  const subjects = useMemo(() => {
    const map = new Map<number, string>();
    for (const i of items) map.set(i.subjectId, i.subjectName);
    return [...map].sort((a, b) => a[0] - b[0]).map(([id, name]) => ({ id, name }));
  }, [items]);
  const topics = useMemo(() => {
    const map = new Map<number, string>();
    for (const i of items) if (i.subjectId === subjectId && i.topicId != null) map.set(i.topicId, i.topicName ?? "");
    return [...map].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => ({ id, name }));
  }, [items, subjectId]);

  const filtered = items.filter(
    (i) =>
      (subjectId == null || i.subjectId === subjectId) &&
      (topicId == null || i.topicId === topicId) &&
      (state === "all" || (state === "paused" ? i.paused : !i.paused)),
  );
  const ready = filtered.filter((i) => !i.paused);
  const paused = filtered.filter((i) => i.paused);
  const nextReady = paused.length ? Math.min(...paused.map((i) => Date.parse(i.readyAt))) : null;
  const canStart = subjectId != null && ready.length > 0;

  const dueCount = data.dueCount ?? 0;
  const dueIds = data.dueIds ?? [];
  const startDue = () => {
    if (dueIds.length === 0) return;
    localStorage.setItem("redo_ids", JSON.stringify(dueIds));
    localStorage.removeItem("redo_subject");
    navigate("/test?redo=1");
  };

  const start = () => {
    if (!canStart) return;
    const picked = sample(ready, clampQuestionCount(count, DEFAULT_REVIEW_COUNT)).map((i) => i.id);
    localStorage.setItem("redo_ids", JSON.stringify(picked));
    localStorage.setItem("redo_subject", String(subjectId));
    navigate("/test?redo=1");
  };

  return (
    <section className="page practice-stack">
      <h1 className="page__title">{T.reviewTitle}</h1>
      <StaleNotice stale={data.stale} cachedAt={data.cachedAt} />
      {data.stale ? null : (
        <div className="practice-card row row--between" data-testid="review-of-the-day">
          <div>
            <h2 style={{ fontSize: "1.1rem", margin: 0 }}>{L.reviewOfTheDayLine(dueCount)}</h2>
            <p className="muted small" style={{ margin: 0 }}>
              {dueCount > 0 ? L.reviewHint : L.reviewNone}
            </p>
          </div>
          <button type="button" className="btn btn--primary" onClick={startDue} disabled={dueIds.length === 0}>
            {L.reviewStart(dueIds.length)}
          </button>
        </div>
      )}
      {items.length === 0 ? (
        <p className="practice-card">{T.noRedo}</p>
      ) : (
        <>
          <div className="practice-card filters">
            <SubjectTopicPicker
              subjects={subjects}
              topics={topics}
              subjectId={subjectId}
              topicId={topicId}
              onChange={(nextSubject, nextTopic) => {
                setSubjectId(nextSubject);
                setTopicId(nextTopic);
              }}
              noSubject="Tutte le materie"
              topicDisabled={subjectId == null}
            />
            <div className="field">
              <label htmlFor={ids.state}>Stato</label>
              <select
                id={ids.state}
                className="select"
                value={state}
                onChange={(e) => setState(e.target.value as StateFilter)}
              >
                <option value="all">Tutte</option>
                <option value="ready">Pronte</option>
                <option value="paused">In pausa</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor={ids.count}>{T.reviewCount}</label>
              <input
                id={ids.count}
                className="input"
                type="number"
                min={MIN_QUESTIONS}
                max={MAX_QUESTIONS}
                value={count}
                onChange={(e) => setCount(e.target.value)}
                onBlur={() => setCount(String(clampQuestionCount(count, DEFAULT_REVIEW_COUNT)))}
              />
            </div>
          </div>
          <div className="row row--between">
            <p className="muted" style={{ margin: 0 }} data-testid="review-counts">
              {ready.length} pronte · {paused.length} in pausa
              {nextReady != null ? ` · Prossima pronta tra ${formatCountdown(nextReady - now)}` : ""}
            </p>
            <button type="button" className="btn btn--primary" onClick={start} disabled={!canStart}>
              {T.reviewStart}
            </button>
          </div>
          {subjectId == null ? (
            <p className="muted small" style={{ margin: 0 }}>
              Scegli una materia per avviare il ripasso.
            </p>
          ) : null}
          {filtered.length === 0 ? (
            <p className="practice-card">{T.reviewEmptyFilters}</p>
          ) : (
            <>
              {ready.length > 0 ? (
                <section className="practice-stack" aria-labelledby="ready-title">
                  <h2 id="ready-title" style={{ fontSize: "1.1rem", margin: 0 }}>
                    Pronte per il ripasso
                  </h2>
                  <ul className="list">
                    {ready.map((i) => (
                      <li key={i.id} className="list-item" data-testid="wrong-item">
                        <div>
                          <h3>{i.questionText}</h3>
                          <p className="muted small" style={{ margin: 0 }}>
                            {i.subjectName}
                            {i.topicName ? ` · ${i.topicName}` : ""}
                            {i.offline ? ` · ${O.wrongOffline}` : ""}
                          </p>
                        </div>
                        <span className="chip chip--ok">pronta</span>
                      </li>
                    ))}
                  </ul>
                </section>
              ) : null}
              {paused.length > 0 ? (
                <section className="practice-stack" aria-labelledby="paused-title">
                  <h2 id="paused-title" style={{ fontSize: "1.1rem", margin: 0 }}>
                    In pausa (24 ore dall'ultimo errore)
                  </h2>
                  <ul className="list">
                    {paused.slice(0, REVIEW_PAUSED_SHOWN).map((i) => (
                      <li key={i.id} className="list-item" data-testid="wrong-item">
                        <div>
                          <h3>{i.questionText}</h3>
                          <p className="muted small" style={{ margin: 0 }}>
                            {i.subjectName}
                            {i.topicName ? ` · ${i.topicName}` : ""}
                            {i.offline ? ` · ${O.wrongOffline}` : ""} · pronta tra{" "}
                            {formatCountdown(Date.parse(i.readyAt) - now)}
                          </p>
                        </div>
                        <span className="chip chip--warn">{T.paused}</span>
                      </li>
                    ))}
                  </ul>
                  {paused.length > REVIEW_PAUSED_SHOWN ? (
                    <p className="muted">e altre {paused.length - REVIEW_PAUSED_SHOWN}</p>
                  ) : null}
                </section>
              ) : null}
            </>
          )}
        </>
      )}
    </section>
  );
}
