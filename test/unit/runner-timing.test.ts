// Reconnects that cannot become a storm (issue 45): the runner's and the live view's reconnect schedule and clock-sync
// phase (app/lib/runner-timing.ts), on a thousand simulated clients, and the comeback window a server close carries
// (app/lib/simulation-protocol.ts).
import { describe, expect, it } from "vitest";
import { prng } from "~/lib/prng";
import {
  firstResyncMs,
  MOVE_SPREAD_MS,
  RECONNECT_MAX_MS,
  ReconnectBackoff,
  RESYNC_MS,
  STABLE_AFTER_MS,
  syncsOnOpen,
} from "~/lib/runner-timing";
import {
  COMEBACK_DEFAULT_MS,
  COMEBACK_MAX_MS,
  comebackReason,
  comebackWindowOf,
  ROOM_MOVED_CODE,
} from "~/lib/simulation-protocol";

const ABNORMAL = 1006;

/** How many of `instants` fall in each `bucketMs` slot: the busiest one. */
function busiest(instants: number[], bucketMs: number): number {
  const counts = new Map<number, number>();
  for (const t of instants) counts.set(Math.floor(t / bucketMs), (counts.get(Math.floor(t / bucketMs)) ?? 0) + 1);
  return Math.max(...counts.values());
}

/** A thousand clients, each with its own random source, closed at `now` by the same close. */
function crowdAfter(code: number, reason: string, now = 100_000) {
  return Array.from({ length: 1000 }, (_, i) => {
    const backoff = new ReconnectBackoff(prng(i + 1));
    backoff.opened(now - 60_000);
    backoff.greet();
    return backoff.afterClose(code, reason, now);
  });
}

describe("the reconnect schedule", () => {
  it("backs off when a room accepts the socket and drops it before its hello: not the fastest retry for ever", () => {
    const backoff = new ReconnectBackoff(() => 0.5); // the middle of the jitter: the plain back-off
    let now = 0;
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      backoff.opened(now);
      now += 50; // accepted, then dropped 50 ms later, without a hello
      const { delayMs } = backoff.afterClose(ABNORMAL, "", now);
      delays.push(delayMs);
      now += delayMs;
    }
    expect(delays).toEqual([1000, 2000, 4000, RECONNECT_MAX_MS, RECONNECT_MAX_MS, RECONNECT_MAX_MS]);
  });

  it("after a deploy that keeps the server away for seconds, brings every one of 1,000 back within 8 s of its return, spread", () => {
    for (const downMs of [5000, 10_000, 30_000]) {
      const backAt = Array.from({ length: 1000 }, (_, i) => {
        const backoff = new ReconnectBackoff(prng(i + 1));
        backoff.opened(-60_000);
        backoff.greet();
        // Every socket drops (1006); each try before the server is back is refused without ever opening.
        let at = backoff.afterClose(ABNORMAL, "", 0).delayMs;
        while (at < downMs) at += backoff.afterClose(ABNORMAL, "", at).delayMs;
        return at;
      });
      expect(Math.max(...backAt) - downMs).toBeLessThan(8000);
      // No second of the comeback holds more than about a quarter of the room.
      expect(busiest(backAt, 1000)).toBeLessThan(300);
    }
  });

  it("starts over once the room has greeted the socket, or once it stayed open a few seconds", () => {
    const backoff = new ReconnectBackoff(() => 0.5);
    for (let i = 0; i < 4; i++) backoff.afterClose(ABNORMAL, "", i); // four failed tries: the next would wait 5 s
    backoff.opened(10_000);
    backoff.greet();
    expect(backoff.afterClose(ABNORMAL, "", 10_100).delayMs).toBe(1000);
    for (let i = 0; i < 4; i++) backoff.afterClose(ABNORMAL, "", 20_000 + i);
    backoff.opened(30_000); // no hello, but up for longer than STABLE_AFTER_MS: it worked
    expect(backoff.afterClose(ABNORMAL, "", 30_000 + STABLE_AFTER_MS).delayMs).toBe(1000);
    backoff.opened(40_000); // no hello and dropped at once: it did not
    expect(backoff.afterClose(ABNORMAL, "", 40_010).delayMs).toBe(2000);
  });

  it("spreads a sitting dropped by one blip over the jitter (×0.5–1.5): no 100 ms holds a fifth of it", () => {
    const back = crowdAfter(ABNORMAL, "");
    for (const { delayMs, holdFrom } of back) {
      expect(delayMs).toBeGreaterThanOrEqual(500);
      expect(delayMs).toBeLessThan(1500);
      expect(holdFrom).toBe(100_000); // the answers given meanwhile wait the usual grace from the drop
    }
    expect(
      busiest(
        back.map((b) => b.delayMs),
        100,
      ),
    ).toBeLessThan(200);
  });

  it("brings candidates moved to their room at Avvia (4001) back within a second, spread, without a longer back-off", () => {
    const back = crowdAfter(ROOM_MOVED_CODE, "Cambio stanza");
    for (const { delayMs } of back) {
      expect(delayMs).toBeGreaterThanOrEqual(0);
      expect(delayMs).toBeLessThan(MOVE_SPREAD_MS);
    }
    expect(
      busiest(
        back.map((b) => b.delayMs),
        100,
      ),
    ).toBeLessThan(200);
    const moved = new ReconnectBackoff(() => 0.5);
    moved.afterClose(ROOM_MOVED_CODE, "", 0);
    expect(moved.afterClose(ABNORMAL, "", 1).delayMs).toBe(1000); // a move is not a failure
  });

  it("after a release (1012), brings a room of 1,000 back over the window the server named, holding answers until each comeback", () => {
    const back = crowdAfter(1012, comebackReason(8000));
    for (const { delayMs, holdFrom } of back) {
      expect(delayMs).toBeGreaterThanOrEqual(0);
      expect(delayMs).toBeLessThan(8000);
      expect(holdFrom).toBe(100_000 + delayMs);
    }
    // About 125 a second if even; no second takes more than 200 (all at once would be 1,000).
    expect(
      busiest(
        back.map((b) => b.delayMs),
        1000,
      ),
    ).toBeLessThan(200);
    expect(Math.max(...back.map((b) => b.delayMs))).toBeGreaterThan(7000); // the whole window is used
  });

  it("after an overload (1013) without a readable window, uses the default one", () => {
    const back = crowdAfter(1013, "troppo pieno");
    expect(Math.max(...back.map((b) => b.delayMs))).toBeLessThan(COMEBACK_DEFAULT_MS);
    expect(Math.max(...back.map((b) => b.delayMs))).toBeGreaterThan(COMEBACK_DEFAULT_MS * 0.9);
  });
});

