// The plan of one simulation room, pure (ENGINEERING.md, "The room, next"): what the room keeps about its exam and,
// derived from it once per wake-up, each candidate's own windows (their accommodation included, simulation-day.ts),
// the room's last deadline and every instant its alarm must run.
import { type AnswerKey, type FlowSubject, subjectWindows } from "./simulation.ts";
import { closedCount, roomDeadlines, studentWindows } from "./simulation-day.ts";
import { sittingTimeline } from "./sitting-timeline.ts";

/** What the room keeps about its exam. Answer keys stay in the room; no message to a client carries them. */
export type RoomConfig = {
  simulationId: string;
  shard: number;
  startTime: number;
  flow: FlowSubject[];
  /** `binding`: what the subject's sealed copies are bound to (subjectBinding at the start; absent in a room started
   * before it existed, whose copies then do not open and the runner asks the server). */
  subjects: { id: number; name: string; questionIds: number[]; keys: AnswerKey[]; binding?: string }[];
  /** Accommodated candidates' extra time (user id → %), fixed at the start; absent = 0 %. */
  extra?: Record<string, number>;
  /**
   * THE sitting's end as Avvia stored it (simulations.ends_at: its latest candidate's, app/lib/sitting-timeline.ts);
   * absent in a room started before it, which computes the same from its own candidates.
   */
  endsAt?: number;
};

export type Window = { startsAt: number; endsAt: number };

export type RoomPlan = {
  config: RoomConfig;
  /** The common windows (0 %). */
  windows: Window[];
  /** The sitting's end (no grace), as stored at Avvia: the room grades after it. */
  end: number;
  questions: Map<number, { subjectIndex: number; subjectId: number; key: AnswerKey }>;
  /** Every instant (grace included) at which some candidate's subject closes, sorted. */
  deadlines: number[];
  /** Every instant at which some candidate's subject opens (the room sends its key then), sorted. */
  openings: number[];
  extraOf: (userId: number) => number;
  windowsOf: (userId: number) => Window[];
  /** How many of this candidate's subjects are closed at `now`. */
  closedFor: (userId: number, now: number) => number;
  /** How many subjects are closed for every candidate at `now`. */
  closedForAll: (now: number) => number;
};

export function planOf(config: RoomConfig, graceMs: number): RoomPlan {
  const questions = new Map<number, { subjectIndex: number; subjectId: number; key: AnswerKey }>();
  config.subjects.forEach((s, subjectIndex) => {
    for (const key of s.keys) questions.set(key.id, { subjectIndex, subjectId: s.id, key });
  });
  const extra = config.extra ?? {};
  const windows = subjectWindows(config.flow, config.startTime);
  const byPct = new Map<number, Window[]>([[0, windows]]);
  const windowsAt = (pct: number) => {
    let w = byPct.get(pct);
    if (!w) byPct.set(pct, (w = studentWindows(config.flow, config.startTime, pct)));
    return w;
  };
  const pcts = Object.values(extra);
  const latest = windowsAt(Math.max(0, ...pcts));
  const end = config.endsAt ?? sittingTimeline(config.flow, config.startTime, pcts).endsAt;
  const extraOf = (userId: number) => extra[String(userId)] ?? 0;
  const windowsOf = (userId: number) => windowsAt(extraOf(userId));
  return {
    config,
    windows,
    end,
    questions,
    // Every candidate's deadlines, and the sitting's end (the same instant unless the stored end says later).
    deadlines: [...new Set([...roomDeadlines(config.flow, config.startTime, pcts, graceMs), end + graceMs])].sort(
      (a, b) => a - b,
    ),
    openings: [...new Set([0, ...pcts].flatMap((pct) => windowsAt(pct).map((w) => w.startsAt)))].sort((a, b) => a - b),
    extraOf,
    windowsOf,
    closedFor: (userId, now) => closedCount(windowsOf(userId), now, graceMs),
    closedForAll: (now) => (now >= end + graceMs ? config.flow.length : closedCount(latest, now, graceMs)),
  };
}

/**
 * The instant of the room's next alarm after `now`: the next opening or deadline, whichever comes first, or the last
 * deadline (overdue: run at once).
 */
export function nextAlarm(plan: RoomPlan, now: number): number | null {
  const deadline = plan.deadlines.find((d) => d > now);
  const opening = plan.openings.find((o) => o > now);
  if (deadline == null) return opening ?? plan.deadlines.at(-1) ?? null;
  return opening != null && opening < deadline ? opening : deadline;
}

/** Which subjects (flow indexes) open for a candidate with these windows in (since, now]: their keys go out now. */
export function openedBetween(windows: readonly Window[], since: number, now: number): number[] {
  return windows.flatMap((w, i) => (w.startsAt > since && w.startsAt <= now ? [i] : []));
}
