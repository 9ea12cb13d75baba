import { useEffect, useId, useMemo, useState } from "react";
import { Link, useLoaderData, useNavigate } from "react-router";
import { formatDateTime, formatDuration, partialReason, T } from "~/components/quiz/messages";
import { StaleNotice } from "~/components/quiz/StaleNotice";
import { OfflineChip } from "~/components/offline/OfflineChip";
import { ATTEMPT_LIST_LIMIT, PAGE_SIZE, SCORE_SCALE } from "~/lib/constants";
import { saveCache, withOfflineCache } from "~/lib/offline-cache";
import { listAttempts, type AttemptListItem } from "~/server/attempt-reads.server";
import { filterAttempts, SORTS, type Sort } from "~/lib/attempt-filters";
import { dbOf } from "~/server/context";
import { requirePageUser } from "~/server/page-guard.server";
import "~/styles/quiz.css";
import type { Route } from "./+types/tentativi";

const CACHE_KEY = "unicum_attempts_json";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  return { attempts: await listAttempts(dbOf(args.context), user.id, ATTEMPT_LIST_LIMIT) };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  return withOfflineCache(CACHE_KEY, serverLoader);
}

export default function PastAttempts() {
  const data = useLoaderData<typeof clientLoader>();
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [completed, setCompleted] = useState(true);
  const [abandoned, setAbandoned] = useState(true);
  const [sort, setSort] = useState<Sort>("date_desc");
  const [page, setPage] = useState(0);
  const ids = { search: useId(), from: useId(), to: useId(), sort: useId() };

  useEffect(() => {
    if (!data.stale) saveCache(CACHE_KEY, { attempts: data.attempts });
  }, [data]);

  const filtered = useMemo(
    () => filterAttempts(data.attempts, { search, from, to, completed, abandoned, sort }),
    [data.attempts, search, from, to, completed, abandoned, sort],
  );
  useEffect(() => setPage(0), [search, from, to, completed, abandoned, sort]);
  const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = filtered.slice(current * PAGE_SIZE, current * PAGE_SIZE + PAGE_SIZE);

  const repeat = (a: AttemptListItem) => {
    const q = new URLSearchParams();
    if (a.subjectId) q.set("subject", String(a.subjectId));
    // The quiz's own topic when it was drawn here; otherwise the attempt's first topic.
    const topic = a.hasQuiz ? a.quizTopicId : (a.topicIds[0] ?? null);
    if (topic != null) q.set("topic", String(topic));
    q.set("q", String(a.total + (a.hidden ?? 0)));
    if (a.timeLimitSec) q.set("time", String(a.timeLimitSec));
    navigate(`/test/nuovo?${q}`);
  };

  return (
    <section className="page practice-stack">
      <h1 className="page__title">{T.attemptsTitle}</h1>
      <StaleNotice stale={data.stale} cachedAt={data.cachedAt} />
      <div className="practice-card filters" role="search">
        <div className="field">
          <label htmlFor={ids.search}>{T.search}</label>
          <input
            id={ids.search}
            className="input"
            type="search"
            placeholder={T.searchPlaceholder}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.from}>{T.from}</label>
          <input id={ids.from} className="input" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>{T.to}</label>
          <input id={ids.to} className="input" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.sort}>{T.sort}</label>
          <select id={ids.sort} className="select" value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="row filters__full" style={{ border: "none", padding: 0, margin: 0 }}>
          <legend className="visually-hidden">Stato</legend>
          <label className="timer-choice">
            <input type="checkbox" checked={completed} onChange={(e) => setCompleted(e.target.checked)} /> {T.completed}
          </label>
          <label className="timer-choice">
            <input type="checkbox" checked={abandoned} onChange={(e) => setAbandoned(e.target.checked)} /> {T.abandoned}
          </label>
        </fieldset>
      </div>

      <p className="muted" aria-live="polite" style={{ margin: 0 }}>
        {filtered.length} {filtered.length === 1 ? "tentativo" : "tentativi"}
      </p>
      {shown.length === 0 ? (
        <p className="practice-card">{T.attemptsEmpty}</p>
      ) : (
        <ul className="list" aria-label={T.attemptsTitle}>
          {shown.map((a) => (
            <li key={a.id} className="list-item" data-testid="attempt-item">
              <div>
                <h3>
                  #{a.id} · {a.subjectName ?? "Materie miste"}
                </h3>
                <p className="muted small" style={{ margin: 0 }}>
                  {formatDateTime(a.date)} · {a.topics.slice(0, 3).join(", ")}
                  {a.topics.length > 3 ? ` e altri ${a.topics.length - 3}` : ""}
                </p>
                <div className="row small" style={{ marginTop: "0.35rem" }}>
                  {a.status === "completed" ? (
                    <>
                      <span className="chip chip--ok">Completato</span>
                      <span className="chip" data-testid="attempt-score">
                        {a.score}/{SCORE_SCALE}
                      </span>
                      <span className="chip">
                        {a.correct}/{a.total} corrette
                      </span>
                      {a.partial ? (
                        <span className="chip chip--warn" title={partialReason(a.partial)}>
                          {T.partialShort}
                        </span>
                      ) : null}
                      <span className="chip">{formatDuration(a.timeSec)}</span>
                      {a.offline ? <OfflineChip /> : null}
                    </>
                  ) : (
                    <>
                      <span className="chip chip--bad">Interrotto</span>
                      <span className="chip">{a.total} domande</span>
                      {a.offline ? <OfflineChip /> : null}
                    </>
                  )}
                </div>
              </div>
              <div className="row">
                {a.status === "completed" ? (
                  <Link
                    className="btn btn--small"
                    to={`/test/riepilogo/${a.id}`}
                    aria-label={`Riepilogo del tentativo ${a.id}`}
                  >
                    Riepilogo
                  </Link>
                ) : null}
                <button
                  type="button"
                  className="btn btn--small"
                  onClick={() => repeat(a)}
                  aria-label={`${T.repeat} il tentativo ${a.id}`}
                >
                  {T.repeat}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav className="pager" aria-label="Pagine">
          <button
            type="button"
            className="btn btn--small"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          >
            Precedente
          </button>
          <span>
            Pagina {current + 1} di {pages}
          </span>
          <button
            type="button"
            className="btn btn--small"
            disabled={current >= pages - 1}
            onClick={() => setPage(current + 1)}
          >
            Successiva
          </button>
        </nav>
      ) : null}
    </section>
  );
}
