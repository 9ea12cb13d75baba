import { describe, expect, it } from "vitest";
import {
  estimateClockOffset,
  flowEnd,
  gradeSimulation,
  isCorrect,
  isCountdownCritical,
  phaseAt,
  simulationAccuracy,
  simulationSubjectScore,
  type AnswerKey,
} from "~/lib/simulation";

const MIN = 60_000;
const flow = [
  { id: 2, name: "Chimica", timeMin: 45, breakAfterMin: 15 },
  { id: 4, name: "Fisica", timeMin: 45, breakAfterMin: 15 },
  { id: 1, name: "Biologia", timeMin: 45, breakAfterMin: 15 },
];

describe("simulation flow", () => {
  it("subtracts each subject and break in order from the elapsed time", () => {
    const t0 = 1_000_000;
    expect(phaseAt(flow, null, t0)).toMatchObject({ kind: "waiting" });
    expect(phaseAt(flow, t0, t0 - 1)).toMatchObject({ kind: "waiting", endsAt: t0 });
    expect(phaseAt(flow, t0, t0)).toMatchObject({ kind: "subject", index: 0, endsAt: t0 + 45 * MIN });
    expect(phaseAt(flow, t0, t0 + 45 * MIN)).toMatchObject({ kind: "break", index: 0, endsAt: t0 + 60 * MIN });
    expect(phaseAt(flow, t0, t0 + 61 * MIN)).toMatchObject({ kind: "subject", index: 1, endsAt: t0 + 105 * MIN });
    expect(phaseAt(flow, t0, t0 + 121 * MIN)).toMatchObject({ kind: "subject", index: 2, endsAt: t0 + 165 * MIN });
    // No break after the last subject: the day is 3 × 45 + 2 × 15 minutes.
    expect(flowEnd(flow, t0)).toBe(t0 + 165 * MIN);
    expect(phaseAt(flow, t0, t0 + 165 * MIN)).toMatchObject({ kind: "finished" });
  });

  it("turns the countdown red at max(10 s, 10 % of the subject time)", () => {
    expect(isCountdownCritical(270_000, 45 * MIN)).toBe(true); // 10 % of 45 min = 4.5 min
    expect(isCountdownCritical(271_000, 45 * MIN)).toBe(false);
    expect(isCountdownCritical(10_000, MIN)).toBe(true); // 10 % of 1 min is 6 s < 10 s
    expect(isCountdownCritical(11_000, MIN)).toBe(false);
  });
});

describe("clock offset", () => {
  it("keeps the fastest round trips, so a device 10 minutes ahead still gets the server time", () => {
    const skew = -600_000; // server = device - 10 min
    const samples = [
      { sentAt: 0, receivedAt: 20, serverTime: 10 + skew }, // fast, symmetric
      { sentAt: 100, receivedAt: 122, serverTime: 111 + skew },
      { sentAt: 200, receivedAt: 900, serverTime: 210 + skew }, // slow, asymmetric: would err by 340 ms
      { sentAt: 1000, receivedAt: 1018, serverTime: 1009 + skew },
    ];
    const est = estimateClockOffset(samples, 3)!;
    expect(Math.abs(est.offset - skew)).toBeLessThan(2);
    expect(est.rtt).toBe(18);
    expect(estimateClockOffset([])).toBeNull();
  });
});

describe("simulation scoring", () => {
  const mc: AnswerKey = { id: 1, type: "mc", options: ["a", "b", "c"], correctIndex: 1, accepted: null };
  const gap: AnswerKey = { id: 2, type: "gap", options: null, correctIndex: null, accepted: ["Mitocondrio"] };

  it("per subject round(correct/total × 31 − wrong × 0.1); blanks cost nothing", () => {
    expect(simulationSubjectScore(31, 0, 31)).toBe(31);
    expect(simulationSubjectScore(20, 11, 31)).toBe(19); // 20 − 1.1 = 18.9
    expect(simulationSubjectScore(15, 0, 31)).toBe(15);
    expect(simulationSubjectScore(0, 0, 31)).toBe(0);
    expect(simulationSubjectScore(0, 10, 10)).toBe(-1);
    expect(simulationAccuracy(20, 31)).toBe(65);
  });

  it("compares mc by option text and gap trimmed and case-insensitive", () => {
    expect(isCorrect(mc, "b")).toBe(true);
    expect(isCorrect(mc, "a")).toBe(false);
    expect(isCorrect(mc, undefined)).toBeNull();
    expect(isCorrect(gap, "  mitocondrio ")).toBe(true);
    expect(isCorrect(gap, "mitocondri")).toBe(false);
    expect(isCorrect(gap, "   ")).toBeNull();
  });

  it("totals are rounded averages over subjects", () => {
    const result = gradeSimulation(
      [
        { id: 10, name: "A", keys: [mc, gap] },
        {
          id: 20,
          name: "B",
          keys: [
            { ...mc, id: 3 },
            { ...gap, id: 4 },
          ],
        },
      ],
      { "10": { "1": "b", "2": "mitocondrio" }, "20": { "3": "c" } },
    );
    expect(result.subjects).toEqual([
      { id: 10, name: "A", score31: 31, perc: 100, correct: 2, wrong: 0, total: 2 },
      { id: 20, name: "B", score31: 0, perc: 0, correct: 0, wrong: 1, total: 2 },
    ]);
    expect(result.totale).toBe(16); // (31 + 0) / 2 = 15.5 → 16
    expect(result.percTot).toBe(50);
  });
});
