// One worker thread of the national bench: a slice of the students, each behaving as the browser's runner does
// (app/routes/simulazione.tsx, app/components/simulation-runner/SimulationRunner.tsx and useSimulationRoom.ts):
// - connect: the page (GET /simulazione?id=), its flow (GET /api/simulations/:id), the room's socket and 5 pings;
// - run: the start (moved to another room at Avvia → back within the runner's spread, as the browser does on
//   ROOM_MOVED_CODE; the
//   flow once more at a random instant of the lead only when it came without sealed copies); per subject, at its
//   opening, the key the room sends unasked (asked for when none came shortly after) and the sealed copy opened with it
//   (falling back, as the browser does, to GET /api/simulations/:id retried while still empty when there is no key or
//   it does not open), then answers at random instants of the subject, right or wrong by the student's own ability,
//   some changed later; a share of the students lose their socket mid-subject 2 and reconnect (the reconnect wave;
//   meanwhile their answers are saved over HTTP, POST /simulazione.data?id= one at a time, as the runner does),
//   checking that the room's hello gives back every answer it had acknowledged; every reconnect (the wave, a move, a
//   socket the server closed) waits as the runner's do (ReconnectBackoff, app/lib/runner-timing.ts: jittered back-off
//   that starts over only after a hello, a server close's comeback window); at the end, once the room has graded
//   (simulation-end, or at once with an answer unacknowledged), the attempt (POST /simulazione.data?id=, the runner's
//   action, retried like the runner) and the ranking (GET /api/simulations/:id/ranking, either shape: full or paged).
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { Agent } from "undici";
import { openSealedSubject, type SealedSubject } from "../../app/lib/sealed-subject.ts";
import { estimateClockOffset, subjectWindows, type ClockSample } from "../../app/lib/simulation.ts";
import { SIMULATION_GRACE_MS } from "../../app/lib/constants.ts";
// The browser's runner timing (SimulationRunner.tsx): the bench asks as the browser does.
import {
  QUESTIONS_AFTER_OPEN_MS,
  KEY_AFTER_OPEN_MS,
  KEY_SPREAD_MS,
  blipFlushAt,
  KEY_TIMEOUT_MS,
  KEY_TRIES,
  ReconnectBackoff,
  KEY_RETRY_MS,
  END_WAIT_MAX_MS,
  endSubmitSpreadMs,
  QUESTIONS_FALLBACK_SPREAD_MS,
  START_FETCH_SPREAD_MS,
  START_FETCH_MARGIN_MS,
} from "../../app/lib/runner-timing.ts";

// These threads stand for students' own devices: on this one machine they must not take the server's core from it
// (at each opening 6,000 clients open their sealed subjects at once). Lower this thread's priority (Linux applies it
// to the calling thread only); where that is not allowed the run goes on as before.
try {
  setPriority(10);
} catch {
  // not permitted here
}

