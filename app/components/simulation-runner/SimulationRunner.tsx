// /simulazione?id=: waiting → subjects (with breaks) → result. Every countdown runs on the server
// clock (performance.now() + offset); answers are autosaved to the room and acknowledged.
// HTTP is used only for what the socket does not carry: the flow on load, the attempt once at the end, the ranking.
// Each subject's questions come in that flow, sealed (issue 31), in the lobby too: at the candidate's own opening the
// room sends the key over the socket unasked and the runner decrypts them; a runner with no key shortly after asks the
// room, and without a socket, or if that fails, the server for the open subject. At the end a runner whose answers are
// all acknowledged waits for the room's grading (simulation-end) before asking for its result, so a whole sitting does
// not call while the rooms grade. It polls only while the socket is down.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError, apiFetch } from "~/lib/api-client";
import { SHEET_GAP_BOXES, SIMULATION_GRACE_MS, SIMULATION_POLL_MS } from "~/lib/constants";
import { formError } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { reportSessionProblem } from "~/lib/session-events";
import { formatRomeDateTime } from "~/lib/rush";
import { flowEnd, phaseAt, subjectWindows, type FlowPhase } from "~/lib/simulation";
import { studentFlow } from "~/lib/simulation-day";
import type { SoloStanding } from "~/lib/solo-day";
import { CircularCountdown, formatClock } from "./CircularCountdown";
import { GapInput } from "./GapInput";
import { ResultView, type RankState, type StoredResult } from "./ResultView";
import { SkipBreak } from "./SkipBreak";
import { T } from "./texts";
import { useSimulationRoom, type SaveState } from "./useSimulationRoom";
import { openSealedSubject, type SealedSubject } from "~/lib/sealed-subject";
import {
  QUESTIONS_AFTER_OPEN_MS,
  KEY_AFTER_OPEN_MS,
  KEY_SPREAD_MS,
  KEY_TIMEOUT_MS,
  KEY_TRIES,
  KEY_RETRY_MS,
  END_WAIT_MAX_MS,
  endSubmitSpreadMs,
  QUESTIONS_FALLBACK_SPREAD_MS,
  START_FETCH_SPREAD_MS,
  START_FETCH_MARGIN_MS,
} from "~/lib/runner-timing";
import {
  answeredCount,
  Centered,
  type FlowItem,
  mergeAnswers,
  Overview,
  type PublicQuestion,
  QuestionGrid,
  SaveSummary,
  type Answers,
} from "./SimulationParts";
import "~/styles/simulation.css";

type SimView = {
  id: string;
  title: string;
  started: boolean;
  startTime: number | null;
  /** THE sitting's end (its latest candidate's), stored at Avvia: its grading and ranking follow. */
  endsAt?: number | null;
  serverTime: number;
  /** The candidate's accommodation (extra time, %): every deadline of theirs follows studentFlow. */
  extraTimePct?: number;
  /** The completamento boxes of the simulation's edition. */
  gapBoxes?: number;
  /** How many rooms the sitting has (its size): the result calls after grading spread over that many seconds. */
  rooms?: number;
  flow: FlowItem[];
  /** Sealed copies of the subjects not yet open (in the lobby too): opened with the key the room sends. */
  sealed?: SealedSubject[];
  /** A day alone (issue 46): its student may cut a break short. */
  solo?: boolean;
};
const resultKey = (id: string) => `simResult_${id}`;

const START_FETCH_WAIT_MS = 3000;

/** Retries of a failed attempt submission: 1 s, 2 s, 4 s, 8 s, then the 'Riprova' button. */
const SUBMIT_RETRIES = 4;

/** The action's answer to an attempt: the stored result once the room has graded, or pending. */
type AttemptReply = { attemptId?: number; result?: StoredResult; pending?: boolean };

/** A ranking that is not final yet (other rooms still grading) is asked again after 2-4 s, at most this many times. */
const RANKING_RETRY_MS = 2000;
const RANKING_RETRIES = 30;

