// One room of a live simulation (a simulation of N students runs in ceil(N / 1,000) rooms, each a
// Durable Object named "<simulationId>:<shard>"; app/server/simulation/ decides who goes
// where and fans the start out). Every room is an authority on time for its students: it keeps the one
// absolute start instant written in D1, answers clock pings, stores every answer as it is given
// (autosave, in its own SQLite storage so that eviction or a crash loses nothing), refuses answers for
// closed subjects, and at the end grades its own students and writes their attempts to D1.
// Sockets use the hibernation API: per-socket data lives in the socket's attachment. The message
// types are the zod schemas of app/lib/simulation-protocol.ts, shared with the browser.
import { DurableObject } from "cloudflare:workers";
import { SIMULATION_GRACE_MS } from "../app/lib/constants";
import { nextAlarm, openedBetween, planOf, type RoomConfig, type RoomPlan } from "../app/lib/room-plan";
import { gradeSimulation, memoJudge, type SimulationResult } from "../app/lib/simulation";
import {
  encodeServerMessage,
  encodeStaffMessage,
  type LivePupil,
  type LiveStateMessage,
  MAX_ANSWER_CHARS,
  parseClientFrame,
  ROOM_MOVED_CODE,
  type AnswerMessage,
  type SavedAnswers,
  type ServerMessage,
} from "../app/lib/simulation-protocol";
import { simulationExtraTimes } from "../app/server/accommodations.server";
import { getDb } from "../app/server/db/client.server";
import { d1UsageEnabled, withD1Usage } from "../app/server/db/d1-usage.server";
import { answerKeysOf, loadSimulation } from "../app/server/simulation/plan.server";
import { attemptOf, resultOf } from "../app/server/simulation/results.server";
import { roomFor } from "../app/server/simulation/door.server";
import { writeGradedAttempts } from "../app/server/simulation/grading.server";
import { RESUME_AFTER_END_MS, signResume } from "../app/server/simulation/room-resume.server";
import { subjectBinding, subjectKeyText } from "../app/server/simulation/sealed-copies.server";

/**
 * Saved answers grouped by SQLite: one row per (student, subject) carrying that subject's answers as a JSON object
 * (question id → value), not one row per answer. Reading a room's 90,000 answers row by row was a third of its grading.
 */
const SAVED_BY_SUBJECT = `SELECT user_id, subject_id, json_group_object(CAST(question_id AS TEXT), value) FROM answers`;

/** The rows of SAVED_BY_SUBJECT as each student's saved answers (subject id → question id → value). */
function savedByUserOf(rows: Iterable<[number, number, string]>): Map<number, SavedAnswers> {
  const byUser = new Map<number, SavedAnswers>();
  for (const [userId, subjectId, answers] of rows) {
    let saved = byUser.get(userId);
    if (!saved) {
      saved = {};
      byUser.set(userId, saved);
    }
    saved[String(subjectId)] = JSON.parse(answers) as Record<string, string>;
  }
  return byUser;
}

/** The question ids of saved answers. */
function questionIdsOf(saved: SavedAnswers): number[] {
  return Object.values(saved).flatMap((questions) => Object.keys(questions).map(Number));
}

/** `staff`: the teacher's live view (tag "staff"); a candidate's socket is tagged "user:<id>". */
type SocketData = { userId: number; role: string; staff?: boolean };
const STAFF_TAG = "staff";
const userTag = (userId: number) => `user:${userId}`;

export type AttemptOutcome =
  | { ok: true; attemptId: number; result: SimulationResult; pending?: false }
  | { ok: true; pending: true; saved: number }
  | { ok: false; status: number; error: string };

export type RoomStats = { shard: number; connected: number; answered: number; answers: number; graded: boolean };

const ROOM_TEXT = {
  badMessage: "Messaggio non valido.",
  notStarted: "La simulazione non è ancora iniziata.",
  closed: "Tempo scaduto per questa materia: la risposta non è stata salvata.",
  notYet: "Questa materia non è ancora iniziata.",
  unknownQuestion: "Domanda non presente in questa simulazione.",
  badValue: "Risposta non valida.",
  finished: "Tempo scaduto: la simulazione è già stata corretta.",
  unknownSubject: "Materia inesistente in questa simulazione.",
  keyNotForStaff: "Le domande delle materie si aprono solo per i candidati.",
  noKey: "Chiave della materia non disponibile: le domande arrivano dal server.",
  notStored: "Risposta non salvata per un errore del server: inviala di nuovo.",
  staleResume: "Accesso alla simulazione scaduto: ricollegati.",
} as const;

/** Rooms do not all write to D1 in the same instant at the end: room k waits k × this (capped). */
const GRADE_STAGGER_MS = 150;
const GRADE_STAGGER_MAX_MS = 6000;
/**
 * How long an accepted answer waits for others to share its storage commit (and one write statement): a national
 * sitting's room takes hundreds of answers a second, and a commit per answer was a fifth of its time.
 */
const ANSWER_BATCH_MS = 20;
/** Answers per multi-row write: 5 bound values each, and a Durable Object's SQLite binds at most 100 per statement. */
const ANSWER_WRITE_ROWS = 20;
/**
 * The longest an attempt call waits for the room's last deadline before answering "pending": a candidate done while an
 * accommodated one still writes gets the result at simulation-end (the runner submits again then).
 */
const SUBMIT_WAIT_MAX_MS = 15_000;

