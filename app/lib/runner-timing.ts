// The runner's timing, pure: when a room's socket tries again (the candidate's runner and the teacher's live view), when
// an answer given with the socket down goes over HTTP, when keys, flows and results are asked for. The national bench's
// client (bench/lib/national-client.ts) reads the same rules, so it asks as the browser does.
//
// Reconnects that cannot become a storm (issue 45), tested on a thousand simulated clients:
// - The back-off grows with each try that did not become a working connection, and starts over only once the room
//   has greeted the socket (its hello, the staff's live state) or it stayed open STABLE_AFTER_MS: a room that accepts
//   and then drops at once does not keep its clients on the fastest retry.
// - Every wait is jittered, so clients dropped together do not come back together: a network blip (×0.5–1.5 of the
//   back-off), a move to another room at Avvia (within MOVE_SPREAD_MS), a server going away (within the window the
//   server chose: comebackWindowOf in simulation-protocol.ts).
// - Each client's 30-second clock sync runs at its own phase, so a sitting that came back together does not ping
//   together every 30 seconds ever after; and a reconnect with a recent estimate does not sync at once (syncsOnOpen).
import { comebackWindowOf, ROOM_MOVED_CODE } from "./simulation-protocol.ts";

export const RECONNECT_BASE_MS = 500;
/**
 * The longest back-off (before jitter). A deploy drops every socket of every room; the new version may take a few
 * seconds to answer (the room bench's restart: 5 s). With a 10-s cap a candidate could wait 12 s more after the server
 * came back (the room bench measured 10.2 s); with 5 s, at most 7.5 s (×1.5), and a room of 1,000 kept out for long
 * still tries about 200 times a second, spread (test/unit/runner-timing.test.ts).
 */
export const RECONNECT_MAX_MS = 5000;
/** A socket open this long without its greeting still counts as working (a room that says nothing but stays up). */
export const STABLE_AFTER_MS = 5000;
/** A candidate moved to their seat's room at Avvia (4001) comes back within this: inside the 4-second lead. */
export const MOVE_SPREAD_MS = 1000;
/** Clock sync: a few pings every RESYNC_MS, the first resync at a random instant of (RESYNC_MS / 2, 3 × RESYNC_MS / 2). */
export const RESYNC_MS = 30_000;
/** Pings per clock sync (each sent when the previous one's pong arrives): on open, then every RESYNC_MS. */
export const PINGS_PER_SYNC = 6;

/** The jittered back-off of the `failures`-th failed try in a row (1, 2, ...): ×0.5–1.5 of 500 ms doubling, ≤ 5 s. */
export function backoffMs(failures: number, random: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(failures, 5)) * (0.5 + random);
}

/**
 * Whether a socket that has just opened syncs the clock at once (PINGS_PER_SYNC pings): its first, or when the last
 * pong is RESYNC_MS old or older. A reconnect otherwise keeps the estimate it has (the clocks do not drift measurably
 * in half a minute; the server enforces every deadline anyway) and resyncs at its own phase (firstResyncMs): a deploy
 * that brings a room's 1,000 candidates back at once does not bring 6,000 pings with them.
 */
export function syncsOnOpen(lastPongAt: number | null, now: number): boolean {
  return lastPongAt === null || now - lastPongAt >= RESYNC_MS;
}

/** When a client's first clock resync comes after its socket opens; every RESYNC_MS after that. */
export function firstResyncMs(random: number): number {
  return RESYNC_MS * (0.5 + random);
}

/**
 * `delayMs`: when to try again. `holdFrom`: from when the answers given meanwhile count their grace before going over
 * HTTP (blipFlushAt): the drop for a failure, the planned comeback when the server asked the client to wait.
 */
export type Comeback = { delayMs: number; holdFrom: number };

/** One socket's reconnect schedule (one per room socket; `random` in [0, 1)). */
export class ReconnectBackoff {
  private failures = 0;
  private openedAt: number | null = null;
  private greeted = false;

  private readonly random: () => number;

  // No parameter property: the benches load this module with Node's type stripping, which does not transform them.
  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  /** The socket opened. */
  opened(now: number) {
    this.openedAt = now;
    this.greeted = false;
  }

  /** The room greeted it (hello, live state): the back-off starts over at the next close. */
  greet() {
    this.greeted = true;
  }

  /** The socket closed at `now` (code and reason of the close event): when to try again. */
  afterClose(code: number, reason: string, now: number): Comeback {
    const worked = this.greeted || (this.openedAt !== null && now - this.openedAt >= STABLE_AFTER_MS);
    if (worked) this.failures = 0;
    this.openedAt = null;
    this.greeted = false;
    if (code === ROOM_MOVED_CODE) {
      const delayMs = this.random() * MOVE_SPREAD_MS;
      return { delayMs, holdFrom: now + delayMs };
    }
    this.failures++;
    const window = comebackWindowOf(code, reason);
    if (window !== null) {
      const delayMs = this.random() * window;
      return { delayMs, holdFrom: now + delayMs };
    }
    return { delayMs: backoffMs(this.failures, this.random()), holdFrom: now };
  }
}

// --- the runner's other timing (SimulationRunner.tsx) ---

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
