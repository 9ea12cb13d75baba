// /rush: the Quiz Rush dashboard. Everything shown comes from the server (event, graded subjects,
// positions); the local caches of the spec are written from it and read back only if the server fails.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import {
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
  useRevalidator,
  useSearchParams,
  useSubmit,
} from "react-router";
import { OverallCard, SubjectRankingCard } from "~/components/rush/RankingCards";
import { CountdownCard } from "~/components/rush/CountdownCard";
import { clearRushCache, readRushCache, writeRushCache } from "~/components/rush/local-cache";
import { SubjectCard, type SubjectCardState } from "~/components/rush/SubjectCard";
import { useToast } from "~/components/ui/Toast";
import { DEFAULT_RUSH_QUESTION_COUNT } from "~/lib/constants";
import { formError } from "~/lib/forms";
import { rushStartSchema } from "~/lib/forms/new-quiz";
import { formatRomeDateTime, RUSH_STORAGE, RUSH_TEXT } from "~/lib/rush";
import { dbOf, getEnv } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { handleForm } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import { drawRequested } from "~/server/quiz.server";
import { limitAction } from "~/server/security.server";
import {
  checkRushStart,
  currentRushEvent,
  rushLeaderboard,
  rushProgressFor,
  rushSubjects,
  type RushLeaderboard,
  type RushProgress,
} from "~/server/rush.server";
import "~/styles/rush.css";
import type { Route } from "./+types/rush";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  const now = Date.now();
  const [subjects, event] = await Promise.all([rushSubjects(db), currentRushEvent(db, now)]);
  let progress: RushProgress | null = { items: [], pending: [] };
  let leaderboard: RushLeaderboard | null = null;
  if (event) {
    // Spec: failures of the rush data are silent; the screen then falls back to its caches / estimate.
    [progress, leaderboard] = await Promise.all([
      rushProgressFor(db, user.id, event.id).catch((error: unknown) => {
        console.error("rush progress failed", error);
        return null;
      }),
      rushLeaderboard(db, user.id, event.id).catch((error: unknown) => {
        console.error("rush leaderboard failed", error);
        return null;
      }),
    ]);
  }
  return { now, event, subjects, progress, leaderboard };
}

/**
 * "Avvia quiz": draws the Rush quiz of the active event and takes the student's one slot in the subject, then opens
 * it. Only this POST from our own page (the Worker's same-origin rule) starts a Rush quiz: a link cannot (issue 28).
 * Refusals (window closed, subject already done, too many draws) come back as the screen's alert.
 */
export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  return handleForm(args.request, rushStartSchema, async ({ subjectId }) => {
    if (!subjectId) throw new HttpError(400, "Scegli una materia (campo: Materia).");
    await limitAction(getEnv(args.context), "QUIZ_LIMITER", user.id);
    const event = await checkRushStart(db, { userId: user.id, subjectId });
    const drawn = await drawRequested(db, user.id, {
      subjectId,
      topicId: undefined,
      count: String(DEFAULT_RUSH_QUESTION_COUNT),
      rushEventId: event.id,
      edition: undefined,
      units: undefined,
    });
    throw redirect(`/test?id=${drawn.quizId}`);
  });
}

// Query parameters that only trigger a refresh (rushDone, subject, score: never a score) or a notice.
const TRANSIENT_PARAMS = ["rushDone", "subject", "score", "errore"];