type Key = { type: "mc" | "gap"; correct: string; wrong: string[] };
type Input = {
  baseUrl: string;
  simulationId: string;
  users: { id: number; cookie: string; listed: boolean }[];
  keys: Record<string, Key>;
  answerShare: number;
  changeShare: number;
  reconnectShare: number;
  /** "share" (reconnectShare of the students, anywhere) or "room" (every candidate of room 0 at one instant). */
  waveMode: "share" | "room";
};
type FlowSubject = { id: number; name: string; timeMin: number; breakAfterMin: number; questions: { id: number }[] };
type Client = {
  user: Input["users"][number];
  ws: WebSocket | null;
  open: Promise<boolean>;
  samples: ClockSample[];
  offset?: number;
  startTime?: number;
  startReceivedAt?: number;
  endReceivedAt?: number;
  flow: FlowSubject[];
  /** Sealed copies of the subjects not yet open, by flow index (issue 31). */
  sealed: Map<number, SealedSubject>;
  started: boolean;
  startFetch?: Promise<void>;
  keyWaiters: Map<number, (key: string | null | undefined) => void>;
  /** Keys the room sent (unasked at each opening, or answering a request), and who waits for one sent unasked. */
  keys: Map<number, string>;
  keyListeners: Map<number, (key: string | undefined) => void>;
  roomEndsAt?: number;
  rooms?: number;
  /** The candidate's own room (shard), from the page data. */
  room?: number;
  ability: number;
  seq: number;
  /** seq → when it was sent (performance.now(), for the ack latency) and what. */
  inFlight: Map<number, { sentAt: number; questionId: number; value: string }>;
  /** question → value the room acknowledged. */
  acked: Map<number, string>;
  answers: Record<string, Record<string, string>>;
  http: number;
  /** Between losing its socket and the new one's hello: answers go over HTTP, as the runner's do. */
  blip: boolean;
  /** The HTTP saves, one at a time (the runner chains them). */
  saves: Promise<unknown>;
  /** When the socket dropped (performance.now()), and the answers given since, held for the reconnected socket. */
  droppedAt: number;
  held: { subjectId: number; questionId: number; value: string }[];
  flushTimer?: ReturnType<typeof setTimeout>;
  moved: number;
  /** The runner's reconnect schedule for this client's socket, and the last close of a socket that never greeted. */
  backoff: ReconnectBackoff;
  lastClose: { code: number; reason: string };
  /** The student has left (their day is over): no more reconnects. */
  done: boolean;
  /** The room's resume token (hello, start), sent on reconnects. */
  resume?: string;
  waiters: Map<string, (m: Record<string, unknown>) => void>;
};

const input = workerData as Input;
const PINGS = 5;
let keysOpened = 0;
/** Subjects opened with a key the room sent unasked (a subset of keysOpened). */
let keysPushed = 0;
/** Subjects that fell back to HTTP, by flow index; key requests refused (asked again) and unanswered in time. */
const keysFallback = [0, 0, 0];
let keysRefused = 0;
let keysTimedOut = 0;
const ROOM_MOVED_CODE = 4001;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ackLatencies: number[] = [];
/** The width of those slots, in seconds (NATIONAL_ACK_SLOT_S; 10 by default). */
const ACK_SLOT_S = Number(process.env.NATIONAL_ACK_SLOT_S ?? 10);
/** The same latencies per slot of the day (from the start instant, by arrival), to see when a slow ack happened. */
const ackBySlot: Record<string, number[]> = {};
/** Refusals by the room's reason. */
const rejectedBy: Record<string, number> = {};
let answersSent = 0;
/** Answers saved over HTTP while their socket was down (the runner's fallback), and how long each save took. */
const httpSaveLatencies: number[] = [];
let httpSavesFailed = 0;
let answersRejected = 0;
/** Connections opened with a resume token (the reconnect wave, after the start). */
let resumedConnects = 0;
const httpErrors: Record<string, number> = {};
/**
 * The HTTP calls share a bounded pool of connections per thread. Unbounded, thousands of students calling at the
 * same instant open thousands of sockets through the local preview, which also holds two per room socket: past the
 * machine's 20,000 open files (`ulimit -Hn`) its hop to workerd fails ("fetch failed"). On the real day each student
 * has their own browser and the connections end at Cloudflare's edge, not in one process.
 */
const HTTP_CONNECTIONS = 64;
const httpAgent = new Agent({ connections: HTTP_CONNECTIONS, keepAliveTimeout: 30_000 });

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * One HTTP call of the browser. A 5xx or a network failure is tried again up to twice after a second (the student
 * reloads): every try counts.
 */
async function http(c: Client, path: string, init: RequestInit = {}): Promise<Response | null> {
  for (let attempt = 0; ; attempt++) {
    c.http++;
    let response: Response | null = null;
    try {
      response = await fetch(`${input.baseUrl}${path}`, {
        ...init,
        headers: { cookie: c.user.cookie, ...(init.headers as Record<string, string> | undefined) },
        dispatcher: httpAgent,
      } as RequestInit);
    } catch {
      httpErrors.network = (httpErrors.network ?? 0) + 1;
    }
    if (response && !response.ok) {
      const key = `${init.method ?? "GET"} ${path.split("?")[0]!.replace(/national-[^/]+/, ":id")} ${response.status}`;
      httpErrors[key] = (httpErrors[key] ?? 0) + 1;
    }
    if ((response && response.status < 500) || attempt >= 2) return response;
    await response?.arrayBuffer();
    await sleep(1000);
  }
}

