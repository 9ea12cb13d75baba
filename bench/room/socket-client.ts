// One candidate's room socket in the room bench (BENCH_ONLY=room), as the browser's useSimulationRoom keeps it: the
// runner's reconnect rules (app/lib/runner-timing.ts: a back-off that starts over only after the room's hello, jittered
// waits, a server close's comeback window), its clock sync (PINGS_PER_SYNC on its first open and on a reopen whose
// estimate is stale, syncsOnOpen; then every RESYNC_MS at the client's own phase), its answers (each version sent at
// once, the latest unacknowledged one of each question resent on every new socket, held while the socket is down for
// the blip's grace and then saved over HTTP), and the subject keys the room pushes or is asked for. What happens is
// written in the shared Recorder.
import { Agent } from "undici";
import {
  blipFlushAt,
  firstResyncMs,
  KEY_TIMEOUT_MS,
  PINGS_PER_SYNC,
  RESYNC_MS,
  ReconnectBackoff,
  syncsOnOpen,
} from "../../app/lib/runner-timing.ts";
import { ROOM_MOVED_CODE } from "../../app/lib/simulation-protocol.ts";
import { type ClockSample, estimateClockOffset } from "../../app/lib/simulation.ts";
import type { Recorder, Send } from "./pace.ts";

export type RoomUser = { id: number; cookie: string; extraPct: number };
export type SavedAnswers = Record<string, Record<string, string>>;
export type Hello = { answers?: SavedAnswers; startTime?: number | null; extraTimePct?: number; roomEndsAt?: number };
type Pending = { seq: number; subjectId: number; questionId: number; value: string; send: Send };
type Message = Record<string, unknown> & { type: string };

/** The students' HTTP calls share a bounded pool of connections (on the real day each has its own browser). */
const httpAgent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });

export class RoomSocket {
  ws: WebSocket | null = null;
  offset: number | null = null;
  startTime?: number;
  extraPct: number;
  roomEndsAt?: number;
  /** Date.now() when the room's simulation-end arrived (its grading and D1 write done). */
  endReceivedAt?: number;
  /** The latest acknowledged (or saved over HTTP) version of each question's answer. */
  readonly acked = new Map<number, { seq: number; value: string }>();
  /** Every version of each question's answer, in the order given. */
  readonly versions = new Map<number, { seq: number; value: string }[]>();
  onHello?: (hello: Hello, at: number) => void; // each hello, and when it came (a deploy's check)
  onStart?: () => void;
  protected done = false;
  private resume?: string;
  private readonly backoff: ReconnectBackoff;
  private samples: ClockSample[] = [];
  private pingsLeft = 0;
  private lastPongAt: number | null = null;
  private synced: (() => void) | null = null;
  private readonly keys = new Map<number, string>();
  private readonly keyWaiters = new Map<number, (key: string | null | undefined) => void>();
  /** The latest unacknowledged version of each question's answer (resent on every new socket), and every one by seq. */
  private readonly pending = new Map<number, Pending>();
  private readonly inFlight = new Map<number, Pending>();
  private readonly overHttp = new Set<number>();
  private seq = 0;
  /** When the open socket dropped, or the comeback the server asked for: the blip's grace counts from here. */
  private droppedAt: number | null = null;
  private readonly timers: { [_ in "blip" | "sync" | "reconnect"]?: ReturnType<typeof setTimeout> } = {};
  readonly user: RoomUser;
  /** The server (its baseUrl read at each call: a deploy sends new connections to the next version). */
  private readonly origin: { readonly baseUrl: string };
  readonly simulationId: string;
  protected readonly random: () => number;
  protected readonly rec: Recorder;

  constructor(
    user: RoomUser,
    origin: { readonly baseUrl: string },
    simulationId: string,
    random: () => number,
    rec: Recorder,
  ) {
    this.user = user;
    this.origin = origin;
    this.simulationId = simulationId;
    this.random = random;
    this.rec = rec;
    this.backoff = new ReconnectBackoff(random);
    this.extraPct = user.extraPct;
  }

  get baseUrl(): string {
    return this.origin.baseUrl;
  }

  serverNow(): number {
    return performance.now() + (this.offset ?? Date.now() - performance.now());
  }

  readonly pendingCount = () => this.pending.size;
  readonly isOpen = () => this.ws?.readyState === WebSocket.OPEN;

