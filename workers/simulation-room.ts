// One Durable Object per live simulation. It is the authority on time for its exam:
// it fixes the start, answers clock pings, stores every answer as it is given (autosave, in its own
// SQLite storage so that eviction loses nothing), refuses answers for closed subjects, and at the end
// grades everybody on the server and writes the attempts to D1 once.
// Sockets use the hibernation API: per-socket data lives in the socket's attachment.
import { DurableObject } from "cloudflare:workers";
import { SIMULATION_GRACE_MS } from "../app/lib/constants";
import { flowEnd, gradeSimulation, subjectWindows, type AnswerKey, type FlowSubject, type SimulationResult } from "../app/lib/simulation";
import { getDb } from "../app/server/db/client.server";
import { answerKeysOf, attemptOf, loadSimulation, resultOf, writeGradedAttempts } from "../app/server/simulations.server";

type SocketData = { userId: number; role: string };

/** What the room keeps about its exam. Answer keys stay here; no message to a client carries them. */
type RoomConfig = {
  simulationId: string;
  startTime: number;
  flow: FlowSubject[];
  subjects: { id: number; name: string; questionIds: number[]; keys: AnswerKey[] }[];
};

type ClientMessage =
  | { type: "ping"; t0?: number }
  | { type: "answer"; seq?: number; subjectId: number; questionId: number; value: string };

export type AttemptOutcome =
  | { ok: true; attemptId: number; result: SimulationResult; pending?: false }
  | { ok: true; pending: true; saved: number }
  | { ok: false; status: number; error: string };

const ROOM_TEXT = {
  badMessage: "Messaggio non valido.",
  notStarted: "La simulazione non è ancora iniziata.",
  closed: "Tempo scaduto per questa materia: la risposta non è stata salvata.",
  notYet: "Questa materia non è ancora iniziata.",
  unknownQuestion: "Domanda non presente in questa simulazione.",
  badValue: "Risposta non valida.",
  finished: "Tempo scaduto: la simulazione è già stata corretta.",
} as const;

const MAX_ANSWER_CHARS = 200;