function waitFor(c: Client, type: string, timeout: number): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      c.waiters.delete(type);
      resolve(null);
    }, timeout);
    c.waiters.set(type, (m) => {
      clearTimeout(timer);
      c.waiters.delete(type);
      resolve(m);
    });
  });
}

/**
 * Opens the room socket; resolves with the hello (null on failure). A greeted socket closed by the server (a move at
 * Avvia, a restart) comes back as the runner's does (comeBack).
 */
function connect(c: Client): Promise<Record<string, unknown> | null> {
  const base = `${input.baseUrl.replace(/^http/, "ws")}/api/simulations/${input.simulationId}/ws`;
  // As the runner: a reconnect carries the room's resume token (no session lookups), when the room gave one.
  const wsUrl = c.resume ? `${base}?resume=${encodeURIComponent(c.resume)}` : base;
  if (c.resume) resumedConnects++;
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl, { headers: { cookie: c.user.cookie } } as unknown as string[]);
    c.ws = ws;
    let greeted = false;
    let opened: (ok: boolean) => void = () => {};
    c.open = new Promise((r) => (opened = r));
    const timer = setTimeout(() => {
      opened(false);
      resolve(null);
    }, 120_000);
    ws.onmessage = (event) => {
      const at = performance.now();
      const m = JSON.parse(String(event.data)) as Record<string, unknown>;
      if (typeof m.resume === "string") c.resume = m.resume;
      if (m.type === "hello") {
        greeted = true;
        c.backoff.greet();
        clearTimeout(timer);
        if (typeof m.startTime === "number") c.startTime = m.startTime;
        opened(true);
        resolve(m);
      } else if (m.type === "pong")
        c.samples.push({ sentAt: Number(m.t0), receivedAt: at, serverTime: Number(m.serverTime) });
      else if (m.type === "simulation-start") {
        c.startReceivedAt ??= Date.now();
        c.startTime = Number(m.startTime);
        if (typeof m.roomEndsAt === "number") c.roomEndsAt = m.roomEndsAt;
        if (!c.started && c.sealed.size === 0) c.startFetch ??= fetchAtStart(c);
      } else if (m.type === "subject-key" || m.type === "key-refused") {
        if (m.type === "subject-key") {
          c.keys.set(Number(m.subject), String(m.key));
          const listener = c.keyListeners.get(Number(m.subject));
          c.keyListeners.delete(Number(m.subject));
          listener?.(String(m.key));
        }
        const waiter = c.keyWaiters.get(Number(m.subject));
        c.keyWaiters.delete(Number(m.subject));
        waiter?.(m.type === "subject-key" ? String(m.key) : null);
      } else if (m.type === "simulation-end") c.endReceivedAt ??= Date.now();
      else if (m.type === "ack" || m.type === "rejected") {
        const sent = c.inFlight.get(Number(m.seq));
        if (sent !== undefined) {
          c.inFlight.delete(Number(m.seq));
          if (m.type === "ack") {
            ackLatencies.push(at - sent.sentAt);
            const slot = String(Math.floor((serverNow(c) - (c.startTime ?? 0)) / (ACK_SLOT_S * 1000)) * ACK_SLOT_S);
            (ackBySlot[slot] ??= []).push(at - sent.sentAt);
            c.acked.set(sent.questionId, sent.value);
          } else {
            answersRejected++;
            rejectedBy[String(m.error)] = (rejectedBy[String(m.error)] ?? 0) + 1;
          }
        }
      }
      c.waiters.get(String(m.type))?.(m);
    };
    ws.onopen = () => c.backoff.opened(performance.now());
    ws.onclose = (event) => {
      if (c.ws !== ws) return;
      c.ws = null;
      for (const [subject, waiter] of c.keyWaiters) {
        c.keyWaiters.delete(subject);
        waiter(undefined);
      }
      for (const [subject, listener] of c.keyListeners) {
        c.keyListeners.delete(subject);
        listener(undefined);
      }
      c.lastClose = { code: event.code, reason: event.reason };
      if (!greeted) {
        // Refused (or closed with a comeback window) before its hello: whoever opened it tries again, through the
        // session (the runner drops a token the room may not take).
        c.resume = undefined;
        clearTimeout(timer);
        opened(false);
        resolve(null);
        return;
      }
      if (c.done || event.code === 1000) return;
      if (event.code === ROOM_MOVED_CODE) {
        c.moved++;
        c.resume = undefined;
      }
      void comeBack(c, c.backoff.afterClose(event.code, event.reason, performance.now()).delayMs);
    };
    ws.onerror = () => {
      if (!greeted) {
        c.resume = undefined; // refused before its hello: the next try uses the session, as the runner does
        c.lastClose = { code: 1006, reason: "" }; // as a browser closes it (Node's WebSocket sends no close event)
      }
      clearTimeout(timer);
      opened(false);
      resolve(null);
    };
  });
}