export default function Rush() {
  const data = useLoaderData<typeof loader>();
  const { event, subjects } = data;
  const submit = useSubmit();
  const navigation = useNavigation();
  const refused = formError(useActionData<typeof action>());
  const revalidator = useRevalidator();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const [alert, setAlert] = useState<string | null>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const tooltipId = useId();

  // Server time: the loader's instant plus the time elapsed on this page (never the device clock).
  const [now, setNow] = useState(data.now);
  useEffect(() => {
    const base = performance.now();
    setNow(data.now);
    const timer = setInterval(() => setNow(data.now + (performance.now() - base)), 1000);
    return () => clearInterval(timer);
  }, [data.now]);

  // When the window closes while the page is open, ask the server again (once per loader answer).
  const ended = event != null && now >= event.endsAt;
  useEffect(() => {
    if (ended && revalidator.state === "idle") revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ended, data.now]);

  // rushDone/subject/score refresh the screen (the loader already ran) and are removed; errore shows its notice.
  useEffect(() => {
    if (!TRANSIENT_PARAMS.some((p) => params.has(p))) return;
    if (params.get("errore") === "duplicato") setAlert(RUSH_TEXT.duplicate);
    const next = new URLSearchParams(params);
    for (const p of TRANSIENT_PARAMS) next.delete(p);
    setParams(next, { replace: true, preventScrollReset: true });
  }, [params, setParams]);

  // A refused start (the server's Italian reason) is shown like the screen's own checks.
  useEffect(() => {
    if (refused && navigation.state === "idle") setAlert(refused);
  }, [refused, navigation.state]);

  useEffect(() => {
    if (alert) alertRef.current?.focus();
  }, [alert]);

  // Mirror the server's answer into the local caches, or read them back if the server failed.
  const [cached, setCached] = useState<ReturnType<typeof readRushCache>>([]);
  useEffect(() => {
    if (!event) return;
    if (data.progress) writeRushCache(event, data.progress.items);
    else setCached(readRushCache(event));
  }, [event, data.progress]);

  const items = data.progress?.items ?? cached;
  const pending = useMemo(() => new Set(data.progress?.pending ?? []), [data.progress]);
  const completedBySubject = useMemo(() => new Map(items.map((i) => [i.subjectId, i])), [items]);
  const active = event != null && now >= event.startsAt && now < event.endsAt;
  const completed = subjects.filter((s) => completedBySubject.has(s.id)).length;

  function start(subjectId: number) {
    if (!active || !event) {
      setAlert(RUSH_TEXT.noEvent);
      return;
    }
    if (completedBySubject.has(subjectId) || pending.has(subjectId)) {
      setAlert(RUSH_TEXT.duplicate);
      return;
    }
    if (navigation.state !== "idle") return;
    try {
      // Spec section 3's session keys, a record of what was started (nothing reads them to decide a draw).
      sessionStorage.setItem(RUSH_STORAGE.sessionSubject, String(subjectId));
      sessionStorage.setItem(RUSH_STORAGE.sessionEvent, String(event.id));
    } catch {
      // Storage may be unavailable (private mode).
    }
    setAlert(null);
    submit({ subjectId: String(subjectId) }, { method: "post", action: "/rush" });
  }

  function reset() {
    clearRushCache();
    setCached([]);
    toast(RUSH_TEXT.resetDone, "success");
  }

  function cardState(subjectId: number): SubjectCardState {
    const done = completedBySubject.get(subjectId);
    if (done) return { kind: "completed", score: done.score, at: done.at };
    if (pending.has(subjectId)) return { kind: "pending" };
    return { kind: "open" };
  }

  return (
    <section className="page rush">
      <header className="rush-header">
        <div>
          <h1 className="page__title">{RUSH_TEXT.title}</h1>
          <p className="muted rush-header__tagline">{RUSH_TEXT.tagline}</p>
        </div>
        <span className="rush-tooltip">
          <button type="button" className="btn" onClick={reset} aria-describedby={tooltipId}>
            {RUSH_TEXT.reset}
          </button>
          <span role="tooltip" id={tooltipId} className="rush-tooltip__text">
            {RUSH_TEXT.resetTooltip}
          </span>
        </span>
      </header>

      {alert ? (
        <div className="alert alert--error rush-alert">
          <p role="alert" tabIndex={-1} ref={alertRef} className="rush-alert__text">
            {alert}
          </p>
          <button type="button" className="btn btn--ghost" onClick={() => setAlert(null)} aria-label="Chiudi avviso">
            ✕
          </button>
        </div>
      ) : null}

      <CountdownCard event={event} now={now} />

      <div className="rush-layout">
        <section className="rush-card rush-subjects" aria-labelledby="rush-subjects-title">
          <div className="rush-subjects__head">
            <h2 id="rush-subjects-title" className="rush-card__title">
              {RUSH_TEXT.subjects}
            </h2>
            <p className="small rush-subjects__count">
              Completate {completed} / {subjects.length}
            </p>
          </div>
          <p className="muted small rush-window">
            {event ? (
              <>
                {event.title}: dal {formatRomeDateTime(event.startsAt)} al {formatRomeDateTime(event.endsAt)} (ora di
                Roma)
              </>
            ) : (
              RUSH_TEXT.noEvent
            )}
          </p>
          <ul className="rush-grid">
            {subjects.map((s) => (
              <SubjectCard key={s.id} subject={s} state={cardState(s.id)} canStart={active} onStart={start} />
            ))}
          </ul>
        </section>

        <div className="rush-side">
          <SubjectRankingCard subjects={subjects} leaderboard={data.leaderboard} />
          <OverallCard
            leaderboard={data.leaderboard}
            completed={completed}
            total={subjects.length}
            knownScores={items.map((i) => i.score)}
          />
        </div>
      </div>
    </section>
  );
}
