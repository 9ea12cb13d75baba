// The room bench's pace (BENCH_ONLY=room): the real day's answer rate, multiplied, kept by a seeded random schedule
// whatever the subjects' length, and what the clients record of it.
import { percentile } from "../lib/stats.ts";

/** The real day (the default edition's): each candidate answers its 3 × 31 questions over its 3 × 50 minutes. */
export const REAL_DAY = { questions: 93, subjects: 3, subjectMin: 50 } as const;

/** One candidate's answers per second on the real day; with extra time, its paper over its own longer subjects. */
export function realRatePerCandidate(extraPct = 0): number {
  return REAL_DAY.questions / (REAL_DAY.subjects * REAL_DAY.subjectMin * 60 * (1 + extraPct / 100));
}

/** The whole room's answers per second on the real day (accommodations included). */
export function realRoomRate(extraPcts: readonly number[]): number {
  return extraPcts.reduce((sum, pct) => sum + realRatePerCandidate(pct), 0);
}

/** mulberry32: a small seeded generator, so a run's schedule is the same every time. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The wait before a candidate's next answer (a Poisson process of `perSecond`), in ms; Infinity when paused. */
export function nextAnswerInMs(random: () => number, perSecond: number): number {
  return perSecond > 0 ? (-Math.log(1 - random()) / perSecond) * 1000 : Number.POSITIVE_INFINITY;
}

/** The multiple of the real day's rate the clients answer at now (the headroom steps change it). */
export type Pace = { multiplier: number };

/** `http`: saved over HTTP in the end (its socket was down): not an ack. */
export type Send = { at: number; ackMs?: number; superseded?: boolean; http?: boolean };

/** What every client of a phase saw, in performance.now() time. */
export class Recorder {
  /**
   * Each answer version sent on a socket (`at`: its last sending, a resend after a reconnect included) and, once
   * acknowledged, how long that took; `superseded`: changed again before its ack (the runner never resends it).
   */
  readonly sends: Send[] = [];
  readonly rejected: Record<string, number> = {};
  readonly closeCodes: Record<string, number> = {};
  readonly httpErrors: Record<string, number> = {};
  readonly keys = { pushed: 0, requested: 0, refused: 0, fallback: 0 };
  httpCalls = 0;
  httpSaves = 0;
  httpSavesFailed = 0;
  pings = 0;

  count(table: Record<string, number>, key: string) {
    table[key] = (table[key] ?? 0) + 1;
  }

  /** Answers sent within [from, to): how many, and their ack p50/p99 (an answer never acknowledged counts as endless). */
  acks(from = Number.NEGATIVE_INFINITY, to = Number.POSITIVE_INFINITY, except?: [number, number]) {
    const inside = this.sends.filter(
      (s) =>
        s.at >= from &&
        s.at < to &&
        !(except && s.at >= except[0] && s.at < except[1]) &&
        !(s.superseded && s.ackMs === undefined) &&
        !s.http,
    );
    const ms = inside.map((s) => s.ackMs ?? Number.POSITIVE_INFINITY);
    const acked = inside.filter((s) => s.ackMs !== undefined);
    return {
      sent: inside.length,
      acked: acked.length,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      /** Acknowledged answers per second of the window (by their sending). */
      perSecond: Number.isFinite(to - from) ? (acked.length * 1000) / (to - from) : Number.NaN,
    };
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Until a server instant (Date.now() time: the server's clock on this loopback). */
export const sleepUntil = (serverInstant: number) => sleep(serverInstant - Date.now());

/** performance.now() of a server instant. */
export const perfAt = (serverInstant: number) => performance.now() + serverInstant - Date.now();

/** Until `done()` holds (checked every 100 ms), `timeoutMs` at most; whether it holds. */
export async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = performance.now() + timeoutMs; !done(); await sleep(100)) if (performance.now() > end) return false;
  return true;
}

/** Runs `each` over `items`, `concurrency` at a time. */
export async function inPool<T>(items: readonly T[], concurrency: number, each: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await each(items[next++]!);
    }),
  );
}