const clients: Client[] = [];

/**
 * The runner's way back after a socket closed: the first try after `delayMs`, each failed one after the back-off (or
 * the comeback window) its close calls for (ReconnectBackoff); the hello, or null after 8 tries.
 */
async function comeBack(c: Client, delayMs: number): Promise<Record<string, unknown> | null> {
  for (let tries = 0, wait = delayMs; tries < 8 && !c.done; tries++) {
    await sleep(wait);
    const hello = await connect(c);
    if (hello) return hello;
    wait = c.backoff.afterClose(c.lastClose.code, c.lastClose.reason, performance.now()).delayMs;
  }
  return null;
}

function newClient(user: Input["users"][number]): Client {
  // A cohort: abilities spread around 55 % right (0.2–0.9), never the same answers from everybody.
  const u = (Math.random() + Math.random() + Math.random()) / 3;
  return {
    user,
    ws: null,
    open: Promise.resolve(false),
    samples: [],
    flow: [],
    sealed: new Map(),
    started: false,
    keyWaiters: new Map(),
    keys: new Map(),
    keyListeners: new Map(),
    ability: 0.2 + 0.7 * u,
    seq: 0,
    inFlight: new Map(),
    acked: new Map(),
    answers: {},
    http: 0,
    blip: false,
    saves: Promise.resolve(),
    droppedAt: 0,
    held: [],
    moved: 0,
    backoff: new ReconnectBackoff(),
    lastClose: { code: 1006, reason: "" },
    done: false,
    waiters: new Map(),
  };
}

async function loadFlow(c: Client): Promise<boolean> {
  const response = await http(c, `/api/simulations/${input.simulationId}`);
  if (!response?.ok) return false;
  const view = (await response.json()) as {
    flow: FlowSubject[];
    started: boolean;
    startTime: number | null;
    sealed?: SealedSubject[];
    rooms?: number;
    room?: number;
  };
  c.rooms = view.rooms;
  if (typeof view.room === "number") c.room = view.room;
  // Subjects already opened from their sealed copies stay open.
  c.flow = view.flow.map((s, i) => (s.questions.length ? s : { ...s, questions: c.flow[i]?.questions ?? [] }));
  c.sealed = new Map((view.sealed ?? []).map((s) => [s.subject, s]));
  c.started = view.started;
  if (view.startTime) c.startTime = view.startTime;
  return true;
}

/** A flow loaded before Avvia holds no sealed copies: once more at a random instant of the lead, as the browser. */
async function fetchAtStart(c: Client) {
  const lead = (c.startTime ?? 0) - serverNow(c) - START_FETCH_MARGIN_MS;
  await sleep(Math.random() * Math.max(0, Math.min(START_FETCH_SPREAD_MS, lead)));
  for (let tries = 0, wait = 1000; !c.started && tries < 5; tries++, wait *= 2) {
    if ((await loadFlow(c)) && c.started) return;
    await sleep(wait);
  }
}

