// The exam day alone's pure rules (issue 46, point 2): what is left of a break on the candidate's own timeline (their
// extra time included), and the standing shown only over SOLO_DAY_MIN_PEERS other days.
import { describe, expect, it } from "vitest";
import { breakLeft, SOLO_DAY_MIN_PEERS, soloStanding } from "~/lib/solo-day";

const MIN = 60_000;
const flow = [
  { id: 2, name: "Chimica", timeMin: 50, breakAfterMin: 30 },
  { id: 4, name: "Fisica", timeMin: 50, breakAfterMin: 30 },
  { id: 1, name: "Biologia", timeMin: 50, breakAfterMin: 0 },
];

describe("breakLeft", () => {
  it("is what is left of the current break, and null in a paper, before the start or after the end", () => {
    expect(breakLeft(flow, 0, 0, 50 * MIN + 10 * MIN)).toEqual({ index: 0, ms: 20 * MIN });
    expect(breakLeft(flow, 0, 0, 130 * MIN + 1)).toEqual({ index: 1, ms: 30 * MIN - 1 });
    for (const at of [-1, 0, 49 * MIN, 80 * MIN, 129 * MIN, 160 * MIN, 300 * MIN])
      expect(breakLeft(flow, 0, 0, at)).toBeNull();
  });

  it("follows the candidate's own timeline: +30 % makes the paper longer, the break as long", () => {
    // The first paper lasts 65′ with +30 %: at 60′ it is still a paper, at 70′ the break has 25′ left.
    expect(breakLeft(flow, 0, 30, 60 * MIN)).toBeNull();
    expect(breakLeft(flow, 0, 30, 70 * MIN)).toEqual({ index: 0, ms: 25 * MIN });
  });
});

describe("soloStanding", () => {
  it("shows the percentile only over the minimum of other students' days", () => {
    expect(soloStanding(SOLO_DAY_MIN_PEERS - 1, 80)).toEqual({ peers: SOLO_DAY_MIN_PEERS - 1, percentile: null });
    expect(soloStanding(SOLO_DAY_MIN_PEERS, 80)).toEqual({ peers: SOLO_DAY_MIN_PEERS, percentile: 80 });
  });
});
