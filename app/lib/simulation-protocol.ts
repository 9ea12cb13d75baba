// The live simulation's socket protocol, one module for both ends: the SimulationRoom Durable Object
// (workers/simulation-room.ts over workers/room/) parses what clients send with ClientMessage, the browser
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

// --- a server going away: the comeback window (issue 45) ---
// A release restarts every room and drops every socket; an overloaded room refuses new ones. Coming back all at once
// would make the next storm, so a server close carries the window over which its clients come back, each at a random
// instant of it (app/lib/runner-timing.ts): a close reason "comeback=<ms>" (a reason holds at most 123 bytes).

/** Close codes of a server going away: going away (1001), restart (1012, a release), try again later (1013, overload). */
export const SERVER_CLOSE_CODES: readonly number[] = [1001, 1012, 1013];
export const RESTART_CLOSE_CODE = 1012;
export const OVERLOAD_CLOSE_CODE = 1013;
/** The window when a server close does not say: a room of 1,000 then takes about 200 reconnects a second. */
export const COMEBACK_DEFAULT_MS = 5000;
/** The longest window a close may ask for (a bad reason cannot park a sitting's clients for longer). */
export const COMEBACK_MAX_MS = 30_000;

/** The close reason that asks clients to come back over `windowMs`. */
export function comebackReason(windowMs: number): string {
  return `comeback=${Math.max(0, Math.min(COMEBACK_MAX_MS, Math.round(windowMs)))}`;
}

/**
 * The window (ms) over which a client comes back after a close: the one its reason names (capped), or the default, for
 * a server close; null for any other close (a network blip, a move: the client's own backoff).
 */
export function comebackWindowOf(code: number, reason: string): number | null {
  if (!SERVER_CLOSE_CODES.includes(code)) return null;
  const asked = /^comeback=(\d{1,9})$/.exec(reason)?.[1];
  return asked === undefined ? COMEBACK_DEFAULT_MS : Math.min(COMEBACK_MAX_MS, Number(asked));
}

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