/** The key the room sends unasked at the opening; undefined when none came within `timeoutMs` or without a socket. */
function awaitKey(c: Client, subject: number, timeoutMs: number): Promise<string | undefined> {
  const known = c.keys.get(subject);
  if (known !== undefined) return Promise.resolve(known);
  const ws = c.ws as WebSocket | null;
  if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      c.keyListeners.delete(subject);
      resolve(undefined);
    }, timeoutMs);
    c.keyListeners.set(subject, (key) => {
      clearTimeout(timer);
      resolve(key);
    });
  });
}

/** The key; null when the room refuses (asked again); undefined without a socket or an answer in time (HTTP then). */
function requestKey(c: Client, subject: number): Promise<string | null | undefined> {
  const known = c.keys.get(subject);
  if (known !== undefined) return Promise.resolve(known);
  const ws = c.ws as WebSocket | null;
  if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      c.keyWaiters.delete(subject);
      keysTimedOut++;
      resolve(undefined);
    }, KEY_TIMEOUT_MS);
    c.keyWaiters.set(subject, (key) => {
      clearTimeout(timer);
      resolve(key);
    });
    ws.send(JSON.stringify({ type: "key", subject }));
  });
}

/** The subject's questions from its sealed copy and the room's key; false when that is not possible. */
async function openFromSealed(c: Client, index: number): Promise<boolean> {
  const sealed = c.sealed.get(index);
  if (!sealed) return false;
  for (let tries = 0; tries < KEY_TRIES; tries++) {
    if (tries > 0) await sleep(KEY_RETRY_MS);
    const key = await requestKey(c, index);
    if (key === undefined) return false;
    if (key === null) {
      keysRefused++;
      continue;
    }
    const questions = await openSealedSubject(key, sealed);
    if (!questions) return false;
    c.flow[index] = { ...c.flow[index]!, questions };
    c.sealed.delete(index);
    return true;
  }
  return false;
}

async function connectAll() {
  const all = input.users.map(newClient);
  await pool(all, 25, async (c) => {
    const page = await http(c, `/simulazione?id=${input.simulationId}`);
    await page?.arrayBuffer();
    if (!page?.ok || !(await loadFlow(c))) return;
    if (await connect(c)) {
      clients.push(c);
      await syncClock(c);
    }
  });
  return { connected: clients.length };
}

async function syncClock(c: Client) {
  for (let i = 0; i < PINGS; i++) {
    if (!(await c.open) || !c.ws) return;
    const pong = waitFor(c, "pong", 20_000);
    c.ws.send(JSON.stringify({ type: "ping", t0: performance.now() }));
    if (!(await pong)) break;
  }
  c.samples = c.samples.slice(-12);
  c.offset = estimateClockOffset(c.samples, 3)?.offset;
}

async function resyncAll() {
  await pool(clients, 25, syncClock);
  const trueOffset = Date.now() - performance.now();
  return { offsetErrors: clients.filter((c) => c.offset !== undefined).map((c) => Math.abs(c.offset! - trueOffset)) };
}

const serverNow = (c: Client) => performance.now() + (c.offset ?? Date.now() - performance.now());
const sleepUntil = (c: Client, at: number) => sleep(Math.max(0, at - serverNow(c)));

async function send(c: Client, subjectId: number, questionId: number, value: string) {
  await c.open;
  const ws = c.ws as WebSocket | null;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  const seq = ++c.seq;
  c.inFlight.set(seq, { sentAt: performance.now(), questionId, value });
  answersSent++;
  ws.send(JSON.stringify({ type: "answer", seq, subjectId, questionId, value }));
  (c.answers[String(subjectId)] ??= {})[String(questionId)] = value;
}

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

