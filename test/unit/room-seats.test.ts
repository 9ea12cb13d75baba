// Where each member of a simulation's audience sits (issue 31): even at save, nobody seated moves at Avvia.
import { describe, expect, it } from "vitest";
import { seatsAtSave, seatsAtStart } from "~/lib/room-seats";
import { shardOf } from "~/lib/simulation-protocol";

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe("seatsAtSave", () => {
  it("spreads any audience evenly over ceil(n / 1,000) rooms, whatever its ids", () => {
    // Even ids only: userId % rooms would put everybody in room 0 of 2.
    const evens = range(1, 1500).map((i) => i * 2);
    const { shards, seats } = seatsAtSave([...evens, ...evens.slice(0, 10)]);
    expect(shards).toBe(2);
    expect(seats.size).toBe(1500);
    expect([0, 1].map((room) => [...seats.values()].filter((s) => s === room).length)).toEqual([750, 750]);
  });

  it("has one room for a small audience and for none", () => {
    expect(seatsAtSave([5, 3]).shards).toBe(1);
    expect(seatsAtSave([]).shards).toBe(1);
  });
});

describe("seatsAtStart", () => {
  it("keeps every seat and seats a newcomer where they wait when there is room", () => {
    const { seats } = seatsAtSave(range(1, 1800));
    const { shards, added, moved } = seatsAtStart([...range(1, 1800), 5001], seats, 2);
    expect(shards).toBe(2);
    expect([...added]).toEqual([[5001, shardOf(5001, 2)]]);
    expect(moved.size).toBe(0);
  });

  it("adds rooms when the audience outgrew them, filling them with newcomers only", () => {
    const { seats } = seatsAtSave(range(1, 1000));
    const newcomers = range(2001, 600);
    const { shards, added, moved } = seatsAtStart([...range(1, 1000), ...newcomers], seats, 1);
    expect(shards).toBe(2);
    // Room 0 (where they waited) is full: every newcomer goes to the new room and is told to move.
    expect(new Set(added.values())).toEqual(new Set([1]));
    expect(moved.get(0)).toEqual(newcomers);
  });
});
