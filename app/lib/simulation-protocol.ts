// The live simulation's socket protocol, one module for both ends: the SimulationRoom Durable Object
// (workers/simulation-room.ts) parses what clients send with ClientMessage, the browser
// (app/components/simulation-runner/useSimulationRoom.ts) parses what the room sends with ServerMessage.
// No server message carries an answer key: grading happens in the room, results come over HTTP. (A "subject-key" is
// the key that opens a subject's sealed questions, never the answers.)
import { z } from "zod";

/** The longest answer the room stores (a gap answer has at most 20 boxes; options are short). */
export const MAX_ANSWER_CHARS = 200;

/** Saved answers of one student: subject id → question id → value. */
export const SavedAnswers = z.record(z.string(), z.record(z.string(), z.string()));
export type SavedAnswers = z.infer<typeof SavedAnswers>;

// --- client → room ---

export const PingMessage = z.object({ type: z.literal("ping"), t0: z.number().optional() });
export const AnswerMessage = z.object({
  type: z.literal("answer"),
  seq: z.number().int().optional(),
  subjectId: z.number().int(),
  questionId: z.number().int(),
  value: z.string(),
});
/**
 * Sealed prefetch (issue 31): the key of a subject (its index in the flow) whose sealed copy the runner holds. The room
 * answers subject-key only once that subject has opened for THIS candidate (their own windows), else key-refused.
 */