async function sitSubject(c: Client, index: number, window: { startsAt: number; endsAt: number }, wave: Wave) {
  // The key the room sends at the opening; none shortly after: ask (spread), as the browser does.
  const sealed = c.sealed.get(index);
  await sleepUntil(c, window.startsAt - 50);
  const pushed = sealed
    ? await awaitKey(
        c,
        index,
        Math.max(0, window.startsAt + KEY_AFTER_OPEN_MS + Math.random() * KEY_SPREAD_MS - serverNow(c)),
      )
    : undefined;
  let opened = false;
  if (sealed && pushed !== undefined && (c.flow[index]?.questions.length ?? 0) === 0) {
    const questions = await openSealedSubject(pushed, sealed);
    if (questions) {
      c.flow[index] = { ...c.flow[index]!, questions };
      c.sealed.delete(index);
      keysOpened++;
      keysPushed++;
      opened = true;
    }
  }
  // The start's refetch still on its way (a busy server): wait for it a little, as the browser does.
  if (!opened && c.startFetch) await Promise.race([c.startFetch, sleep(3000)]);
  if ((c.flow[index]?.questions.length ?? 0) === 0) {
    if (pushed === undefined && (await openFromSealed(c, index))) keysOpened++;
    else {
      keysFallback[index] = (keysFallback[index] ?? 0) + 1;
      await sleepUntil(c, window.startsAt + QUESTIONS_AFTER_OPEN_MS + Math.random() * QUESTIONS_FALLBACK_SPREAD_MS);
    }
  }
  for (let wait = 500; (c.flow[index]?.questions.length ?? 0) === 0 && serverNow(c) < window.endsAt; wait *= 2) {
    await loadFlow(c);
    if ((c.flow[index]?.questions.length ?? 0) === 0) await sleep(wait);
  }
  const subject = c.flow[index];
  if (!subject?.questions.length) return;
  const span = window.endsAt - window.startsAt;
  const plan: { at: number; questionId: number; value: string }[] = [];
  for (const q of subject.questions) {
    const key = input.keys[String(q.id)];
    if (!key || Math.random() > input.answerShare) continue;
    const right = Math.random() < c.ability;
    const value = right ? key.correct : key.wrong.length ? pick(key.wrong) : "0";
    const at = window.startsAt + 2000 + Math.random() * (span - 5000);
    plan.push({ at, questionId: q.id, value });
    // Second thoughts: a share of the answers is changed later in the subject.
    if (Math.random() < input.changeShare) {
      const later = at + Math.random() * Math.max(0, window.endsAt - 3000 - at);
      plan.push({ at: later, questionId: q.id, value: right ? pick([...key.wrong, "1"]) : key.correct });
    }
  }
  plan.sort((a, b) => a.at - b.at);
  // The wave: a share of the students anywhere, their drops spread over 2 s (a network blip), or every candidate of
  // room 0 within 100 ms (the reconnect load of that room restarted; the room itself stays warm).
  const reconnecting =
    index === wave.subjectIndex && (input.waveMode === "room" ? c.room === 0 : Math.random() < input.reconnectShare);
  const dropAt = window.startsAt + span / 2 + Math.random() * (input.waveMode === "room" ? 100 : 2000);
  let blip: Promise<void> | null = null;
  /** Questions saved over HTTP during the blip: the read-back check leaves them out (their save may land either side of the hello). */
  const overHttp = new Set<number>();
  for (const p of plan) {
    if (reconnecting && !blip && p.at > dropAt) {
      await sleepUntil(c, dropAt);
      blip = reconnectAndReadBack(c, wave, overHttp);
    }
    await sleepUntil(c, p.at);
    // As the runner: while the socket is down the answer waits for the reconnected socket, for SOCKET_BLIP_GRACE_MS
    // after the drop (less near the subject's end); past that it is saved over HTTP, into the same room.
    if (c.blip) holdOrSaveOverHttp(c, subject.id, p.questionId, p.value, window.endsAt, overHttp);
    else await send(c, subject.id, p.questionId, p.value);
  }
  await blip;
  await c.saves;
}

