// Issue 32's pure parts: a pupil's trend and the weakest units (class progress), the live view's statuses, rooms
// merged and the top-3 leaderboard.
import { describe, expect, it } from "vitest";
import { isInactive, pupilTrend, weakestUnits, type UnitProgress } from "~/lib/class-progress";
import { leaderboard, mergedPupils, pupilStatus, roomView, shownRows, withPupil } from "~/lib/live-view";
import type { LiveStateMessage } from "~/lib/simulation-protocol";

const DAY = 86_400_000;

describe("class progress", () => {
  it("gives the weekly accuracy oldest first and the change between the two halves of the window", () => {
    const t = pupilTrend([
      { week: 7, answered: 10, correct: 3 },
      { week: 0, answered: 10, correct: 7 },
    ]);
    expect(t.weekly[0]).toBeCloseTo(0.3);
    expect(t.weekly[7]).toBeCloseTo(0.7);
    expect(t.weekly.slice(1, 7)).toEqual([null, null, null, null, null, null]);
    expect(t).toMatchObject({ deltaPp: 40, direction: "su" });
    expect(pupilTrend([{ week: 1, answered: 30, correct: 20 }])).toMatchObject({ deltaPp: null, direction: null });
    expect(
      pupilTrend([
        { week: 6, answered: 10, correct: 5 },
        { week: 2, answered: 10, correct: 5 },
      ]).direction,
    ).toBe("stabile");
  });

  it("names the weakest units among those answered enough, and who has been silent 7 days or more", () => {
    const unit = (unit: number, answered: number, correct: number): UnitProgress => ({
      subjectId: 2,
      subject: "Chimica",
      unit,
      title: `U${unit}`,
      answered,
      correct,
      accuracy: answered ? correct / answered : null,
    });
    const units = [unit(1, 20, 15), unit(2, 9, 0), unit(3, 10, 4), unit(4, 0, 0), unit(5, 30, 12)];
    expect(weakestUnits(units).map((u) => u.unit)).toEqual([5, 3, 1]);
    const now = Date.UTC(2026, 10, 25, 12);
    expect(isInactive(null, now)).toBe(true);
    expect(isInactive(now - 7 * DAY, now)).toBe(true);
    expect(isInactive(now - 6 * DAY - 1000, now)).toBe(false);
  });
});

const state = (over: Partial<LiveStateMessage>): LiveStateMessage => ({
  type: "live-state",
  shard: 0,
  serverTime: 0,
  started: true,
  startTime: 0,
  closedThrough: 0,
  graded: false,
  pupils: [],
  scores: [],
  ...over,
});
const pupil = (userId: number, over: Partial<LiveStateMessage["pupils"][number]> = {}) => ({
  userId,
  connected: true,
  submitted: false,
  answered: [0, 0],
  closedThrough: 0,
  ...over,
});

describe("the live view", () => {
  it("tells not connected, connected, answering and handed in apart", () => {
    expect(pupilStatus(undefined, 0)).toBe("assente");
    expect(pupilStatus(pupil(1, { connected: false, answered: [3, 0] }), 0)).toBe("assente");
    expect(pupilStatus(pupil(1), 0)).toBe("connesso");
    expect(pupilStatus(pupil(1, { answered: [2, 0] }), 0)).toBe("risponde");
    expect(pupilStatus(pupil(1, { answered: [2, 0] }), 1)).toBe("connesso");
    expect(pupilStatus(pupil(1, { connected: false, submitted: true }), 1)).toBe("consegnato");
  });

  it("merges rooms, ranks the closed subjects only where every room has closed them, shows the top 3 by default", () => {
    let r0 = roomView(
      state({
        closedThrough: 1,
        pupils: [pupil(1), pupil(3)],
        scores: [
          { userId: 1, scores: [20] },
          { userId: 3, scores: [25] },
        ],
      }),
    );
    const r1 = roomView(
      state({
        shard: 1,
        closedThrough: 1,
        pupils: [pupil(2), pupil(4)],
        scores: [
          { userId: 2, scores: [25] },
          { userId: 4, scores: [10] },
        ],
      }),
    );
    r0 = withPupil(r0, pupil(1, { connected: false }));
    expect([...mergedPupils([r0, r1]).keys()].sort()).toEqual([1, 2, 3, 4]);
    expect(mergedPupils([r0, r1]).get(1)?.connected).toBe(false);
    const board = leaderboard([r0, r1]);
    expect(board.closed).toBe(1);
    expect(board.rows.map((r) => [r.userId, r.pos])).toEqual([
      [2, 1],
      [3, 1],
      [1, 3],
      [4, 4],
    ]);
    expect(shownRows(board.rows, false).map((r) => r.userId)).toEqual([2, 3, 1]);
    expect(shownRows(board.rows, true)).toHaveLength(4);
    // A room still writing in the subject: no leaderboard yet.
    expect(leaderboard([r0, { ...r1, closedThrough: 0, scores: [] }]).rows).toEqual([]);
  });
});