  /** One HTTP call of the browser (its failures counted by call). */
  /** `tries`: a connection that failed is tried again after a second (the student reloads), this many times in all. */
  async http(path: string, init: RequestInit = {}, tries = 3): Promise<Response | null> {
    const label = `${init.method ?? "GET"} ${path.split("?")[0]!.replace(this.simulationId, ":id")}`;
    for (let attempt = 1; ; attempt++) {
      this.rec.httpCalls++;
      try {
        const response = await fetch(`${this.baseUrl}${path}`, {
          ...init,
          headers: { cookie: this.user.cookie, ...(init.headers as Record<string, string> | undefined) },
          dispatcher: httpAgent,
        } as RequestInit);
        if (!response.ok) this.rec.count(this.rec.httpErrors, `${label} ${response.status}`);
        return response;
      } catch {
        this.rec.count(this.rec.httpErrors, `${label} network`);
        if (attempt >= tries) return null;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  /** Opens the socket (and keeps it, as the runner does); resolves once greeted and the first clock sync is done. */
  connectAndSync(timeoutMs: number): Promise<boolean> {
    const synced = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.synced = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    this.connect();
    return synced;
  }

  private connect() {
    const base = `${this.baseUrl.replace(/^http/, "ws")}/api/simulations/${this.simulationId}/ws`;
    const url = this.resume ? `${base}?resume=${encodeURIComponent(this.resume)}` : base;
    const ws = new WebSocket(url, { headers: { cookie: this.user.cookie } } as unknown as string[]);
    this.ws = ws;
    let opened = false;
    let greeted = false;
    ws.onopen = () => {
      opened = true;
      this.backoff.opened(performance.now());
      this.droppedAt = null;
      clearTimeout(this.timers.blip);
      this.timers.blip = undefined;
      if (syncsOnOpen(this.lastPongAt, performance.now())) this.sync();
      this.timers.sync = setTimeout(() => this.resync(), firstResyncMs(this.random()));
      const now = performance.now();
      for (const p of this.pending.values()) this.sendOn(ws, p, now);
    };
    ws.onmessage = (event) => {
      const m = JSON.parse(String(event.data)) as Message;
      if (m.type === "hello") {
        greeted = true;
        this.backoff.greet();
      }
      this.receive(m, performance.now());
    };
    let ended = false;
    const end = (code: number, reason: string) => {
      if (ended) return;
      ended = true;
      clearTimeout(this.timers.sync);
      for (const [subject, waiter] of this.keyWaiters) {
        this.keyWaiters.delete(subject);
        waiter(undefined);
      }
      if (this.ws === ws) this.ws = null;
      if (this.done) return;
      this.rec.count(this.rec.closeCodes, opened ? String(code) : "never opened");
      // As the runner: refused before its hello, or moved, the next try goes through the session.
      if (!greeted || code === ROOM_MOVED_CODE) this.resume = undefined;
      const comeback = this.backoff.afterClose(code, reason, performance.now());
      if (opened) this.droppedAt = comeback.holdFrom;
      this.timers.reconnect = setTimeout(() => this.connect(), comeback.delayMs);
    };
    ws.onclose = (event) => end(event.code, event.reason);
    // Node's WebSocket (undici) reports a connection that failed (refused, a non-101 answer) with an error and no close
    // event; a browser closes it (1006) after the error, and its runner retries from there.
    ws.onerror = () => {
      if (!opened) end(1006, "");
    };
  }

  private receive(m: Message, at: number) {
    if (typeof m.resume === "string") this.resume = m.resume;
    if (m.type === "pong") {
      this.lastPongAt = at;
      if (typeof m.t0 === "number")
        this.samples = [...this.samples.slice(-11), { sentAt: m.t0, receivedAt: at, serverTime: Number(m.serverTime) }];
      this.offset = estimateClockOffset(this.samples, 3)?.offset ?? this.offset;
      if (--this.pingsLeft > 0) this.ping();
      else if (this.offset !== null) this.synced?.();
    } else if (m.type === "hello" || m.type === "simulation-start") {
      if (typeof m.startTime === "number") this.startTime = m.startTime;
      if (typeof m.extraTimePct === "number") this.extraPct = m.extraTimePct;
      if (typeof m.roomEndsAt === "number") this.roomEndsAt = m.roomEndsAt;
      if (m.type === "hello") this.onHello?.(m as Hello, at);
      else this.onStart?.();
    } else if (m.type === "simulation-end") this.endReceivedAt ??= Date.now();
    else if (m.type === "subject-key" || m.type === "key-refused") {
      const subject = Number(m.subject);
      if (m.type === "subject-key") this.keys.set(subject, String(m.key));
      const waiter = this.keyWaiters.get(subject);
      this.keyWaiters.delete(subject);
      waiter?.(m.type === "subject-key" ? String(m.key) : null);
    } else if (m.type === "ack" || m.type === "rejected") {
      const p = this.inFlight.get(Number(m.seq));
      if (!p) return;
      this.inFlight.delete(p.seq);
      if (m.type === "ack") {
        p.send.ackMs = at - p.send.at;
        this.settled(p);
      } else this.rec.count(this.rec.rejected, String(m.error));
      if (this.pending.get(p.questionId)?.seq === p.seq) this.pending.delete(p.questionId);
    }
  }

  private settled(p: Pending) {
    if ((this.acked.get(p.questionId)?.seq ?? 0) < p.seq) this.acked.set(p.questionId, { seq: p.seq, value: p.value });
  }

  private ping() {
    if (!this.isOpen()) return;
    this.rec.pings++;
    this.ws!.send(JSON.stringify({ type: "ping", t0: performance.now() }));
  }

  private sync() {
    this.pingsLeft = PINGS_PER_SYNC;
    this.ping();
  }

  private resync() {
    this.sync();
    this.timers.sync = setTimeout(() => this.resync(), RESYNC_MS);
  }

  private sendOn(ws: WebSocket, p: Pending, now: number) {
    p.send.at = now;
    const { seq, subjectId, questionId, value } = p;
    ws.send(JSON.stringify({ type: "answer", seq, subjectId, questionId, value }));
  }

  /** The runner's saveAnswer: sent at once on an open socket; else held for the reconnect, or over HTTP. */
  saveAnswer(subjectId: number, questionId: number, value: string, msLeft?: number) {
    const now = performance.now();
    const previous = this.pending.get(questionId);
    if (previous) previous.send.superseded = true;
    const p: Pending = { seq: ++this.seq, subjectId, questionId, value, send: { at: now } };
    this.rec.sends.push(p.send);
    this.pending.set(questionId, p);
    this.inFlight.set(p.seq, p);
    const list = this.versions.get(questionId) ?? [];
    list.push({ seq: p.seq, value });
    this.versions.set(questionId, list);
    if (this.isOpen()) return this.sendOn(this.ws!, p, now);
    const flushAt = blipFlushAt(this.droppedAt, now, msLeft);
    if (flushAt <= now) return this.saveOverHttp(p);
    this.timers.blip ??= setTimeout(() => {
      this.timers.blip = undefined;
      if (!this.isOpen()) for (const q of this.pending.values()) this.saveOverHttp(q);
    }, flushAt - now);
  }

  /** One pending answer over HTTP into the same room (POST /simulazione.data, the runner's autosave). */
  private saveOverHttp(p: Pending) {
    if (this.overHttp.has(p.seq)) return;
    this.overHttp.add(p.seq);
    void this.http(
      `/simulazione.data?id=${this.simulationId}`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ answers: { [p.subjectId]: { [p.questionId]: p.value } }, timeTaken: 0 }),
      },
      1,
    ).then(async (response) => {
      this.overHttp.delete(p.seq);
      const text = response ? await response.text() : "";
      if (!response?.ok || text.includes('"error"')) return void this.rec.httpSavesFailed++;
      this.rec.httpSaves++;
      p.send.http = true;
      this.settled(p);
      if (this.pending.get(p.questionId)?.seq === p.seq) this.pending.delete(p.questionId);
    });
  }

  /** The key the room sent (or sends within `timeoutMs`); asked for with `ask`. Null: refused; undefined: none. */
  key(subject: number, timeoutMs: number, ask = false): Promise<string | null | undefined> {
    const known = this.keys.get(subject);
    if (known !== undefined) return Promise.resolve(known);
    if (!this.isOpen()) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.keyWaiters.delete(subject);
        resolve(undefined);
      }, timeoutMs);
      this.keyWaiters.set(subject, (key) => {
        clearTimeout(timer);
        resolve(key);
      });
      if (ask) this.ws!.send(JSON.stringify({ type: "key", subject }));
    });
  }

  requestKey(subject: number) {
    return this.key(subject, KEY_TIMEOUT_MS, true);
  }

  /** The candidate leaves: no reconnect, no timer. */
  close() {
    this.done = true;
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    this.ws?.close(1000, "bye");
  }
}