/** useSimulationRoom's saveAnswer with the socket down: held for the reconnect within the grace, else over HTTP. */
function holdOrSaveOverHttp(
  c: Client,
  subjectId: number,
  questionId: number,
  value: string,
  endsAt: number,
  overHttp: Set<number>,
) {
  const now = performance.now();
  const flushAt = blipFlushAt(c.droppedAt, now, endsAt - serverNow(c));
  if (flushAt <= now) {
    saveOverHttp(c, subjectId, questionId, value, overHttp);
    return;
  }
  c.held.push({ subjectId, questionId, value });
  (c.answers[String(subjectId)] ??= {})[String(questionId)] = value;
  c.flushTimer ??= setTimeout(() => {
    c.flushTimer = undefined;
    if (c.blip) for (const h of c.held.splice(0)) saveOverHttp(c, h.subjectId, h.questionId, h.value, overHttp);
  }, flushAt - now);
}

/** The runner's HTTP autosave of one answer (POST /simulazione.data, mid-exam), chained after the client's others. */
function saveOverHttp(c: Client, subjectId: number, questionId: number, value: string, overHttp: Set<number>) {
  overHttp.add(questionId);
  (c.answers[String(subjectId)] ??= {})[String(questionId)] = value;
  c.saves = c.saves.then(async () => {
    const began = performance.now();
    const response = await http(c, `/simulazione.data?id=${input.simulationId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ answers: { [subjectId]: { [questionId]: value } }, timeTaken: 0 }),
    });
    const text = response ? await response.text() : "";
    if (response?.ok && !text.includes('"error"')) httpSaveLatencies.push(performance.now() - began);
    else httpSavesFailed++;
  });
}

type Wave = { subjectIndex: number; tried: number; reconnected: number; readBack: number };

async function reconnectAndReadBack(c: Client, wave: Wave, overHttp: Set<number>) {
  wave.tried++;
  c.blip = true;
  // Wait for outstanding acks first (what the room acknowledged must come back), then drop the socket.
  for (let i = 0; i < 40 && c.inFlight.size; i++) await sleep(50);
  const expected = new Map(c.acked);
  const old = c.ws;
  c.ws = null;
  c.droppedAt = performance.now();
  old?.close(1000, "bench: network blip");
  // The browser sees a blip as an abnormal close (1006): its back-off, started over by the last hello (0.5–1.5 s).
  const hello = await comeBack(c, c.backoff.afterClose(1006, "", performance.now()).delayMs);
  c.blip = false;
  clearTimeout(c.flushTimer);
  c.flushTimer = undefined;
  const waiting = c.held.splice(0);
  if (!hello) {
    for (const h of waiting) saveOverHttp(c, h.subjectId, h.questionId, h.value, overHttp);
    return;
  }
  // The runner resends what waited on the new socket as soon as it opens.
  for (const h of waiting) void send(c, h.subjectId, h.questionId, h.value);
  wave.reconnected++;
  const saved = (hello.answers ?? {}) as Record<string, Record<string, string>>;
  const held = new Map(Object.values(saved).flatMap((qs) => Object.entries(qs).map(([q, v]) => [Number(q), v])));
  if ([...expected].every(([q, v]) => overHttp.has(q) || held.get(q) === v)) wave.readBack++;
}

/** The ranking's own position, in the full shape ({pos, position, ranking[]}) or a paged one. */
function positionOf(body: Record<string, unknown>): number | null {
  const candidates = [
    body.pos,
    body.position,
    (body.me as Record<string, unknown> | undefined)?.pos,
    (body.me as Record<string, unknown> | undefined)?.position,
    (body.mine as Record<string, unknown> | undefined)?.pos,
    (body.mine as Record<string, unknown> | undefined)?.position,
    (body.own as Record<string, unknown> | undefined)?.position,
  ];
  const found = candidates.find((v) => typeof v === "number");
  return typeof found === "number" ? found : null;
}

async function runAll(waveSubject: number) {
  const deadline = Date.now() + 90_000;
  while (clients.some((c) => c.startTime === undefined) && Date.now() < deadline) await sleep(50);
  const wave: Wave = { subjectIndex: waveSubject, tried: 0, reconnected: 0, readBack: 0 };
  const outcomes = await Promise.all(
    clients.map(async (c) => {
      if (c.startTime === undefined) return { graded: false, rankingBytes: null, position: null };
      const windows = subjectWindows(c.flow, c.startTime);
      for (let i = 0; i < windows.length; i++) await sitSubject(c, i, windows[i]!, wave);
      return finishWithRanking(c, windows);
    }),
  );
  return {
    startReceipts: clients.filter((c) => c.startReceivedAt !== undefined).map((c) => c.startReceivedAt!),
    endReceipts: clients.filter((c) => c.endReceivedAt !== undefined).map((c) => c.endReceivedAt!),
    startTime: clients.find((c) => c.startTime !== undefined)?.startTime ?? null,
    answersSent,
    acked: ackLatencies.length,
    rejected: answersRejected,
    rejectedBy,
    ackLatencies,
    ackBySlot,
    moved: clients.reduce((n, c) => n + c.moved, 0),
    resumed: resumedConnects,
    wave,
    graded: outcomes.filter((o) => o.graded).length,
    rankingBytes: outcomes.flatMap((o) => (o.rankingBytes === null ? [] : [o.rankingBytes])),
    positions: outcomes.filter((o) => o.position !== null).length,
    httpCalls: clients.map((c) => c.http),
    httpErrors,
    httpSaveLatencies,
    httpSavesFailed,
    keysOpened,
    keysPushed,
    keysFallback,
    keysRefused,
    keysTimedOut,
  };
}

async function finishWithRanking(c: Client, windows: { startsAt: number; endsAt: number }[]) {
  const end = windows.at(-1)!.endsAt;
  await sleepUntil(c, end);
  // Every answer acknowledged and the socket open: wait for the room's grading (simulation-end), then ask at a random
  // instant of the spread, as the browser does; else at once.
  const waitLimit = (c.roomEndsAt ?? end) + SIMULATION_GRACE_MS + END_WAIT_MAX_MS;
  if (c.inFlight.size === 0 && c.ws?.readyState === WebSocket.OPEN) {
    while (c.endReceivedAt === undefined && serverNow(c) < waitLimit && c.ws?.readyState === WebSocket.OPEN)
      await sleep(100);
    await sleep(Math.random() * endSubmitSpreadMs(c.rooms));
  }
  const timeTaken = Math.round((end - c.startTime!) / 1000);
  let graded = false;
  for (let attempt = 0; attempt <= 4 && !graded; attempt++) {
    const response = await http(c, `/simulazione.data?id=${input.simulationId}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ answers: c.answers, timeTaken }),
    });
    const text = response ? await response.text() : "";
    if (response?.ok && text.includes("attemptId")) graded = true;
    else if (response && response.status >= 400 && response.status < 500) break;
    else await sleep(1000 * 2 ** attempt);
  }
  if (!graded) return { graded, rankingBytes: null, position: null };
  const ranking = await http(c, `/api/simulations/${input.simulationId}/ranking`);
  if (!ranking?.ok) return { graded, rankingBytes: null, position: null };
  const raw = await ranking.arrayBuffer();
  const body = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>;
  c.done = true;
  c.ws?.close(1000, "bench: done");
  return { graded, rankingBytes: raw.byteLength, position: positionOf(body) };
}

parentPort!.on("message", async (command: { run: string; waveSubject?: number }) => {
  if (command.run === "connect") parentPort!.postMessage({ phase: "connected", ...(await connectAll()) });
  else if (command.run === "resync") parentPort!.postMessage({ phase: "resynced", ...(await resyncAll()) });
  else if (command.run === "sit")
    parentPort!.postMessage({ phase: "sat", ...(await runAll(command.waveSubject ?? 1)) });
});