export const KeyRequestMessage = z.object({ type: z.literal("key"), subject: z.number().int() });
export const ClientMessage = z.discriminatedUnion("type", [PingMessage, AnswerMessage, KeyRequestMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;
export type AnswerMessage = z.infer<typeof AnswerMessage>;

// --- room → client ---

export const HelloMessage = z.object({
  type: z.literal("hello"),
  serverTime: z.number(),
  id: z.string().nullable(),
  started: z.boolean(),
  startTime: z.number().nullable(),
  /** How many subjects are closed for good (the room's alarm passed their deadline plus the grace). */
  closedThrough: z.number().int(),
  answers: SavedAnswers,
  graded: z.boolean(),
  /** This candidate's accommodation (extra time, %), fixed at the start; their deadlines follow studentWindows. */
  extraTimePct: z.number().min(0).max(100).optional(),
  /** When the room's last candidate (extra time included) ends: it grades after that, plus the grace. */
  roomEndsAt: z.number().optional(),
  /** A started room's resume token: the next reconnect sends it (`?resume=`) and skips the session lookups. */
  resume: z.string().optional(),
});
export const PongMessage = z.object({ type: z.literal("pong"), t0: z.number().nullable(), serverTime: z.number() });
export const StartMessage = z.object({
  type: z.literal("simulation-start"),
  id: z.string(),
  startTime: z.number(),
  /** To a candidate: their accommodation fixed at Avvia (a lobby loaded before it did not know it). */
  extraTimePct: z.number().min(0).max(100).optional(),
  /** When the room's last candidate ends (as in the hello). */
  roomEndsAt: z.number().optional(),
  /** To a candidate: their resume token (as in the hello). */
  resume: z.string().optional(),
});
export const SubjectClosedMessage = z.object({ type: z.literal("subject-closed"), closedThrough: z.number().int() });
export const EndMessage = z.object({ type: z.literal("simulation-end"), id: z.string() });
const answerRef = { seq: z.number().int().nullable(), subjectId: z.number().int(), questionId: z.number().int() };
export const AckMessage = z.object({ type: z.literal("ack"), ...answerRef });
export const RejectedMessage = z.object({ type: z.literal("rejected"), ...answerRef, error: z.string() });
export const ErrorMessage = z.object({ type: z.literal("error"), error: z.string() });
/**
 * A subject's AES-GCM-256 key (base64 of the raw key), released at the candidate's own opening: sent by the room to
 * every connected candidate at that instant (its alarm), or in answer to a key request (a socket opened later).
 */
export const SubjectKeyMessage = z.object({
  type: z.literal("subject-key"),
  subject: z.number().int(),
  key: z.string(),
});
export const KeyRefusedMessage = z.object({
  type: z.literal("key-refused"),
  subject: z.number().int(),
  error: z.string(),
});

export const ServerMessage = z.discriminatedUnion("type", [
  HelloMessage,
  PongMessage,
  StartMessage,
  SubjectClosedMessage,
  EndMessage,
  AckMessage,
  RejectedMessage,
  ErrorMessage,
  SubjectKeyMessage,
  KeyRefusedMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
export type HelloMessage = z.infer<typeof HelloMessage>;

/** Typed encoder for the room: a message that does not fit the protocol does not compile. */
export function encodeServerMessage(message: ServerMessage): string {
  return JSON.stringify(message);
}

export function encodeClientMessage(message: ClientMessage): string {
  return JSON.stringify(message);
}

/**
 * The room's parser of what clients send, exactly ClientMessage (a test holds them equal on valid and invalid frames),
 * with the two frames of the hot path (an answer, a ping) checked by hand: in workerd zod cannot compile its parsers
 * (no `new Function`), and its interpreted path was a tenth of a national sitting's room time. Anything else: zod.
 */
export function parseClientFrame(data: string | ArrayBuffer): ClientMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
  } catch {
    return null;
  }
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const m = raw as Record<string, unknown>;
    const int = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v);
    if (
      m.type === "answer" &&
      (m.seq === undefined || int(m.seq)) &&
      int(m.subjectId) &&
      int(m.questionId) &&
      typeof m.value === "string"
    ) {
      const answer = {
        type: "answer" as const,
        subjectId: m.subjectId as number,
        questionId: m.questionId as number,
        value: m.value,
      };
      return m.seq === undefined ? answer : { ...answer, seq: m.seq as number };
    }
    if (m.type === "ping" && (m.t0 === undefined || (typeof m.t0 === "number" && Number.isFinite(m.t0))))
      return m.t0 === undefined ? { type: "ping" } : { type: "ping", t0: m.t0 };
  }
  const parsed = ClientMessage.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Parses one frame; null for anything that is not JSON or not a message of the protocol. */
export function parseFrame<T extends z.ZodType>(schema: T, data: string | ArrayBuffer): z.infer<T> | null {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
  } catch {
    return null;
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

// --- shards ---

/** At most this many students per room; a simulation has ceil(allowed / ROOM_CAPACITY) rooms. */
export const ROOM_CAPACITY = 1000;

export function shardCount(allowed: number): number {
  return Math.max(1, Math.ceil(allowed / ROOM_CAPACITY));
}

/** A student's room: derived from the user id alone, so it is the same at start and at every reconnect. */
export function shardOf(userId: number, shards: number): number {
  return shards <= 1 ? 0 : userId % shards;
}

/** Close code of a socket told to reconnect because its student belongs to another room. */
export const ROOM_MOVED_CODE = 4001;

/**
 * Where a simulation's rooms are created: Western Europe ("weur", a Durable Objects location hint), near the
 * Italian exam's students. Read by roomFor, the one place rooms are made.
 */
export const ROOM_LOCATION_HINT = "weur" as const;

/** The Durable Object name of one room of a simulation. */
export function roomName(simulationId: string, shard: number): string {
  return `${simulationId}:${shard}`;
}

// --- staff: the teacher's live view of a sitting (issue 32) ---
// A staff socket (/api/simulations/{id}/staff/ws?shard=N, the simulation's teacher or an admin) receives the room's
// state at once and then one pupil's row whenever it changes: counts only, never which answer or whether it is
// right. After each subject closes for everybody, the state carries each participant's score in the closed subjects.

export const LivePupil = z.object({
  userId: z.number().int(),
  connected: z.boolean(),
  /** The pupil handed in (their attempt call with the time taken), or the room has graded. */
  submitted: z.boolean(),
  /** Answers given per subject of the flow (by position): how many, nothing else. */
  answered: z.array(z.number().int()),
  /** How many of this pupil's subjects are closed (their own deadlines, accommodation included). */
  closedThrough: z.number().int(),
});
export type LivePupil = z.infer<typeof LivePupil>;

/** One participant's scores (0-31) in each subject closed for everybody, in flow order. */
export const LiveScores = z.object({ userId: z.number().int(), scores: z.array(z.number()) });
export type LiveScores = z.infer<typeof LiveScores>;

export const LiveStateMessage = z.object({
  type: z.literal("live-state"),
  shard: z.number().int(),
  serverTime: z.number(),
  started: z.boolean(),
  startTime: z.number().nullable(),
  /** Subjects closed for every candidate of the room. */
  closedThrough: z.number().int(),
  graded: z.boolean(),
  pupils: z.array(LivePupil),
  /** Empty until the first subject has closed for everybody. */
  scores: z.array(LiveScores),
});
export type LiveStateMessage = z.infer<typeof LiveStateMessage>;
export const LivePupilMessage = z.object({ type: z.literal("live-pupil"), pupil: LivePupil });

/** What a staff socket receives: the live messages and the room's broadcasts. */
export const StaffServerMessage = z.discriminatedUnion("type", [
  LiveStateMessage,
  LivePupilMessage,
  PongMessage,
  StartMessage,
  EndMessage,
  ErrorMessage,
]);
export type StaffServerMessage = z.infer<typeof StaffServerMessage>;

export function encodeStaffMessage(message: StaffServerMessage): string {
  return JSON.stringify(message);
}

// --- The runner's timing (SimulationRunner.tsx; the national bench's client copies what the browser does) ---

/**
 * A socket that was open and dropped (a blip, a room restart): for this long the runner keeps the answers given
 * meanwhile and sends them on the reconnected socket, instead of one HTTP save each at once. The first reconnect
 * comes after 0.5–1.5 s; a wave of HTTP saves from every dropped candidate cost the national bench's server more
 * than the reconnects themselves. Past it (or close to the subject's end), they go over HTTP.
 */
export const SOCKET_BLIP_GRACE_MS = 5000;
/** How long before its subject's end an answer given with the socket down goes over HTTP at once. */
export const BLIP_END_MARGIN_MS = 3000;

/**
 * When an answer given with the socket down goes over HTTP (performance.now() time): at once for a socket that never
 * opened (`droppedAt` null), else at the end of the blip's grace, or BLIP_END_MARGIN_MS before its subject ends
 * (`msLeft`: how long it stays open) if that comes first. The runner and the national bench's clients share it.
 */
export function blipFlushAt(droppedAt: number | null, now: number, msLeft?: number): number {
  if (droppedAt === null) return now;
  return Math.min(droppedAt + SOCKET_BLIP_GRACE_MS, now + (msLeft ?? Infinity) - BLIP_END_MARGIN_MS);
}

/** A subject's questions are asked for this long after it opens, so a clock a few ms early does not ask twice. */
export const QUESTIONS_AFTER_OPEN_MS = 250;
/**
 * The room sends each subject's key at its opening; a runner that holds no key this long after its opening asks for it,
 * at a random instant of the next KEY_SPREAD_MS (a whole sitting whose room was late does not ask at once).
 */
export const KEY_AFTER_OPEN_MS = 1500;
export const KEY_SPREAD_MS = 1500;
/** A runner that cannot open a subject with its key asks the server at a random instant of this spread. */
export const QUESTIONS_FALLBACK_SPREAD_MS = 2000;
/** How long the room's answer to a key request is awaited, and how many times a refused request is asked in all. */
export const KEY_TIMEOUT_MS = 3000;
export const KEY_TRIES = 3;
export const KEY_RETRY_MS = 400;
/**
 * A flow loaded before Avvia holds no sealed copies: it is fetched again once the start is announced, at a random
 * instant of the lead (at most this spread, and ending this margin before the first subject opens).
 */
export const START_FETCH_SPREAD_MS = 2500;
export const START_FETCH_MARGIN_MS = 700;
/**
 * At the end, with every answer acknowledged and the socket open, the runner asks for its result once the room has
 * graded (simulation-end), at a random instant of a spread that grows with the sitting (endSubmitSpreadMs: a whole
 * sitting does not call while its rooms write, nor all at once after); without that word by the room's end plus the
 * grace plus END_WAIT_MAX_MS, at once (the call itself makes a late room grade).
 */
export const END_WAIT_MAX_MS = 20_000;

/**
 * The spread of the result calls after simulation-end: two seconds per room of the sitting, 1 to 20 s (a class's
 * room: 2 s; a national sitting's rooms grade one after another on D1, and their students call while the last write).
 */
export function endSubmitSpreadMs(rooms: number | undefined): number {
  return Math.min(20_000, Math.max(1000, 2000 * (rooms ?? 1)));
}