export class SimulationRoom extends DurableObject<Env> {
  private finalizing: Promise<void> | null = null;
  /** Last time D1 was asked whether a not-yet-started simulation has started (a class connecting at once asks once). */
  private lastStartCheck = 0;
  private plan: RoomPlan | null = null;
  /**
   * The meta rows, read once per wake-up and written through (only this object writes them): every socket's opening
   * and each deadline read several of them.
   */
  private metaCache = new Map<string, string | null>();
  /** How long the first answer of a batch waits for others (a test may hold a batch longer). */
  private answerBatchMs = ANSWER_BATCH_MS;
  /** Answers accepted but not yet written: flushed within ANSWER_BATCH_MS, or before grading. */
  private batch: { ws: WebSocket; userId: number; answer: AnswerMessage; at: number; ack: string }[] = [];
  /** Sealed prefetch: each subject's key (base64), derived once per wake-up from the plan (never stored). */
  private subjectKeys = new Map<number, Promise<string>>();
  /** Candidates known to have a participants row (this wake-up): a reconnect writes nothing. */
  private seated = new Set<number>();
  /** Resume tokens signed this wake-up, by user, role and sitting: a reconnect's hello signs nothing. */
  private resumeTokens = new Map<string, string>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withD1Usage(env)); // the bench's D1 meter; the same env otherwise

    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS answers (user_id INTEGER NOT NULL, subject_id INTEGER NOT NULL, question_id INTEGER NOT NULL,
        value TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (user_id, question_id))`,
    );
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS participants (user_id INTEGER PRIMARY KEY, time_sec INTEGER)`);
  }

  // --- small storage helpers ---

  private meta(key: string): string | null {
    if (this.metaCache.has(key)) return this.metaCache.get(key)!;
    const row = this.ctx.storage.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    const value = row ? row.value : null;
    this.metaCache.set(key, value);
    return value;
  }

  private setMeta(key: string, value: string) {
    this.ctx.storage.sql.exec(
      `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      value,
    );
    this.metaCache.set(key, value);
  }

  private get closedThrough(): number {
    return Number(this.meta("closedThrough") ?? 0);
  }

  private set closedThrough(value: number) {
    this.setMeta("closedThrough", String(value));
  }

  private get graded(): boolean {
    return this.meta("graded") != null;
  }

  /** The stored config, parsed once per wake-up (every answer needs it). */
  private currentPlan(): RoomPlan | null {
    if (this.plan) return this.plan;
    const raw = this.meta("config");
    if (!raw) return null;
    this.plan = planOf(JSON.parse(raw) as RoomConfig, SIMULATION_GRACE_MS);
    // After a restart of the process the deadline must still fire: re-arm it if it is missing.
    this.ensureAlarm(this.plan.config).catch((error) => console.warn("room: could not re-arm the deadline", error));
    return this.plan;
  }

  private storeConfig(config: RoomConfig) {
    this.setMeta("config", JSON.stringify(config));
    this.plan = planOf(config, SIMULATION_GRACE_MS);
  }

  /** A socket's attachment, deserialized once per wake-up (every answer needs its user). */
  private attachments = new WeakMap<WebSocket, SocketData>();
  private socketData(ws: WebSocket): SocketData {
    let data = this.attachments.get(ws);
    if (!data) {
      data = ws.deserializeAttachment() as SocketData;
      this.attachments.set(ws, data);
    }
    return data;
  }

  private shard(): number {
    return Number(this.meta("shard") ?? 0);
  }

  /** The room's plan, loaded from D1 the first time the simulation is seen started. */
  private async ensurePlan(known?: {
    simulationId: string;
    shard: number;
    startTime?: number;
  }): Promise<RoomPlan | null> {
    const cached = this.currentPlan();
    if (cached) return cached;
    const simulationId = known?.simulationId ?? this.meta("simulationId");
    if (!simulationId) return null;
    const now = Date.now();
    if (!known && now - this.lastStartCheck < 2000) return null;
    this.lastStartCheck = now;
    const db = getDb(this.env.DB);
    const sim = await loadSimulation(db, simulationId, { allowedUsers: false });
    const startTime = known?.startTime ?? sim?.startTime;
    if (!sim || !sim.started || startTime == null) return null;
    if (this.currentPlan()) return this.plan; // a concurrent call got there first
    const config: RoomConfig = {
      simulationId,
      shard: known?.shard ?? this.shard(),
      startTime,
      flow: sim.subjects.map((s) => ({ id: s.id, name: s.name, timeMin: s.timeMin, breakAfterMin: s.breakAfterMin })),
      // Each subject's key is bound to its questions as they are now (sealed copies made before an edit do not open).
      subjects: await Promise.all(
        answerKeysOf(sim).map(async (keys, i) => ({
          ...keys,
          binding: await subjectBinding(sim.subjects[i]!.questions),
        })),
      ),
      // Fixed at the start (simulation_accommodations): each accommodated candidate's own deadlines.
      extra: await simulationExtraTimes(db, simulationId),
      // THE sitting's end, stored at Avvia (moved with the start when the start is told here: a test's clock).
      ...(sim.endsAt != null && sim.startTime != null ? { endsAt: sim.endsAt + (startTime - sim.startTime) } : {}),
    };
    this.setMeta("simulationId", simulationId);
    this.storeConfig(config);
    await this.scheduleNextAlarm(config);
    return this.plan;
  }

  /**
   * A candidate's saved answers for their hello: the stored ones with their answers still waiting in the batch laid
   * over them, in order (a blank one clears). The batch is not flushed here: a reconnect wave would otherwise commit
   * once per socket. Those waiting answers are acknowledged to the old socket, so the runner sends them again anyway.
   */
  private answersOf(userId: number): SavedAnswers {
    const rows = this.ctx.storage.sql
      .exec(`${SAVED_BY_SUBJECT} WHERE user_id = ? GROUP BY subject_id`, userId)
      .raw<[number, number, string]>();
    const saved = savedByUserOf(rows).get(userId) ?? {};
    for (const { userId: owner, answer } of this.batch) {
      if (owner !== userId) continue;
      const subject = (saved[String(answer.subjectId)] ??= {});
      if (answer.value.trim() === "") delete subject[String(answer.questionId)];
      else subject[String(answer.questionId)] = answer.value;
    }
    for (const [subject, questions] of Object.entries(saved))
      if (Object.keys(questions).length === 0) delete saved[subject];
    return saved;
  }

  /** Every stored answer of the room, by student, in one read grouped by SQLite (the live state, the grading). */
  private savedByUser(): Map<number, SavedAnswers> {
    return savedByUserOf(
      this.ctx.storage.sql.exec(`${SAVED_BY_SUBJECT} GROUP BY user_id, subject_id`).raw<[number, number, string]>(),
    );
  }

  private broadcast(message: ServerMessage) {
    const text = encodeServerMessage(message);
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
    if (simulationId && !this.meta("simulationId")) {
      this.setMeta("simulationId", simulationId);
      this.setMeta("shard", request.headers.get("X-Unicum-Shard") ?? "0");
    }
    const plan = await this.ensurePlan();
    // A resume token from another sitting under the same id (deleted and made again): the session decides instead.
    const resumedStart = request.headers.get("X-Unicum-Resume-Start");
    if (resumedStart !== null && plan?.config.startTime !== Number(resumedStart)) {
      return Response.json({ error: ROOM_TEXT.staleResume }, { status: 401 });
    }
    const { 0: client, 1: server } = new WebSocketPair();
    if (request.headers.get("X-Unicum-Staff") === "1") {
      // The teacher's live view: the room's state now, then each change (no answers, keys or verdicts).
      this.ctx.acceptWebSocket(server, [STAFF_TAG]);
      server.serializeAttachment({ userId, role, staff: true } satisfies SocketData);
      server.send(encodeStaffMessage(this.liveState()));
      return new Response(null, { status: 101, webSocket: client });
    }
    this.ctx.acceptWebSocket(server, [userTag(userId)]);
    server.serializeAttachment({ userId, role } satisfies SocketData);
    // A reconnect writes nothing: a write here would commit in this event (one storage commit per socket of a wave).
    if (role !== "admin" && !this.seated.has(userId)) {
      this.ctx.storage.sql.exec(`INSERT OR IGNORE INTO participants (user_id) VALUES (?)`, userId);
      this.seated.add(userId);
    }
    // A late joiner gets the whole state at once: start instant, their own closed subjects and extra time, and
    // their saved answers.
    const now = Date.now();
    const resume = plan ? await this.resumeToken(plan, userId, role) : null;
    server.send(
      encodeServerMessage({
        type: "hello",
        serverTime: now,
        id: this.meta("simulationId"),
        started: plan != null,
        startTime: plan?.config.startTime ?? null,
        closedThrough: this.graded
          ? (plan?.config.flow.length ?? this.closedThrough)
          : Math.max(this.closedThrough, plan?.closedFor(userId, now) ?? 0),
        extraTimePct: plan?.extraOf(userId) ?? 0,
        ...(plan ? { roomEndsAt: plan.end } : {}),
        ...(resume ? { resume } : {}),
        answers: this.answersOf(userId),
        graded: this.graded,
      }),
    );
    if (role !== "admin") this.tellStaff(userId);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const parsed = parseClientFrame(message);
    if (!parsed) {
      ws.send(encodeServerMessage({ type: "error", error: ROOM_TEXT.badMessage }));
      return;
    }
    if (parsed.type === "ping") {
      // Clock sync: the client keeps the fastest round trips and derives its offset from serverTime.
      ws.send(encodeServerMessage({ type: "pong", t0: parsed.t0 ?? null, serverTime: Date.now() }));
      return;
    }
    const { userId, staff } = this.socketData(ws);
    if (parsed.type === "key") {
      await this.releaseKey(ws, userId, parsed.subject, staff === true);
      return;
    }
    if (staff) {
      ws.send(encodeStaffMessage({ type: "error", error: ROOM_TEXT.badMessage }));
      return;
    }
    const now = Date.now();
    const plan = this.plan ?? (await this.ensurePlan());
    const outcome = plan ? this.checkAnswer(plan, userId, parsed, now) : ROOM_TEXT.notStarted;
    const ref = { seq: parsed.seq ?? null, subjectId: parsed.subjectId, questionId: parsed.questionId };
    if (outcome !== true) {
      ws.send(encodeServerMessage({ type: "rejected", ...ref, error: outcome }));
      return;
    }
    // Accepted on arrival; written with the others that arrive within a few ms, so that a burst of answers
    // costs one storage commit instead of one each. The ack leaves only after the write (output gate).
    // The first answer of a batch waits inside its own event (a timer outside an event may not fire) while
    // the next messages are delivered and join the batch; then it writes and acknowledges them all.
    this.batch.push({ ws, userId, answer: parsed, at: now, ack: encodeServerMessage({ type: "ack", ...ref }) });
    if (this.batch.length > 1) return;
    await new Promise((resolve) => setTimeout(resolve, this.answerBatchMs));
    this.flushAnswers();
  }

  /**
   * Sealed prefetch (issue 31): the key of subject `index` to a candidate for whom it is open now (their own windows,
   * accommodation included: the same rule as the questions of GET /api/simulations/{id}), else a refusal. Derived once
   * per subject and wake-up (HKDF, no D1); each request after that costs a map lookup and one send, like an ack.
   */
  private async releaseKey(ws: WebSocket, userId: number, index: number, staff: boolean) {
    const refuse = (error: string) => ws.send(encodeServerMessage({ type: "key-refused", subject: index, error }));
    if (staff) return refuse(ROOM_TEXT.keyNotForStaff);
    const plan = this.plan ?? (await this.ensurePlan());
    if (!plan) return refuse(ROOM_TEXT.notStarted);
    const window = Number.isInteger(index) && index >= 0 ? plan.windowsOf(userId)[index] : undefined;
    const subject = window ? plan.config.subjects[index] : undefined;
    if (!window || !subject) return refuse(ROOM_TEXT.unknownSubject);
    if (Date.now() < window.startsAt) return refuse(ROOM_TEXT.notYet);
    const key = this.subjectKey(plan, index);
    if (!key) return refuse(ROOM_TEXT.noKey);
    try {
      ws.send(encodeServerMessage({ type: "subject-key", subject: index, key: await key }));
    } catch (error) {
      console.warn("room: could not release a subject key", error);
      try {
        refuse(ROOM_TEXT.noKey);
      } catch {
        // closed meanwhile: the runner asks again or falls back to HTTP
      }
    }
  }

  /**
   * A candidate's resume token (app/server/simulation/room-resume.server.ts): this user and role, this simulation and room, valid
   * until a few minutes after the room's last end. Null without a secret or when signing fails (the reconnect then
   * goes through the session, as a first connection does).
   */
  private async resumeToken(plan: RoomPlan, userId: number, role: string): Promise<string | null> {
    const secret = this.env.SESSION_SECRET;
    if (!secret || secret.length < 32) return null;
    const { simulationId, shard, startTime } = plan.config;
    const expiresAt = plan.end + RESUME_AFTER_END_MS;
    // The room's simulation and shard are fixed; the sitting (start, end) may move before it begins.
    const id = `${userId}|${role}|${startTime}|${expiresAt}`;
    const known = this.resumeTokens.get(id);
    if (known) return known;
    try {
      const token = await signResume(secret, { userId, role, simulationId, shard, startTime }, expiresAt);
      this.resumeTokens.set(id, token);
      return token;
    } catch (error) {
      console.warn("room: could not sign a resume token", error);
      return null;
    }
  }

  /** Subject `index`'s key (base64), derived once per wake-up (HKDF from SESSION_SECRET, no D1); null without a secret. */
  private subjectKey(plan: RoomPlan, index: number): Promise<string> | null {
    const secret = this.env.SESSION_SECRET;
    const subject = plan.config.subjects[index];
    if (!secret || !subject) return null;
    let key = this.subjectKeys.get(index);
    if (!key) {
      key = subjectKeyText(secret, plan.config.simulationId, index, subject.binding ?? "");
      key.catch(() => this.subjectKeys.delete(index));
      this.subjectKeys.set(index, key);
    }
    return key;
  }

  /**
   * Sealed prefetch (issue 31): at each opening (the alarm), the key of every subject that opened in (since, now] for a
   * connected candidate (their own windows) goes to them unasked, so a whole sitting opens its subject without a
   * request each. A socket opened later asks (releaseKey).
   */
  private async pushKeys(plan: RoomPlan, since: number, now: number) {
    const due = new Map<number, WebSocket[]>();
    for (const ws of this.ctx.getWebSockets()) {
      const { userId, staff } = this.socketData(ws);
      if (staff) continue;
      for (const index of openedBetween(plan.windowsOf(userId), since, now)) {
        const list = due.get(index);
        if (list) list.push(ws);
        else due.set(index, [ws]);
      }
    }
    for (const [index, sockets] of due) {
      let text: string;
      try {
        const key = this.subjectKey(plan, index);
        if (!key) return;
        text = encodeServerMessage({ type: "subject-key", subject: index, key: await key });
      } catch (error) {
        console.warn("room: could not derive a subject key", error);
        continue;
      }
      for (const ws of sockets) {
        try {
          ws.send(text);
        } catch {
          // closing: the runner asks again once reconnected
        }
      }
    }
  }

  /**
   * Writes the batched answers and acknowledges them: a run of answers with a value goes in one multi-row upsert (in
   * order, so a later answer to the same question wins), a cleared one is its own delete, in its place in the order.
   */
  private flushAnswers() {
    const batch = this.batch;
    this.batch = [];
    /** Answers that could not be written: refused to their sender (never acknowledged, never lost in silence). */
    const failed = new Set<(typeof batch)[number]>();
    const writeOne = (b: (typeof batch)[number]) => {
      try {
        this.writeAnswer(b.userId, b.answer, b.at);
      } catch (error) {
        console.warn("room: could not store an answer", error);
        failed.add(b);
      }
    };
    let run: typeof batch = [];
    const writeRun = () => {
      for (let i = 0; i < run.length; i += ANSWER_WRITE_ROWS) {
        const rows = run.slice(i, i + ANSWER_WRITE_ROWS);
        try {
          this.ctx.storage.sql.exec(
            `INSERT INTO answers (user_id, subject_id, question_id, value, at) VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}
             ON CONFLICT (user_id, question_id) DO UPDATE SET value = excluded.value, at = excluded.at`,
            ...rows.flatMap((b) => [b.userId, b.answer.subjectId, b.answer.questionId, b.answer.value, b.at]),
          );
        } catch (error) {
          // One at a time then: a row that cannot be written is refused, the others are stored.
          console.warn("room: a batch of answers could not be written at once", error);
          for (const b of rows) writeOne(b);
        }
      }
      run = [];
    };
    for (const b of batch) {
      if (b.answer.value.trim() === "") {
        writeRun();
        writeOne(b);
      } else run.push(b);
    }
    writeRun();
    for (const b of batch) {
      try {
        b.ws.send(
          failed.has(b)
            ? encodeServerMessage({
                type: "rejected",
                seq: b.answer.seq ?? null,
                subjectId: b.answer.subjectId,
                questionId: b.answer.questionId,
                error: ROOM_TEXT.notStored,
              })
            : b.ack,
        );
      } catch {
        // closed meanwhile: the answer is stored, the client reads it back in its next hello
      }
    }
    // The staff's live view, when one is watching (looked up once per batch, not per pupil).
    const staff = this.ctx.getWebSockets(STAFF_TAG);
    if (staff.length)
      for (const userId of new Set(batch.map((b) => b.userId))) this.tellStaff(userId, undefined, staff);
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
    const { userId, role, staff } = this.socketData(ws);
    if (!staff && role !== "admin") this.tellStaff(userId, ws);
  }

  // --- the teacher's live view (staff sockets) ---

  /** Which flow position each question is in (a subject may appear twice in a hand-made flow). */
  private answeredBySubject(plan: RoomPlan | null, questionIds: Iterable<number>): number[] {
    const counts = new Array<number>(plan?.config.flow.length ?? 0).fill(0);
    for (const questionId of questionIds) {
      const index = plan?.questions.get(questionId)?.subjectIndex;
      if (index != null) counts[index]!++;
    }
    return counts;
  }

  private pupilRow(plan: RoomPlan | null, userId: number, now: number, connected: boolean): LivePupil {
    const answered = Array.from(
      this.ctx.storage.sql.exec(`SELECT question_id FROM answers WHERE user_id = ?`, userId).raw<[number]>(),
      ([questionId]) => questionId,
    );
    const timeSec = this.ctx.storage.sql
      .exec<{ time_sec: number | null }>(`SELECT time_sec FROM participants WHERE user_id = ?`, userId)
      .toArray()[0]?.time_sec;
    return {
      userId,
      connected,
      submitted: this.graded || timeSec != null,
      answered: this.answeredBySubject(plan, answered),
      closedThrough: this.graded
        ? (plan?.config.flow.length ?? this.closedThrough)
        : Math.max(this.closedThrough, plan?.closedFor(userId, now) ?? 0),
    };
  }

  /** Tells the staff sockets one candidate's row (`closing`: a socket of theirs on its way out). */
  private tellStaff(userId: number, closing?: WebSocket, staffSockets?: WebSocket[]) {
    const staff = staffSockets ?? this.ctx.getWebSockets(STAFF_TAG);
    if (!staff.length) return;
    const connected = this.ctx
      .getWebSockets(userTag(userId))
      .some((ws) => ws !== closing && ws.readyState === WebSocket.OPEN);
    const text = encodeStaffMessage({
      type: "live-pupil",
      pupil: this.pupilRow(this.currentPlan(), userId, Date.now(), connected),
    });
    for (const ws of staff) {
      try {
        ws.send(text);
      } catch {
        // closing: it gets the whole state when it reconnects
      }
    }
  }

  /** The whole state for the staff: every candidate seen (connected or not) and the scores of closed subjects. */
  private liveState(): LiveStateMessage {
    const plan = this.currentPlan();
    const now = Date.now();
    const connected = new Set<number>();
    for (const ws of this.ctx.getWebSockets()) {
      const data = this.socketData(ws);
      if (!data.staff && data.role !== "admin" && ws.readyState === WebSocket.OPEN) connected.add(data.userId);
    }
    const participants = this.ctx.storage.sql
      .exec<{ user_id: number; time_sec: number | null }>(`SELECT user_id, time_sec FROM participants`)
      .toArray();
    const answers = this.savedByUser();
    const closed = this.graded ? (plan?.config.flow.length ?? this.closedThrough) : this.closedThrough;
    const pupils = participants.map((p): LivePupil => {
      const own = questionIdsOf(answers.get(p.user_id) ?? {});
      return {
        userId: p.user_id,
        connected: connected.has(p.user_id),
        submitted: this.graded || p.time_sec != null,
        answered: this.answeredBySubject(plan, own),
        closedThrough: this.graded ? closed : Math.max(closed, plan?.closedFor(p.user_id, now) ?? 0),
      };
    });
    // Scores only for subjects closed for everybody: no candidate can still change them.
    const scores =
      plan && closed > 0
        ? participants.map((p) => {
            const result = gradeSimulation(plan.config.subjects.slice(0, closed), answers.get(p.user_id) ?? {});
            return { userId: p.user_id, scores: result.subjects.map((s) => s.score31) };
          })
        : [];
    return {
      type: "live-state",
      shard: this.shard(),
      serverTime: now,
      started: plan != null,
      startTime: plan?.config.startTime ?? null,
      closedThrough: closed,
      graded: this.graded,
      pupils,
      scores,
    };
  }

  /** Sends the whole state to every staff socket (a subject closed, the room graded). */
  private tellStaffState() {
    const staff = this.ctx.getWebSockets(STAFF_TAG);
    if (!staff.length) return;
    const text = encodeStaffMessage(this.liveState());
    for (const ws of staff) {
      try {
        ws.send(text);
      } catch {
        // closing: it gets the whole state when it reconnects
      }
    }
  }

  /** The same state over RPC: the live page's first render (the socket takes over once open). */
  async live(): Promise<LiveStateMessage> {
    await this.ensurePlan();
    return this.liveState();
  }

  /**
   * Stores one answer (empty = cleared) if its subject is open at `now` (plus the grace); else the
   * refusal text. The hot path: map lookups on the in-memory plan and exactly one SQLite write.
   */
  private saveAnswer(
    plan: RoomPlan,
    userId: number,
    answer: Pick<AnswerMessage, "subjectId" | "questionId" | "value">,
    now: number,
  ): true | string {
    const outcome = this.checkAnswer(plan, userId, answer, now);
    if (outcome === true) this.writeAnswer(userId, answer, now);
    return outcome;
  }

  /**
   * Whether an answer arriving at `now` may be stored: its subject is open for this candidate (their own window,
   * accommodation included, plus the grace), its value valid.
   */
  private checkAnswer(
    plan: RoomPlan,
    userId: number,
    answer: Pick<AnswerMessage, "subjectId" | "questionId" | "value">,
    now: number,
  ): true | string {
    const { value } = answer;
    if (value.length > MAX_ANSWER_CHARS) return ROOM_TEXT.badValue;
    const question = plan.questions.get(answer.questionId);
    if (!question || question.subjectId !== answer.subjectId) return ROOM_TEXT.unknownQuestion;
    const window = plan.windowsOf(userId)[question.subjectIndex]!;
    if (now < window.startsAt) return ROOM_TEXT.notYet;
    if (question.subjectIndex < this.closedThrough || now > window.endsAt + SIMULATION_GRACE_MS)
      return ROOM_TEXT.closed;
    if (value.trim() !== "" && question.key.type === "mc" && !(question.key.options ?? []).includes(value))
      return ROOM_TEXT.badValue;
    return true;
  }

  /** The one write of an answer (an empty value clears it). */
  private writeAnswer(userId: number, answer: Pick<AnswerMessage, "subjectId" | "questionId" | "value">, now: number) {
    const { value } = answer;
    if (value.trim() === "") {
      this.ctx.storage.sql.exec(`DELETE FROM answers WHERE user_id = ? AND question_id = ?`, userId, answer.questionId);
      return;
    }
    this.ctx.storage.sql.exec(
      `INSERT INTO answers (user_id, subject_id, question_id, value, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id, question_id) DO UPDATE SET value = excluded.value, at = excluded.at`,
      userId,
      answer.subjectId,
      answer.questionId,
      value,
      now,
    );
  }

  // --- calls from the Worker (RPC) ---

  /**
   * Called once the start is written to D1, for every room of the simulation in parallel: loads the
   * exam, schedules the deadlines, tells its students. `startTime` is the one absolute instant of the
   * whole sitting, so a room that hears late still starts on time (clients count on their own offset).
   */
  async start(
    simulationId: string,
    shard = 0,
    startTime?: number,
    _shards = 1,
    leaving: readonly number[] = [],
  ): Promise<{ startTime: number } | null> {
    this.setMeta("simulationId", simulationId);
    this.setMeta("shard", String(shard));
    const plan = await this.ensurePlan({ simulationId, shard, startTime });
    if (!plan) return null;
    // Each candidate learns the start with their own accommodation (fixed now), when the room ends, and their resume
    // token (a reconnect during the day then needs no D1).
    const sockets = this.ctx.getWebSockets().map((ws) => ({ ws, data: this.socketData(ws) }));
    const tokens = await Promise.all(
      sockets.map(({ data }) => (data.staff ? null : this.resumeToken(plan, data.userId, data.role))),
    );
    for (const [i, { ws, data }] of sockets.entries()) {
      const resume = tokens[i];
      try {
        ws.send(
          encodeServerMessage({
            type: "simulation-start",
            id: simulationId,
            startTime: plan.config.startTime,
            ...(data.staff ? {} : { extraTimePct: plan.extraOf(data.userId), roomEndsAt: plan.end }),
            ...(resume ? { resume } : {}),
          }),
        );
      } catch {
        // a socket closing under us: it will reconnect and get the state in its hello
      }
    }
    // Avvia moves nobody who was seated (issue 31): only a member seated now, whose waiting room was full, is told to
    // reconnect; the socket route sends them to their seat.
    const moving = new Set(leaving);
    for (const ws of this.ctx.getWebSockets()) {
      const { userId } = this.socketData(ws);
      if (!moving.has(userId)) continue;
      try {
        ws.close(ROOM_MOVED_CODE, "Cambio stanza");
      } catch {
        // already closed
      }
    }
    return { startTime: plan.config.startTime };
  }

  /**
   * POST /api/simulations/{id}/attempt: merges the submitted answers with the autosaved ones (only
   * for subjects still open), and once the exam is over grades and returns the stored result.
   * Idempotent: a repeated submission returns the same attempt.
   */
  async submitAttempt(userId: number, answers: SavedAnswers, timeTaken: number): Promise<AttemptOutcome> {
    const plan = await this.ensurePlan();
    if (!plan) return { ok: false, status: 409, error: ROOM_TEXT.notStarted };
    const { config, end } = plan;
    const ownEnd = plan.windowsOf(userId).at(-1)?.endsAt ?? end;
    let now = Date.now();
    if (this.graded || now > end + SIMULATION_GRACE_MS) {
      const stored = await attemptOf(getDb(this.env.DB), config.simulationId, userId);
      if (stored) return { ok: true, attemptId: stored.id, result: resultOf(stored) };
      if (this.graded) return { ok: false, status: 409, error: ROOM_TEXT.finished };
    }
    this.ctx.storage.sql.exec(`INSERT OR IGNORE INTO participants (user_id) VALUES (?)`, userId);
    let saved = 0;
    for (const [subjectId, byQuestion] of Object.entries(answers)) {
      for (const [questionId, value] of Object.entries(byQuestion)) {
        if (
          this.saveAnswer(
            plan,
            userId,
            { subjectId: Number(subjectId), questionId: Number(questionId), value },
            now,
          ) === true
        )
          saved++;
      }
    }
    // Mid-exam this call is the HTTP autosave (no WebSocket): it must not set the time taken.
    if (now < ownEnd - 10_000) {
      this.tellStaff(userId);
      return { ok: true, pending: true, saved };
    }
    this.ctx.storage.sql.exec(
      `INSERT INTO participants (user_id, time_sec) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET time_sec = excluded.time_sec`,
      userId,
      Math.max(0, Math.round(timeTaken)),
    );
    this.tellStaff(userId);
    // Close to the room's last deadline (device clocks are estimates): wait out the grace, then grade everybody.
    // Further from it (an accommodated candidate still writes): pending, the result comes at simulation-end.
    now = Date.now();
    const wait = end + SIMULATION_GRACE_MS - now;
    if (wait > SUBMIT_WAIT_MAX_MS) return { ok: true, pending: true, saved };
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await this.finalize();
    const stored = await attemptOf(getDb(this.env.DB), config.simulationId, userId);
    if (!stored) return { ok: false, status: 409, error: ROOM_TEXT.finished };
    return { ok: true, attemptId: stored.id, result: resultOf(stored) };
  }

  /** Who is here and how far they are, for the admin's live summary across rooms. */
  async stats(): Promise<RoomStats> {
    const connected = this.ctx.getWebSockets().filter((ws) => {
      const data = this.socketData(ws);
      return data.role !== "admin" && !data.staff;
    }).length;
    const row = this.ctx.storage.sql
      .exec<{ users: number; answers: number }>(
        `SELECT count(DISTINCT user_id) AS users, count(*) AS answers FROM answers`,
      )
      .one();
    return { shard: this.shard(), connected, answered: row.users, answers: row.answers, graded: this.graded };
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
    this.batch = [];
    this.ctx.storage.sql.exec(`DELETE FROM meta`);
    this.plan = null;
    this.subjectKeys.clear();
    this.metaCache.clear();
    this.ctx.storage.sql.exec(`DELETE FROM answers`);
    this.ctx.storage.sql.exec(`DELETE FROM participants`);
    this.seated.clear();
    this.resumeTokens.clear();
  }

  // --- deadlines ---

  /** The next instant some candidate's subject closes (every deadline of every candidate, plus the grace). */
  private async scheduleNextAlarm(config: RoomConfig) {
    if (this.graded) return;
    const plan = this.plan?.config === config ? this.plan : planOf(config, SIMULATION_GRACE_MS);
    const next = nextAlarm(plan, Date.now());
    if (next != null) await this.ctx.storage.setAlarm(next);
  }

  private async ensureAlarm(config: RoomConfig) {
    if (this.graded) return;
    if ((await this.ctx.storage.getAlarm()) == null) await this.scheduleNextAlarm(config);
  }

  /** Tells every connected candidate how many of THEIR subjects are closed (accommodations differ per candidate). */
  private tellClosed(plan: RoomPlan, now: number) {
    for (const ws of this.ctx.getWebSockets()) {
      const { userId, staff } = this.socketData(ws);
      if (staff) continue;
      const closedThrough = Math.max(this.closedThrough, plan.closedFor(userId, now));
      try {
        ws.send(encodeServerMessage({ type: "subject-closed", closedThrough }));
      } catch {
        // a socket closing under us: it gets the state in its next hello
      }
    }
  }

  /**
   * Closes, for each candidate, every subject whose own time (plus grace) is over; once the last candidate's last
   * subject is over, grades. Safe to run twice. `closedThrough` counts the subjects closed for everybody.
   */
  async alarm(): Promise<void> {
    const plan = this.currentPlan();
    if (!plan) return;
    const now = Date.now();
    // What happened since the last run (an opening, a deadline, or both at once): stored, so a retried or late alarm
    // does each once.
    const since = Number(this.meta("alarmRanAt") ?? 0);
    await this.pushKeys(plan, since, now);
    const closed = Math.max(this.closedThrough, plan.closedForAll(now));
    if (closed > this.closedThrough) this.closedThrough = closed;
    if (plan.deadlines.some((d) => d > since && d <= now)) {
      this.tellClosed(plan, now);
      // At each deadline the staff get the state again: who is closed where, and the scores of subjects closed for
      // everybody (the last one's come with the grading).
      if (closed < plan.windows.length) this.tellStaffState();
    }
    if (closed >= plan.windows.length) {
      await this.finalize();
      this.setMeta("alarmRanAt", String(now));
      return;
    }
    this.setMeta("alarmRanAt", String(now));
    await this.scheduleNextAlarm(plan.config);
    // The national bench's server (BENCH_D1_USAGE) says when each opening and deadline ran, and for how long.
    if (d1UsageEnabled(this.env))
      console.warn(
        `room ${plan.config.shard ?? 0}: alarm at +${now - plan.config.startTime} ms took ${Date.now() - now} ms (closed ${closed})`,
      );
  }

  /** Grades every participant of this room and writes their attempts to D1 once (idempotent on retry). */
  private async finalize(): Promise<void> {
    if (this.graded) return;
    this.flushAnswers();
    this.finalizing ??= (async () => {
      const plan = this.currentPlan();
      if (!plan) return;
      const { config } = plan;
      const participants = this.ctx.storage.sql
        .exec<{ user_id: number; time_sec: number | null }>(`SELECT user_id, time_sec FROM participants`)
        .toArray();
      const began = Date.now();
      // Every answer of the room in one read (a query per participant was half a second of a 1,000-student room).
      const answersBy = this.savedByUser();
      // Each distinct answer to a question is judged once, for the grades and for the question memories alike.
      const judge = memoJudge();
      const graded = participants.map((p) => {
        const answers = answersBy.get(p.user_id) ?? {};
        // A candidate's own duration: their accommodation included, breaks included.
        const durationSec = Math.round(
          ((plan.windowsOf(p.user_id).at(-1)?.endsAt ?? plan.end) - config.startTime) / 1000,
        );
        return {
          userId: p.user_id,
          answers,
          result: gradeSimulation(config.subjects, answers, judge),
          timeSec: Math.min(p.time_sec ?? durationSec, durationSec),
        };
      });
      // A small per-room delay so that 60 rooms do not all write in the same instant.
      const stagger = Math.min((config.shard ?? 0) * GRADE_STAGGER_MS, GRADE_STAGGER_MAX_MS);
      if (stagger > 0) await new Promise((r) => setTimeout(r, stagger));
      const wrote = Date.now();
      await writeGradedAttempts(
        this.env.DB,
        config.simulationId,
        config.shard ?? 0,
        graded,
        Date.now(),
        config.subjects,
        judge,
      );
      // The national bench's server (BENCH_D1_USAGE) says where a room's grading time goes.
      if (d1UsageEnabled(this.env))
        console.warn(
          `room ${config.shard ?? 0}: graded ${graded.length} in ${wrote - began} ms, wrote them in ${Date.now() - wrote} ms (stagger ${stagger} ms)`,
        );
      this.closedThrough = config.flow.length;
      this.setMeta("graded", String(Date.now()));
      this.tellStaffState();
      await this.announceIfAllGraded(config.simulationId, config.shard ?? 0);
    })();
    try {
      await this.finalizing;
    } finally {
      this.finalizing = null;
    }
  }

  /**
   * simulation-end goes out once the whole simulation is graded (every room has written: its ranking is final), to the
   * students of every room at once: the room whose write completes it tells them all. So nobody asks for a result or a
   * ranking while other rooms still write to D1, and the ranking they ask for is final. A room that sees the simulation
   * not graded yet says nothing: the last room will (a runner still asks, late, if that word never comes).
   */
  private async announceIfAllGraded(simulationId: string, shard: number) {
    const row = await this.env.DB.prepare("SELECT graded_at AS gradedAt, shards FROM simulations WHERE id = ?")
      .bind(simulationId)
      .first<{ gradedAt: number | null; shards: number }>();
    if (!row) return this.announceEnd(simulationId); // deleted meanwhile: this room's students at least
    if (row.gradedAt == null) return;
    await Promise.all(
      Array.from({ length: row.shards }, (_, other) =>
        other === shard
          ? this.announceEnd(simulationId)
          : roomFor(this.env, simulationId, other)
              .announceEnd(simulationId)
              .catch((error: unknown) => console.warn(`room: could not tell room ${other} the end`, error)),
      ),
    );
  }

  /** Tells this room's students the simulation is graded (called by the room whose write completed it). */
  async announceEnd(simulationId: string): Promise<void> {
    // Not graded here yet (its write is landing): this room announces itself right after it.
    if (!this.graded) return;
    this.broadcast({ type: "simulation-end", id: simulationId });
  }

  // --- for tests and the bench ---

  connectedUserIds(): number[] {
    return this.ctx.getWebSockets().map((ws) => this.socketData(ws).userId);
  }

  /** Test hook: how long answers wait to be written together (this wake-up). */
  setAnswerBatchForTest(ms: number): void {
    this.answerBatchMs = ms;
  }

  /** Test hook: moves the stored start instant (to simulate time passing) and reschedules. */
  async shiftStartForTest(startTime: number): Promise<void> {
    const plan = this.currentPlan();
    if (!plan) return;
    // Openings and deadlines moved behind the last alarm run are done again at the next one (sent twice is harmless).
    const since = Number(this.meta("alarmRanAt") ?? 0);
    if (since >= startTime) this.setMeta("alarmRanAt", String(startTime - 1));
    // The sitting's stored end moves with its start.
    const endsAt = plan.config.endsAt != null ? plan.config.endsAt + (startTime - plan.config.startTime) : undefined;
    const config = { ...plan.config, startTime, ...(endsAt != null ? { endsAt } : {}) };
    this.storeConfig(config);
    await this.scheduleNextAlarm(config);
  }

  /**
   * Test hook for the browser tests (POST /api/admin/simulations/{id}/clock, development only): the same move, told
   * to the connected candidates as a new start, so their countdowns follow the room without waiting real minutes.
   */
  async moveStartForTest(startTime: number): Promise<boolean> {
    const plan = await this.ensurePlan();
    if (!plan) return false;
    await this.shiftStartForTest(startTime);
    const roomEndsAt = this.plan?.end;
    this.broadcast({
      type: "simulation-start",
      id: plan.config.simulationId,
      startTime,
      ...(roomEndsAt != null ? { roomEndsAt } : {}),
    });
    return true;
  }
}