/** Without a socket, how often a candidate waiting for the others asks again. */
const AWAIT_END_RETRY_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function SimulationRunner({ simulationId }: { simulationId: string }) {
  const [view, setView] = useState<SimView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [startTime, setStartTime] = useState<number | null>(null);
  const [answers, setAnswers] = useState<Answers>({});
  const [result, setResult] = useState<StoredResult | null>(null);
  const [saveFailed, setSaveFailed] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [rank, setRank] = useState<RankState>({ status: "loading" });
  const [rankAlert, setRankAlert] = useState<string | null>(null);
  const [qIndex, setQIndex] = useState(0);
  const [now, setNow] = useState<number | null>(null);
  /** Subjects the room has closed for good (subject-closed), and whether it has graded (simulation-end). */
  const [closedThrough, setClosedThrough] = useState(0);
  const [ended, setEnded] = useState(false);
  /** The room's word on this candidate's extra time (hello) wins over the page's (GET). */
  const [roomExtraPct, setRoomExtraPct] = useState<number | null>(null);
  /** When the room's last candidate ends (its grading follows): said in the hello and the start. */
  const [roomEndsAt, setRoomEndsAt] = useState<number | null>(null);
  /** The attempt is stored but others (accommodated) still write: the result comes at simulation-end. */
  const [awaitingEnd, setAwaitingEnd] = useState(false);
  const checkedStored = useRef(false);

  // Writes post to the /simulazione route's action (the same service as POST /api/simulations/{id}/attempt):
  // the attempt through one fetcher, the autosave over HTTP (socket blocked) through another, one save at a time.
  const action = `/simulazione?id=${encodeURIComponent(simulationId)}`;
  const attemptCall = useFormAction<AttemptReply>(action).call;
  const saveCall = useFormAction<AttemptReply>(action).call;
  const saves = useRef<Promise<unknown>>(Promise.resolve());
  const httpSave = useCallback(
    (subjectId: number, questionId: number, value: string) => {
      const saved = saves.current.then(() =>
        saveCall({ answers: { [subjectId]: { [questionId]: value } }, timeTaken: 0 }),
      );
      saves.current = saved;
      return saved.then((reply) => reply.result.status === "success");
    },
    [saveCall],
  );

  const room = useSimulationRoom(
    simulationId,
    {
      onStart: (st, extra, end) => {
        setStartTime(st);
        if (extra !== undefined) setRoomExtraPct(extra);
        if (end !== undefined) setRoomEndsAt(end);
      },
      onHello: (hello) => {
        if (hello.startTime) setStartTime(hello.startTime);
        if (hello.started && hello.extraTimePct !== undefined) setRoomExtraPct(hello.extraTimePct);
        if (hello.roomEndsAt !== undefined) setRoomEndsAt(hello.roomEndsAt);
        setAnswers((local) => mergeAnswers(hello.answers ?? {}, local));
        room.markSaved(Object.values(hello.answers ?? {}).flatMap((qs) => Object.keys(qs).map(Number)));
      },
      onSubjectClosed: (n) => setClosedThrough((c) => Math.max(c, n)),
      onEnd: () => setEnded(true),
    },
    httpSave,
  );
  const { addSample, offset } = room;

  /** The latest flow reply (read when a subject opens, without waiting for a render). */
  const replyRef = useRef<SimView | null>(null);
  const load = useCallback(async (): Promise<SimView | null> => {
    const sentAt = performance.now();
    try {
      const v = await apiFetch<SimView>(`/api/simulations/${encodeURIComponent(simulationId)}`, {
        sessionOverlay: false,
      });
      addSample({ sentAt, receivedAt: performance.now(), serverTime: v.serverTime });
      replyRef.current = v;
      // Subjects opened here from their sealed copies stay open (a reply a few ms older may still hold them sealed).
      setView((old) => keepOpened(old, v));
      setLoadError(null);
      if (v.startTime) setStartTime(v.startTime);
      return v;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) reportSessionProblem({ kind: "expired" });
      else if (error instanceof ApiError && error.status === 423)
        reportSessionProblem({ kind: "suspended", reason: String(error.body.reason ?? "") });
      setLoadError(
        error instanceof ApiError && error.status === 403
          ? T.notAllowed
          : error instanceof ApiError && error.status === 404
            ? T.notFound
            : T.loadError,
      );
      return null;
    }
  }, [simulationId, addSample]);

  useEffect(() => {
    void load();
  }, [load]);

  // The server clock: ticks 4 times a second, never reading the device's wall clock.
  useEffect(() => {
    if (offset === null) return;
    const tick = () => setNow(performance.now() + offset);
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [offset]);

  // Polling fallback, only while the socket is down: every 5 s while not started and no result is held.
  useEffect(() => {
    if (room.connected || startTime !== null || result) return;
    const timer = setInterval(() => void load(), SIMULATION_POLL_MS);
    return () => clearInterval(timer);
  }, [room.connected, startTime, result, load]);

  // The candidate's own day: each subject extended by their accommodation, breaks as they are (simulation-day.ts).
  const extraPct = roomExtraPct ?? view?.extraTimePct ?? 0;
  const commonFlow = view?.flow ?? [];
  const flow = useMemo(() => studentFlow(commonFlow, extraPct), [commonFlow, extraPct]);
  // The room's word wins over the local clock: a subject it has closed is over here too.
  const windows = startTime !== null ? subjectWindows(flow, startTime) : [];
  const closedAt = closedThrough > 0 ? (windows[Math.min(closedThrough, windows.length) - 1]?.endsAt ?? null) : null;
  const phase: FlowPhase | null =
    view && now !== null ? phaseAt(flow, startTime, closedAt !== null ? Math.max(now, closedAt) : now) : null;

  // Pending answers of a closed subject will never be acknowledged.
  const { markClosed } = room;
  useEffect(() => {
    if (closedThrough > 0) markClosed(flow.slice(0, closedThrough).flatMap((s) => s.questions.map((q) => q.id)));
  }, [closedThrough, flow, markClosed]);

  // A stored result counts only once the simulation has started and its whole duration has elapsed.
  useEffect(() => {
    if (checkedStored.current || !view || now === null) return;
    checkedStored.current = true;
    try {
      const raw = localStorage.getItem(resultKey(simulationId));
      if (!raw) return;
      if (startTime !== null && now >= flowEnd(flow, startTime)) {
        setResult(JSON.parse(raw));
        void fetchRanking();
      } else localStorage.removeItem(resultKey(simulationId));
    } catch {
      // unreadable cache: ignore
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view, now, startTime]);

  // Questions of a subject arrive once it has opened on the server: ask once, shortly after it opens,
  // and again (backing off) only if they are still missing.
  const currentIndex = phase?.kind === "subject" ? phase.index : -1;
  const missingQuestions = currentIndex >= 0 && (flow[currentIndex]?.questions.length ?? 0) === 0;
  const opensAt = phase?.kind === "subject" ? phase.startsAt : null;
  const clock = useRef<() => number>(() => performance.now());
  clock.current = () => performance.now() + (offset ?? 0);
  const { requestKey, awaitKey, isOpen } = room;
  /** Opens subject `index` from its sealed copy with the room's key; false when that is not possible. */
  const openFromSealed = useCallback(
    async (index: number, cancelled: () => boolean): Promise<boolean> => {
      const sealed = replyRef.current?.sealed?.find((s) => s.subject === index);
      if (!sealed) return false;
      // A refusal (a clock a little early) is asked again; without a socket or an answer in time (a busy room) the
      // server is asked at once.
      for (let tries = 0; tries < KEY_TRIES && !cancelled() && isOpen(); tries++) {
        if (tries > 0) await sleep(KEY_RETRY_MS);
        const key = await requestKey(index, KEY_TIMEOUT_MS);
        if (key === undefined) return false;
        if (key === null) continue;
        const questions = await openSealedSubject(key, sealed);
        if (!questions || cancelled()) return false;
        setView((v) => (v ? withQuestions(v, index, questions) : v));
        return true;
      }
      return false;
    },
    [requestKey, isOpen],
  );
  // A flow loaded before Avvia without sealed copies (no key on the server) is fetched again once the start is known,
  // inside the lead (spread over the sitting); a lobby holding them needs nothing at the start.
  // (The reply as it came: the view drops each sealed copy once that subject has opened here.)
  const viewStarted = view ? view.started || (replyRef.current?.sealed?.length ?? 0) > 0 : null;
  /** That fetch while it runs: a subject opening meanwhile waits for it (briefly) before asking the server itself. */
  const startFetch = useRef<Promise<void> | null>(null);
  useEffect(() => {
    if (viewStarted !== false || startTime === null) return;
    let cancelled = false;
    startFetch.current = (async () => {
      const lead = startTime - clock.current() - START_FETCH_MARGIN_MS;
      await sleep(Math.random() * Math.max(0, Math.min(START_FETCH_SPREAD_MS, lead)));
      for (let wait = 1000; !cancelled; wait = Math.min(wait * 2, 8000)) {
        const v = await load();
        if (cancelled || v?.started) return;
        await sleep(wait);
      }
    })();
    return () => {
      cancelled = true;
      startFetch.current = null;
    };
  }, [viewStarted, startTime, load]);

  useEffect(() => {
    if (!missingQuestions || opensAt === null) return;
    let cancelled = false;
    void (async () => {
      // The room sends the key at the opening; none by a moment after it: ask (a sitting spread over KEY_SPREAD_MS).
      const pushed = replyRef.current?.sealed?.some((s) => s.subject === currentIndex)
        ? await awaitKey(
            currentIndex,
            Math.max(0, opensAt + KEY_AFTER_OPEN_MS + Math.random() * KEY_SPREAD_MS - clock.current()),
          )
        : undefined;
      if (cancelled) return;
      if (pushed === undefined && startFetch.current)
        await Promise.race([startFetch.current, sleep(START_FETCH_WAIT_MS)]);
      // That reply may hold the subject in clear already (it came after the opening).
      if ((replyRef.current?.flow[currentIndex]?.questions.length ?? 0) > 0) return;
      if (cancelled || (await openFromSealed(currentIndex, () => cancelled)) || cancelled) return;
      // The server then: at a random instant of a short spread (a whole sitting may be falling back at once).
      await sleep(
        Math.max(0, opensAt + QUESTIONS_AFTER_OPEN_MS - clock.current()) + Math.random() * QUESTIONS_FALLBACK_SPREAD_MS,
      );
      for (let wait = 500; !cancelled; wait = Math.min(wait * 2, 8000)) {
        await load();
        if (cancelled) return;
        await sleep(wait);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [missingQuestions, currentIndex, opensAt, load, openFromSealed, awaitKey]);

  useEffect(() => setQIndex(0), [currentIndex]);

  /** The latest ranking request: an older loop (a second call, an unmounted page) stops asking again. */
  const rankingRun = useRef(0);
  useEffect(
    () => () => {
      rankingRun.current += 1;
    },
    [],
  );
  const fetchRanking = useCallback(async () => {
    const run = ++rankingRun.current;
    setRank({ status: "loading" });
    // Until every room has graded the ranking is not final: ask again a little later (spread, so that a whole
    // sitting does not ask in the same instant), a bounded number of times.
    for (let tries = 0; ; tries++) {
      try {
        const response = await fetch(`/api/simulations/${encodeURIComponent(simulationId)}/ranking`, {
          credentials: "same-origin",
        });
        if (!response.ok) {
          setRankAlert(T.rankingNotOk);
          setRank({ status: "error" });
          return;
        }
        const body = (await response.json()) as {
          pos?: unknown;
          position?: unknown;
          percentile?: number | null;
          ranking?: { userId: number; pos: number; score: number }[];
          around?: { userId: number; pos: number; score: number }[];
          participants?: number | null;
          final?: boolean;
          userId?: number;
          solo?: SoloStanding | null;
        };
        const raw = body.pos !== undefined ? body.pos : body.position;
        const pos = raw === null || raw === undefined ? null : typeof raw === "number" ? raw : NaN;
        setRank({
          status: "ok",
          pos,
          percentile: body.percentile ?? null,
          ranking: body.ranking ?? [],
          around: body.around ?? [],
          participants: body.participants ?? null,
          final: body.final,
          me: body.userId,
          solo: body.solo ?? undefined,
        });
        if (body.final !== false || tries >= RANKING_RETRIES || run !== rankingRun.current) return;
      } catch {
        setRankAlert(T.rankingThrew);
        setRank({ status: "error" });
        return;
      }
      await sleep(RANKING_RETRY_MS + Math.random() * RANKING_RETRY_MS);
      if (run !== rankingRun.current) return;
    }
  }, [simulationId]);

  const submit = useCallback(async () => {
    if (startTime === null || now === null) return;
    setSubmitting(true);
    setSaveFailed(false);
    // Only answered questions; subjects without answers are omitted.
    const payload: Answers = {};
    for (const [s, qs] of Object.entries(answers)) {
      const kept = Object.fromEntries(Object.entries(qs).filter(([, v]) => v.trim() !== ""));
      if (Object.keys(kept).length) payload[s] = kept;
    }
    const timeTaken = Math.max(0, Math.round((Math.min(now, flowEnd(flow, startTime)) - startTime) / 1000));
    // One submission: the room answers it once it has graded. Retried (with backoff) only when it fails
    // on the way (network, 5xx) or the room has not finished yet; a refusal (4xx) is final.
    try {
      for (let attempt = 0; ; attempt++) {
        const reply = await attemptCall({ answers: payload, timeTaken });
        const r = reply.value;
        if (r?.pending && !reply.status) {
          // Stored; an accommodated candidate still writes: submit again at simulation-end.
          setAwaitingEnd(true);
          return;
        }
        if (r?.result) {
          const stored = { ...r.result, attemptId: r.attemptId };
          try {
            localStorage.setItem(resultKey(simulationId), JSON.stringify(stored));
          } catch {
            // storage full or blocked: the server keeps the result anyway
          }
          setResult(stored);
          void fetchRanking();
          return;
        }
        // A refusal (4xx) is final; a failure on the way (0, 5xx) or a room still grading is retried.
        if (reply.status && reply.status < 500) throw new Error(formError(reply) ?? "attempt refused");
        if (attempt >= SUBMIT_RETRIES) throw new Error("attempt not stored");
        await sleep(1000 * 2 ** attempt);
      }
    } catch {
      setSaveFailed(true);
    } finally {
      setSubmitting(false);
    }
  }, [answers, now, startTime, flow, simulationId, fetchRanking, attemptCall]);

  const finished = phase?.kind === "finished" || ended;
  // When to ask for the result: at once if an answer still waits for its ack or the socket is down (the call carries
  // them); else once the room has graded (spread over a few seconds), or when its word is overdue.
  const [mayAsk, setMayAsk] = useState(false);
  const rooms = view?.rooms;
  const unacked = room.pendingCount();
  const ownEnd = startTime !== null && flow.length ? flowEnd(flow, startTime) : null;
  // The sitting's stored end, as the room says it (it may have moved: a test's clock) or as the page read it.
  const sittingEnd = roomEndsAt ?? view?.endsAt ?? null;
  const waitUntil = (sittingEnd ?? ownEnd ?? 0) + SIMULATION_GRACE_MS + END_WAIT_MAX_MS;
  useEffect(() => {
    if (!finished || result || mayAsk) return;
    if (!room.connected || unacked > 0) {
      setMayAsk(true);
      return;
    }
    const timer = setTimeout(
      () => setMayAsk(true),
      ended ? Math.random() * endSubmitSpreadMs(rooms) : Math.max(0, waitUntil - clock.current()),
    );
    return () => clearTimeout(timer);
  }, [finished, result, mayAsk, room.connected, unacked, ended, waitUntil, rooms]);
  useEffect(() => {
    if (finished && mayAsk && !result && !submitting && !saveFailed && !awaitingEnd && checkedStored.current)
      void submit();
  }, [finished, mayAsk, result, submitting, saveFailed, awaitingEnd, submit]);
  // Waiting for the others: the room's simulation-end (or, without a socket, a retry now and then) brings the result.
  useEffect(() => {
    if (!awaitingEnd) return;
    if (ended) {
      setAwaitingEnd(false);
      return;
    }
    if (room.connected) return;
    const timer = setTimeout(() => setAwaitingEnd(false), AWAIT_END_RETRY_MS);
    return () => clearTimeout(timer);
  }, [awaitingEnd, ended, room.connected]);

  const setAnswer = (subjectId: number, questionId: number, value: string) => {
    setAnswers((a) => mergeAnswers(a, { [subjectId]: { [questionId]: value } }));
    room.saveAnswer(subjectId, questionId, value, phase?.endsAt != null ? phase.endsAt - clock.current() : undefined);
  };

  if (loadError) return <Centered role="alert">{loadError}</Centered>;
  if (!view) return <Centered>{T.loading}</Centered>;
  if (flow.length === 0) return <Centered>{T.notFound}</Centered>;
  if (result)
    return (
      <ResultView result={result} rank={rank} alert={rankAlert} userId={rank.status === "ok" ? rank.me : undefined} />
    );
  if (saveFailed)
    return (
      <Centered role="alert">
        <p>{T.saveError}</p>
        <button type="button" className="btn btn--primary" onClick={() => void submit()}>
          {T.retry}
        </button>
      </Centered>
    );
  if (!phase || now === null) return <Centered>{T.loading}</Centered>;
  // Handed in (every answer acknowledged), others with extra time still writing: the result comes when they end.
  if (awaitingEnd || (finished && !ended && !mayAsk && ownEnd !== null && (sittingEnd ?? 0) > ownEnd + 1000))
    return (
      <Centered>
        <p>{T.waitingOthers}</p>
        {sittingEnd != null ? (
          <p className="muted small" data-testid="sim-sitting-end">
            {T.sittingEndsAt(formatRomeDateTime(sittingEnd))}
          </p>
        ) : null}
      </Centered>
    );
  if (phase.kind === "finished" || ended) return <Centered>{T.grading}</Centered>;

  const pendingCount = Object.values(room.saveStates).filter((s) => s === "pending").length;
  const overview = <Overview flow={flow} phase={phase} answers={answers} />;
  const extraNote = extraPct ? (
    <p className="muted small" data-testid="sim-extra-time">
      {T.extraTime(extraPct)}
    </p>
  ) : null;
  const rules = (
    <ul className="sim-rules">
      {T.rules.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );

  if (phase.kind === "waiting") {
    const first = flow[0]!;
    return (
      <main className="sim-layout" data-testid="sim-waiting">
        <aside className="sim-left">
          <h1 className="sim-subject">{first.name}</h1>
          {startTime !== null ? (
            <CircularCountdown
              remainingMs={startTime - now}
              totalMs={Math.max(startTime - now, 1)}
              label={T.startsIn}
            />
          ) : (
            <p className="muted">{T.waitingNoStart}</p>
          )}
          {extraNote}
          {rules}
          <QuestionGrid count={first.questionCount} answered={() => false} current={-1} disabled />
        </aside>
        <section className="sim-center">
          <h2>{view.title}</h2>
          <p className="sim-waiting-title">{T.waitingTitle}</p>
          {!room.connected ? <p className="muted small">{T.offline}</p> : null}
        </section>
        {overview}
      </main>
    );
  }

  if (phase.kind === "break") {
    const nextSubject = flow[phase.index + 1]!;
    return (
      <main className="sim-layout" data-testid="sim-break">
        <aside className="sim-left">
          <h1 className="sim-subject">{T.breakTitle}</h1>
          <CircularCountdown remainingMs={phase.endsAt - now} totalMs={phase.endsAt - phase.startsAt} />
          {rules}
        </aside>
        <section className="sim-center">
          <p className="sim-waiting-title">{T.breakNext(nextSubject.name)}</p>
          {view.solo ? <SkipBreak simulationId={simulationId} onSkipped={setStartTime} /> : null}
          <SaveSummary pending={pendingCount} />
        </section>
        {overview}
      </main>
    );
  }

  const subject = flow[phase.index]!;
  const questions = subject.questions;
  const question = questions[Math.min(qIndex, Math.max(0, questions.length - 1))];
  const mine = answers[String(subject.id)] ?? {};
  const saveState: SaveState | undefined = question ? room.saveStates[question.id] : undefined;
  return (
    <main
      className="sim-layout"
      data-testid="sim-exam"
      data-subject-index={phase.index}
      data-deadline={Math.round(phase.endsAt)}
    >
      <aside className="sim-left">
        <h1 className="sim-subject" data-testid="sim-subject">
          {subject.name}
        </h1>
        <CircularCountdown remainingMs={phase.endsAt - now} totalMs={subject.timeMin * 60_000} />
        {extraNote}
        {rules}
        <QuestionGrid
          count={questions.length}
          answered={(i) => Boolean(mine[String(questions[i]!.id)]?.trim())}
          current={qIndex}
          onPick={setQIndex}
        />
      </aside>
      <section className="sim-center">
        {question ? (
          <article className="sim-question" aria-labelledby="sim-question-text">
            <p className="muted small">{T.question(qIndex + 1, questions.length)}</p>
            <h2 id="sim-question-text" className="sim-question__text">
              {question.text}
            </h2>
            {question.type === "mc" ? (
              <div role="radiogroup" aria-labelledby="sim-question-text" className="sim-options">
                {(question.options ?? []).map((opt, i) => {
                  const checked = mine[String(question.id)] === opt;
                  return (
                    <label key={opt} className={`sim-option${checked ? " sim-option--checked" : ""}`}>
                      <input
                        type="radio"
                        name={`q-${question.id}`}
                        checked={checked}
                        onChange={() => setAnswer(subject.id, question.id, opt)}
                      />
                      <span className="sim-option__letter">{String.fromCharCode(65 + i)}</span>
                      <span>{opt}</span>
                    </label>
                  );
                })}
              </div>
            ) : (
              <GapInput
                key={question.id}
                questionId={question.id}
                boxes={view.gapBoxes ?? SHEET_GAP_BOXES}
                value={mine[String(question.id)] ?? ""}
                onChange={(v) => setAnswer(subject.id, question.id, v)}
              />
            )}
            <p
              className="sim-save small"
              data-testid="sim-save-state"
              data-state={saveState ?? "none"}
              aria-live="polite"
            >
              {saveState === "saved"
                ? T.saved
                : saveState === "pending"
                  ? T.saving
                  : saveState === "rejected"
                    ? T.rejected
                    : ""}
            </p>
            <div className="sim-nav">
              <button type="button" className="btn" disabled={qIndex === 0} onClick={() => setQIndex((i) => i - 1)}>
                {T.back}
              </button>
              <button
                type="button"
                className="btn btn--primary"
                disabled={qIndex >= questions.length - 1}
                onClick={() => setQIndex((i) => i + 1)}
              >
                {T.next}
              </button>
            </div>
          </article>
        ) : (
          <p>{T.loading}</p>
        )}
        <SaveSummary pending={pendingCount} />
        {!room.connected ? <p className="muted small">{T.offline}</p> : null}
      </section>
      {overview}
    </main>
  );
}

export { formatClock };

/** The view with subject `index`'s questions in place (opened from its sealed copy). */
function withQuestions(view: SimView, index: number, questions: PublicQuestion[]): SimView {
  return {
    ...view,
    flow: view.flow.map((s, i) => (i === index ? { ...s, questions } : s)),
    sealed: view.sealed?.filter((s) => s.subject !== index),
  };
}

/** A new reply, keeping the questions of subjects already opened here that it still holds sealed. */
function keepOpened(old: SimView | null, next: SimView): SimView {
  if (!old || old.id !== next.id || !next.sealed?.length) return next;
  let view = next;
  for (const sealed of next.sealed) {
    const held = old.flow[sealed.subject]?.questions;
    if (held?.length && view.flow[sealed.subject]?.id === old.flow[sealed.subject]?.id)
      view = withQuestions(view, sealed.subject, held);
  }
  return view;
}
