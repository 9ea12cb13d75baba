// The live simulation's socket protocol, one module for both ends: the SimulationRoom Durable Object
// (workers/simulation-room.ts) parses what clients send with ClientMessage, the browser
// (app/components/simulation/useSimulationRoom.ts) parses what the room sends with ServerMessage.
// No server message carries an answer key: grading happens in the room, results come over HTTP.
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
export const ClientMessage = z.discriminatedUnion("type", [PingMessage, AnswerMessage]);
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
});
export const PongMessage = z.object({ type: z.literal("pong"), t0: z.number().nullable(), serverTime: z.number() });
export const StartMessage = z.object({ type: z.literal("simulation-start"), id: z.string(), startTime: z.number() });
export const SubjectClosedMessage = z.object({ type: z.literal("subject-closed"), closedThrough: z.number().int() });
export const EndMessage = z.object({ type: z.literal("simulation-end"), id: z.string() });
const answerRef = { seq: z.number().int().nullable(), subjectId: z.number().int(), questionId: z.number().int() };
export const AckMessage = z.object({ type: z.literal("ack"), ...answerRef });
export const RejectedMessage = z.object({ type: z.literal("rejected"), ...answerRef, error: z.string() });
export const ErrorMessage = z.object({ type: z.literal("error"), error: z.string() });

export const ServerMessage = z.discriminatedUnion("type", [
  HelloMessage,
  PongMessage,
  StartMessage,
  SubjectClosedMessage,
  EndMessage,
  AckMessage,
  RejectedMessage,
  ErrorMessage,
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
