// One room of a live simulation (a simulation of N students runs in ceil(N / 1,000) rooms, each a Durable Object named
// "<simulationId>:<shard>"; app/server/simulation/ decides who goes where and fans the start out). Every room is an
// authority on time for its students: it keeps the one absolute start instant written in D1, answers clock pings,
// stores every answer as it is given (autosave, in its own SQLite storage so that eviction, a crash or a release loses
// nothing acknowledged), refuses answers for closed subjects, and at the end grades its own students and writes their
// attempts to D1.
//
// This class is only the object's events and calls, shaped like partyserver's rooms; the work is in workers/room/:
// store (its SQLite), sockets (tags and attachments), plan (loaded once, and the alarm), admission (who gets in, the
// hello, the start), answers (checks, batching, acks), keys (sealed-copy keys, resume tokens), staff-view (the
// teacher's live view), deadlines (the alarm) and grading (the end, the D1 write, the attempt call). Its test hooks are
// in a subclass only the test servers bind (workers/room/test-room.ts). The message types are the zod schemas of
// app/lib/simulation-protocol.ts, shared with the browser.
import { DurableObject } from "cloudflare:workers";
import { encodeServerMessage, encodeStaffMessage, parseClientFrame } from "../app/lib/simulation-protocol";
import type { LiveStateMessage, SavedAnswers } from "../app/lib/simulation-protocol";
import { withD1Usage } from "../app/server/db/d1-usage.server";
import { admit, announceStart } from "./room/admission";
import { answerVerdict, AnswerBatch } from "./room/answers";
import { runAlarm } from "./room/deadlines";
import { RoomGrading } from "./room/grading";
import { RoomKeys } from "./room/keys";
import { RoomPlans } from "./room/plan";
import { closeQuietly, RoomSockets } from "./room/sockets";
import { StaffView } from "./room/staff-view";
import { RoomStore } from "./room/store";
import { type AttemptOutcome, ROOM_TEXT, type RoomStats } from "./room/text";

export type { AttemptOutcome, RoomStats };

/** The room's parts, made once per instance (a wake-up); what each part keeps in memory is lost with it. */
function partsOf(ctx: DurableObjectState, env: Env) {
  const store = new RoomStore(ctx.storage.sql);
  const sockets = new RoomSockets(ctx);
  const plans = new RoomPlans(store, ctx.storage, env);
  const answers = new AnswerBatch(store);
  const staff = new StaffView(store, sockets, plans);
  const keys = new RoomKeys(env);
  const grading = new RoomGrading({ env, store, plans, answers, sockets, staff });
  return { env, store, sockets, plans, answers, staff, keys, grading };
}

export type RoomParts = ReturnType<typeof partsOf>;

export class SimulationRoom extends DurableObject<Env> {
  protected readonly room: RoomParts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, withD1Usage(env)); // the bench's D1 meter; the same env otherwise
    this.room = partsOf(ctx, this.env);
  }

  // --- sockets ---

  fetch(request: Request): Promise<Response> {
    return admit(this.room, request);
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
    const { store, sockets, plans, answers, staff, keys } = this.room;
    const { userId, staff: isStaff } = sockets.data(ws);
    if (parsed.type === "key") return keys.release(ws, userId, parsed.subject, isStaff === true, () => plans.ensure());
    if (isStaff) {
      ws.send(encodeStaffMessage({ type: "error", error: ROOM_TEXT.badMessage }));
      return;
    }
    const now = Date.now();
    const plan = plans.current() ?? (await plans.ensure());
    const verdict = plan ? answerVerdict(plan, store.closedThrough, userId, parsed, now) : ROOM_TEXT.notStarted;
    if (verdict !== true) {
      const ref = { seq: parsed.seq ?? null, subjectId: parsed.subjectId, questionId: parsed.questionId };
      ws.send(encodeServerMessage({ type: "rejected", ...ref, error: verdict }));
      return;
    }
    // Accepted on arrival; written with the others that arrive within a few ms (one storage commit for a burst), and
    // acknowledged only after the write. The staff's live view hears of each candidate once per batch.
    staff.tell(await answers.take(ws, userId, parsed, now));
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeQuietly(ws, code === 1005 ? 1000 : code, "bye");
    const { userId, role, staff } = this.room.sockets.data(ws);
    if (!staff && role !== "admin") this.room.staff.tell([userId], ws);
  }

  // --- deadlines ---

  alarm(): Promise<void> {
    return runAlarm(this.room);
  }

  // --- calls from the Worker (RPC) ---

  /** Avvia, for every room of the simulation in parallel (app/server/simulation/start.server.ts). */
  start(
    simulationId: string,
    shard = 0,
    startTime?: number,
    _shards = 1,
    leaving: readonly number[] = [],
  ): Promise<{ startTime: number } | null> {
    return announceStart(this.room, { simulationId, shard, startTime }, leaving);
  }

  /**
   * Moves the start instant and the whole timeline with it (a day alone's skipped break: the Worker moved it in D1
   * first), and tells the candidates as a new start, with their resume tokens signed for it.
   */
  async moveStart(startTime: number): Promise<boolean> {
    const { plans, store } = this.room;
    if (!(await plans.moveStart(startTime))) return false;
    const { simulationId, shard } = plans.current()!.config;
    await announceStart(this.room, { simulationId, shard, startTime }, []);
    // What the move made due (an opening now, a deadline passed) happens at once: the alarm catches up and reschedules.
    if (!store.graded) await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  /** POST /api/simulations/{id}/attempt (the HTTP autosave mid-exam, the hand-in at the end). */
  submitAttempt(userId: number, answers: SavedAnswers, timeTaken: number): Promise<AttemptOutcome> {
    return this.room.grading.submit(userId, answers, timeTaken);
  }

  /** Who is here and how far they are, for the admin's live summary across rooms. */
  async stats(): Promise<RoomStats> {
    const { store, sockets } = this.room;
    const connected = sockets.candidates().filter((ws) => sockets.data(ws).role !== "admin").length;
    const { users, answers } = store.answerCounts();
    return { shard: store.shard, connected, answered: users, answers, graded: store.graded };
  }

  /** The teacher's live view over RPC: the live page's first render (the socket takes over once open). */
  async live(): Promise<LiveStateMessage> {
    await this.room.plans.ensure();
    return this.room.staff.state();
  }

  /** Tells this room's students the simulation is graded (called by the room whose write completed it). */
  async announceEnd(simulationId: string): Promise<void> {
    this.room.grading.announceEnd(simulationId);
  }

  /** Forgets everything (the simulation was deleted). */
  async reset(): Promise<void> {
    const { store, sockets, plans, answers, keys } = this.room;
    for (const ws of sockets.all()) closeQuietly(ws, 1000, ROOM_TEXT.deleted);
    await this.ctx.storage.deleteAlarm();
    answers.clear();
    store.clear();
    plans.forget();
    keys.forget();
  }
}