export class SimulationRoom extends DurableObject<Env> {
  private finalizing: Promise<void> | null = null;
  /** Last time D1 was asked whether a not-yet-started simulation has started (a class connecting at once asks once). */
  private lastStartCheck = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS answers (user_id INTEGER NOT NULL, subject_id INTEGER NOT NULL, question_id INTEGER NOT NULL,
        value TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (user_id, question_id))`,
    );
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS participants (user_id INTEGER PRIMARY KEY, time_sec INTEGER)`);
  }

  // --- small storage helpers ---

  private meta(key: string): string | null {
    const row = this.ctx.storage.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    return row ? row.value : null;
  }

  private setMeta(key: string, value: string) {
    this.ctx.storage.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value);
  }

  /** Parsed once per wake-up: every answer message needs it. */
  private configCache: RoomConfig | null = null;

  private config(): RoomConfig | null {
    if (this.configCache) return this.configCache;
    const raw = this.meta("config");
    this.configCache = raw ? (JSON.parse(raw) as RoomConfig) : null;
    return this.configCache;
  }

  private storeConfig(config: RoomConfig) {
    this.setMeta("config", JSON.stringify(config));
    this.configCache = config;
  }

  /** The room's config, loaded from D1 the first time the simulation is seen started. */
  private async ensureConfig(simulationId: string | null = this.meta("simulationId")): Promise<RoomConfig | null> {
    const cached = this.config();
    if (cached) return cached;
    if (!simulationId) return null;
    const now = Date.now();
    if (now - this.lastStartCheck < 2000) return null;
    this.lastStartCheck = now;
    const sim = await loadSimulation(getDb(this.env.DB), simulationId);
    if (!sim || !sim.started || sim.startTime == null) return null;
    const config: RoomConfig = {
      simulationId,
      startTime: sim.startTime,
      flow: sim.subjects.map((s) => ({ id: s.id, name: s.name, timeMin: s.timeMin, breakAfterMin: s.breakAfterMin })),
      subjects: answerKeysOf(sim),
    };
    this.setMeta("simulationId", simulationId);
    this.storeConfig(config);
    await this.scheduleNextAlarm(config);
    return config;
  }

  private answersOf(userId: number): Record<string, Record<string, string>> {
    const out: Record<string, Record<string, string>> = {};
    for (const row of this.ctx.storage.sql.exec<{ subject_id: number; question_id: number; value: string }>(
      `SELECT subject_id, question_id, value FROM answers WHERE user_id = ?`,
      userId,
    )) {
      (out[String(row.subject_id)] ??= {})[String(row.question_id)] = row.value;
    }
    return out;
  }

  private broadcast(message: unknown) {
    const text = JSON.stringify(message);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // a socket closing under us: it will reconnect and get the state in its hello
      }
    }
  }

  // --- sockets ---

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Questo indirizzo accetta solo connessioni WebSocket." }, { status: 426 });
    }
    const userId = Number(request.headers.get("X-Unicum-User-Id"));
    const role = request.headers.get("X-Unicum-Role") ?? "studente";
    const simulationId = request.headers.get("X-Unicum-Simulation-Id");
    if (simulationId && !this.meta("simulationId")) this.setMeta("simulationId", simulationId);
    const config = await this.ensureConfig();
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ userId, role } satisfies SocketData);
    if (role !== "admin") this.ctx.storage.sql.exec(`INSERT OR IGNORE INTO participants (user_id) VALUES (?)`, userId);
    // A late joiner gets the whole state at once: start instant and its own saved answers.
    server.send(
      JSON.stringify({
        type: "hello",
        serverTime: Date.now(),
        id: this.meta("simulationId"),
        started: config != null,
        startTime: config?.startTime ?? null,
        answers: this.answersOf(userId),
        graded: this.meta("graded") != null,
      }),
    );
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    let parsed: ClientMessage;
    try {
      parsed = JSON.parse(typeof message === "string" ? message : new TextDecoder().decode(message));
    } catch {
      ws.send(JSON.stringify({ type: "error", error: ROOM_TEXT.badMessage }));
      return;
    }
    if (parsed?.type === "ping") {
      // Clock sync: the client keeps the fastest round trips and derives its offset from serverTime.
      ws.send(JSON.stringify({ type: "pong", t0: parsed.t0 ?? null, serverTime: Date.now() }));
      return;
    }
    if (parsed?.type === "answer") {
      const { userId } = ws.deserializeAttachment() as SocketData;
      const outcome = await this.saveAnswer(userId, parsed.subjectId, parsed.questionId, parsed.value, Date.now());
      const base = { seq: parsed.seq ?? null, subjectId: parsed.subjectId, questionId: parsed.questionId };
      ws.send(JSON.stringify(outcome === true ? { type: "ack", ...base } : { type: "rejected", ...base, error: outcome }));
      return;
    }
    ws.send(JSON.stringify({ type: "error", error: ROOM_TEXT.badMessage }));
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
  }

  /** Stores one answer (empty = cleared) if its subject is open at `now` (plus the grace); else the refusal text. */
  private async saveAnswer(userId: number, subjectId: unknown, questionId: unknown, value: unknown, now: number): Promise<true | string> {
    const config = await this.ensureConfig();
    if (!config) return ROOM_TEXT.notStarted;
    if (typeof value !== "string" || value.length > MAX_ANSWER_CHARS) return ROOM_TEXT.badValue;
    const index = config.subjects.findIndex((s) => s.id === subjectId);
    const subject = config.subjects[index];
    if (!subject || typeof questionId !== "number" || !subject.questionIds.includes(questionId)) return ROOM_TEXT.unknownQuestion;
    const window = subjectWindows(config.flow, config.startTime)[index]!;
    const closedThrough = Number(this.meta("closedThrough") ?? 0);
    if (now < window.startsAt) return ROOM_TEXT.notYet;
    if (index < closedThrough || now > window.endsAt + SIMULATION_GRACE_MS) return ROOM_TEXT.closed;
    const key = subject.keys.find((k) => k.id === questionId)!;
    if (value.trim() === "") {
      this.ctx.storage.sql.exec(`DELETE FROM answers WHERE user_id = ? AND question_id = ?`, userId, questionId);
    } else {
      if (key.type === "mc" && !(key.options ?? []).includes(value)) return ROOM_TEXT.badValue;
      this.ctx.storage.sql.exec(
        `INSERT INTO answers (user_id, subject_id, question_id, value, at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id, question_id) DO UPDATE SET value = excluded.value, at = excluded.at`,
        userId,
        subjectId as number,
        questionId,
        value,
        now,
      );
    }
    this.ctx.storage.sql.exec(`INSERT OR IGNORE INTO participants (user_id) VALUES (?)`, userId);
    return true;
  }

  // --- calls from the Worker (RPC) ---

  /** Called once the start is written to D1: loads the exam, schedules the deadlines, tells everyone. */
  async start(simulationId: string): Promise<{ startTime: number } | null> {
    this.setMeta("simulationId", simulationId);
    this.lastStartCheck = 0;
    const config = await this.ensureConfig(simulationId);
    if (!config) return null;
    this.broadcast({ type: "simulation-start", id: simulationId, startTime: config.startTime });
    return { startTime: config.startTime };
  }

  /**
   * POST /api/simulations/{id}/attempt: merges the submitted answers with the autosaved ones (only
   * for subjects still open), and once the exam is over grades and returns the stored result.
   * Idempotent: a repeated submission returns the same attempt.
   */
  async submitAttempt(userId: number, answers: Record<string, Record<string, string>>, timeTaken: number): Promise<AttemptOutcome> {
    const config = await this.ensureConfig();
    if (!config) return { ok: false, status: 409, error: ROOM_TEXT.notStarted };
    const end = flowEnd(config.flow, config.startTime);
    let now = Date.now();
    if (this.meta("graded") != null || now > end + SIMULATION_GRACE_MS) {
      const stored = await attemptOf(getDb(this.env.DB), config.simulationId, userId);
      if (stored) return { ok: true, attemptId: stored.id, result: resultOf(stored) };
      if (this.meta("graded") != null) return { ok: false, status: 409, error: ROOM_TEXT.finished };
    }
    let saved = 0;
    for (const [subjectId, byQuestion] of Object.entries(answers)) {
      for (const [questionId, value] of Object.entries(byQuestion)) {
        if ((await this.saveAnswer(userId, Number(subjectId), Number(questionId), value, now)) === true) saved++;
      }
    }
    // Mid-exam this call is the HTTP autosave (no WebSocket): it must not set the time taken.
    if (now < end - 10_000) return { ok: true, pending: true, saved };
    this.ctx.storage.sql.exec(
      `INSERT INTO participants (user_id, time_sec) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET time_sec = excluded.time_sec`,
      userId,
      Math.max(0, Math.round(timeTaken)),
    );
    // Close to the end (device clocks are estimates): wait out the grace, then grade everybody.
    now = Date.now();
    if (now < end + SIMULATION_GRACE_MS) await new Promise((r) => setTimeout(r, end + SIMULATION_GRACE_MS - now));
    await this.finalize();
    const stored = await attemptOf(getDb(this.env.DB), config.simulationId, userId);
    if (!stored) return { ok: false, status: 409, error: ROOM_TEXT.finished };
    return { ok: true, attemptId: stored.id, result: resultOf(stored) };
  }

  /** Forgets everything (the simulation was deleted). */
  async reset(): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(1000, "Simulazione eliminata");
      } catch {
        // already closed
      }
    }
    await this.ctx.storage.deleteAlarm();
    this.ctx.storage.sql.exec(`DELETE FROM meta`);
    this.configCache = null;
    this.ctx.storage.sql.exec(`DELETE FROM answers`);
    this.ctx.storage.sql.exec(`DELETE FROM participants`);
  }

  // --- deadlines ---

  private async scheduleNextAlarm(config: RoomConfig) {
    if (this.meta("graded") != null) return;
    const closed = Number(this.meta("closedThrough") ?? 0);
    const windows = subjectWindows(config.flow, config.startTime);
    const next = windows[closed];
    if (next) await this.ctx.storage.setAlarm(next.endsAt + SIMULATION_GRACE_MS);
  }

  /** Closes every subject whose time (plus grace) is over; after the last, grades. Safe to run twice. */
  async alarm(): Promise<void> {
    const config = this.config();
    if (!config) return;
    const now = Date.now();
    const windows = subjectWindows(config.flow, config.startTime);
    let closed = Number(this.meta("closedThrough") ?? 0);
    while (closed < windows.length && now >= windows[closed]!.endsAt + SIMULATION_GRACE_MS) closed++;
    this.setMeta("closedThrough", String(closed));
    if (closed >= windows.length) {
      await this.finalize();
      return;
    }
    this.broadcast({ type: "subject-closed", closedThrough: closed });
    await this.scheduleNextAlarm(config);
  }

  /** Grades every participant and writes the attempts to D1 once. */
  private async finalize(): Promise<void> {
    if (this.meta("graded") != null) return;
    this.finalizing ??= (async () => {
      const config = this.config();
      if (!config) return;
      const participants = this.ctx.storage.sql
        .exec<{ user_id: number; time_sec: number | null }>(`SELECT user_id, time_sec FROM participants`)
        .toArray();
      const durationSec = Math.round((flowEnd(config.flow, config.startTime) - config.startTime) / 1000);
      const graded = participants.map((p) => {
        const answers = this.answersOf(p.user_id);
        return { userId: p.user_id, answers, result: gradeSimulation(config.subjects, answers), timeSec: Math.min(p.time_sec ?? durationSec, durationSec) };
      });
      await writeGradedAttempts(this.env.DB, config.simulationId, graded, Date.now(), config.subjects);
      this.setMeta("closedThrough", String(config.flow.length));
      this.setMeta("graded", String(Date.now()));
      this.broadcast({ type: "simulation-end", id: config.simulationId });
    })();
    try {
      await this.finalizing;
    } finally {
      this.finalizing = null;
    }
  }

  // --- for tests and the bench ---

  connectedUserIds(): number[] {
    return this.ctx.getWebSockets().map((ws) => (ws.deserializeAttachment() as SocketData).userId);
  }

  /** Test hook: moves the stored start instant (to simulate time passing) and reschedules. */
  async shiftStartForTest(startTime: number): Promise<void> {
    const config = this.config();
    if (!config) return;
    this.storeConfig({ ...config, startTime });
    await this.scheduleNextAlarm({ ...config, startTime });
  }
}
