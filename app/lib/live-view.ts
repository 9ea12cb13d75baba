// The teacher's live view of a class simulation (issue 32, point 3), pure: the rooms' states merged (a simulation may
// run in several rooms), each pupil's status, and the leaderboard after the subjects closed for everybody. The
// browser feeds it the staff sockets' messages (app/lib/simulation-protocol.ts).
import { rankByKey } from "./rank-key.ts";
import type { LivePupil, LiveScores, LiveStateMessage } from "./simulation-protocol.ts";

/** How many places the leaderboard shows until the teacher asks for the whole class. */
export const LEADERBOARD_TOP = 3;

export type PupilStatus = "assente" | "connesso" | "risponde" | "consegnato";

export const STATUS_LABEL: Record<PupilStatus, string> = {
  assente: "Non connesso",
  connesso: "Connesso",
  risponde: "Sta rispondendo",
  consegnato: "Consegnato",
};

/** A room's state, kept per shard; pupils' rows replaced as live-pupil messages arrive. */
export type RoomView = Omit<LiveStateMessage, "type" | "pupils"> & { pupils: Record<string, LivePupil> };

export function roomView(state: LiveStateMessage): RoomView {
  const { type: _, pupils, ...rest } = state;
  return { ...rest, pupils: Object.fromEntries(pupils.map((p) => [String(p.userId), p])) };
}

export function withPupil(view: RoomView, pupil: LivePupil): RoomView {
  return { ...view, pupils: { ...view.pupils, [String(pupil.userId)]: pupil } };
}

/** Every room's rows together (a pupil sits in one room; the newest row wins if a move left two). */
export function mergedPupils(rooms: readonly (RoomView | undefined)[]): Map<number, LivePupil> {
  const out = new Map<number, LivePupil>();
  for (const room of rooms)
    for (const p of Object.values(room?.pupils ?? {})) {
      const seen = out.get(p.userId);
      if (!seen || (p.connected && !seen.connected)) out.set(p.userId, p);
    }
  return out;
}

/**
 * A pupil's status in the subject `current` (their flow position now): handed in; connected and with an answer in it
 * ("risponde"); connected; or not connected (never, or gone).
 */
export function pupilStatus(pupil: LivePupil | undefined, current: number): PupilStatus {
  if (!pupil) return "assente";
  if (pupil.submitted) return "consegnato";
  if (!pupil.connected) return "assente";
  return (pupil.answered[current] ?? 0) > 0 ? "risponde" : "connesso";
}

export type LeaderRow = { userId: number; pos: number; total: number; scores: number[] };

/**
 * The leaderboard over the subjects closed in every room: the sum of each pupil's scores (0-31 each), ties sharing
 * a place. `closed` is the smallest closedThrough of the rooms, so no room's pupils are still writing in it.
 */
export function leaderboard(rooms: readonly (RoomView | undefined)[]): { closed: number; rows: LeaderRow[] } {
  const present = rooms.filter((r): r is RoomView => r != null);
  const closed = present.length ? Math.min(...present.map((r) => r.closedThrough)) : 0;
  if (closed <= 0) return { closed: 0, rows: [] };
  const scores: LiveScores[] = present.flatMap((r) => r.scores);
  const rows = scores.map((s) => {
    const kept = s.scores.slice(0, closed);
    return { userId: s.userId, scores: kept, key: kept.reduce((a, b) => a + b, 0) };
  });
  return {
    closed,
    rows: rankByKey(rows).map((r) => ({
      userId: r.userId,
      pos: r.pos,
      total: Math.round(r.key * 10) / 10,
      scores: r.scores,
    })),
  };
}

/** The rows shown: the top LEADERBOARD_TOP places (ties at the third place included), or all. */
export function shownRows(rows: readonly LeaderRow[], all: boolean): LeaderRow[] {
  return all ? [...rows] : rows.filter((r) => r.pos <= LEADERBOARD_TOP);
}
