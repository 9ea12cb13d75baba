// THE timeline of a live sitting (issue 44, point 1): when each candidate's exam ends (their accommodation included),
// when the whole sitting ends (the latest candidate's end) and when its seal lifts. Avvia computes the sitting's
// figures once and stores them (simulations.ends_at, simulations.seal_until); the seal, the door, /simulazioni, the
// room, the result pages and the runner read the stored values. Nothing else computes an end.
import { SIMULATION_GRACE_MS } from "./constants.ts";
import { type FlowSubject, flowEnd } from "./simulation.ts";
import { studentFlow } from "./simulation-day.ts";

/**
 * How long after the sitting's end (and the room's grace) its questions stay sealed when no room has graded: from
 * then on no room accepts an answer, so no key can help.
 */
export const SIMULATION_SEAL_MARGIN_MS = 60_000;

/** When one candidate's last subject closes: their own extended subjects, the breaks as they are (studentFlow). */
export function candidateEnd(flow: readonly FlowSubject[], startTime: number, extraPct: number): number {
  return flowEnd(studentFlow(flow, extraPct), startTime);
}

export type SittingTimeline = {
  startTime: number;
  /** The latest candidate's end (extra time included), no grace. */
  endsAt: number;
  /** Until when the sitting's questions are sealed: the end, the room's grace and the margin. */
  sealUntil: number;
};

/** The sitting's timeline from its plan, its start and every candidate's fixed extra time (0 % always counts). */
export function sittingTimeline(
  flow: readonly FlowSubject[],
  startTime: number,
  extraPcts: Iterable<number>,
): SittingTimeline {
  // A longer extra time never ends earlier: the largest percentage is the latest end.
  const endsAt = candidateEnd(flow, startTime, Math.max(0, ...extraPcts));
  return { startTime, endsAt, sealUntil: endsAt + SIMULATION_GRACE_MS + SIMULATION_SEAL_MARGIN_MS };
}

/** The same timeline moved by `deltaMs` (the development-only clock hook moves the start and everything with it). */
export function shiftedTimeline(timeline: SittingTimeline, deltaMs: number): SittingTimeline {
  return {
    startTime: timeline.startTime + deltaMs,
    endsAt: timeline.endsAt + deltaMs,
    sealUntil: timeline.sealUntil + deltaMs,
  };
}