describe("the clock-sync phase", () => {
  it("differs per client, so a sitting that came back together does not ping together every 30 seconds", () => {
    const phases = Array.from({ length: 1000 }, (_, i) => firstResyncMs(prng(i + 7)()));
    for (const first of phases) {
      expect(first).toBeGreaterThanOrEqual(RESYNC_MS / 2);
      expect(first).toBeLessThan((RESYNC_MS * 3) / 2);
    }
    // About 33 a second if even; every client's later syncs keep the same phase (every RESYNC_MS).
    expect(
      busiest(
        phases.map((p) => p % RESYNC_MS),
        1000,
      ),
    ).toBeLessThan(70);
  });

  it("is not restarted by a reconnect: a room of 1,000 back from a deploy sends no pings at once, unless an estimate is stale", () => {
    const now = 1_000_000;
    // Every candidate of a room has had a pong within the last RESYNC_MS (their syncs run every RESYNC_MS).
    const lastPongs = Array.from({ length: 1000 }, (_, i) => now - 5000 - prng(i + 11)() * (RESYNC_MS - 5000));
    expect(lastPongs.filter((at) => syncsOnOpen(at, now))).toHaveLength(0);
    // A first socket syncs; so does one whose last pong is half a minute old or older.
    expect(syncsOnOpen(null, now)).toBe(true);
    expect(syncsOnOpen(now - RESYNC_MS, now)).toBe(true);
    expect(syncsOnOpen(now - RESYNC_MS + 1, now)).toBe(false);
  });
});

describe("the comeback window of a server close", () => {
  it("is the one the reason names, capped; the default for a server close without one; none for other closes", () => {
    expect(comebackWindowOf(1012, comebackReason(8000))).toBe(8000);
    expect(comebackWindowOf(1013, comebackReason(12_345.4))).toBe(12_345);
    expect(comebackWindowOf(1001, "")).toBe(COMEBACK_DEFAULT_MS);
    expect(comebackWindowOf(1012, "comeback=99999999")).toBe(COMEBACK_MAX_MS);
    expect(comebackWindowOf(1012, comebackReason(10 ** 9))).toBe(COMEBACK_MAX_MS);
    expect(comebackWindowOf(1012, "comeback=-5")).toBe(COMEBACK_DEFAULT_MS);
    for (const code of [1000, 1005, ABNORMAL, ROOM_MOVED_CODE])
      expect(comebackWindowOf(code, comebackReason(8000))).toBeNull();
    expect(new TextEncoder().encode(comebackReason(COMEBACK_MAX_MS)).length).toBeLessThanOrEqual(123);
  });
});
