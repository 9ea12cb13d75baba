// Where each member of a simulation's audience sits (issue 31), pure: every member (listed users and class members
// alike) gets a room at save, spread evenly; at Avvia nobody already seated moves, and whoever joined since is seated
// where they already wait (shardOf, the room they reach without a seat) unless that room is full.
import { shardCount, shardOf } from "./simulation-protocol.ts";

/** At save: ceil(audience / capacity) rooms, member i (by user id) in room i mod rooms: sizes differ by at most one. */
export function seatsAtSave(audience: readonly number[]): { shards: number; seats: Map<number, number> } {
  const ids = [...new Set(audience)].sort((a, b) => a - b);
  const shards = shardCount(ids.length);
  return { shards, seats: new Map(ids.map((userId, i) => [userId, i % shards])) };
}

/**
 * At Avvia: the rooms grow only if the audience outgrew them (never shrink: seated members keep their room); members
 * without a seat (joined a class since the save) are seated in the room they reach now (shardOf with the saved room
 * count) while it holds less than an even share, else in the emptiest room. `moved` lists, per room, the members who
 * waited there and must reconnect elsewhere (only unseated members, and only when their room was full).
 */
export function seatsAtStart(
  audience: readonly number[],
  seated: ReadonlyMap<number, number>,
  savedShards: number,
): { shards: number; added: Map<number, number>; moved: Map<number, number[]> } {
  const ids = [...new Set(audience)].sort((a, b) => a - b);
  const shards = Math.max(savedShards, shardCount(ids.length));
  const share = Math.ceil(ids.length / shards);
  const load = new Array<number>(shards).fill(0);
  const unseated: number[] = [];
  for (const userId of ids) {
    const seat = seated.get(userId);
    if (seat != null && seat < shards) load[seat]! += 1;
    else unseated.push(userId);
  }
  const added = new Map<number, number>();
  const moved = new Map<number, number[]>();
  for (const userId of unseated) {
    const waiting = shardOf(userId, savedShards);
    let seat = waiting;
    if (load[waiting]! >= share) seat = load.indexOf(Math.min(...load));
    load[seat]! += 1;
    added.set(userId, seat);
    if (seat !== waiting) moved.set(waiting, [...(moved.get(waiting) ?? []), userId]);
  }
  return { shards, added, moved };
}
