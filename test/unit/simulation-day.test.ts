import { describe, expect, it } from "vitest";
import {
  candidateOptions,
  candidateQuestions,
  candidateSeed,
  closedCount,
  effectiveExtraPct,
  extendedSeconds,
  extraMs,
  permutation,
  roomDeadlines,
  studentWindows,
} from "~/lib/simulation-day";
import { extraTimePct } from "~/lib/forms/extra-time";
import { subjectWindows } from "~/lib/simulation";
import { nextAlarm, openedBetween, planOf } from "~/lib/room-plan";
import { subjectGrade, withGrades } from "~/lib/simulation-day";
import type { EditionFormat } from "~/lib/edition";

const format = {
  questionTotal: 31,
  scoring: { right: 1, blank: 0, wrong: -0.1 },
  maxGrade: 30,
  passMark: 18,
  lode: 31,
  rounding: "nearest-from-pass",
} as unknown as EditionFormat;

const MIN = 60_000;
const day = [
  { id: 2, name: "Chimica", timeMin: 50, breakAfterMin: 30 },
  { id: 4, name: "Fisica", timeMin: 50, breakAfterMin: 30 },
  { id: 1, name: "Biologia", timeMin: 50, breakAfterMin: 0 },
];
const ids = Array.from({ length: 31 }, (_, i) => 1000 + i);

describe("per-candidate order", () => {
  it("is a permutation, the same for the same seed", () => {
    const p = permutation(31, 42);
    expect([...p].sort((a, b) => a - b)).toEqual(Array.from({ length: 31 }, (_, i) => i));
    expect(permutation(31, 42)).toEqual(p);
  });

  it("is the same for the same candidate and different for two candidates", () => {
    const a = candidateSeed("sim-day", 7);
    expect(candidateSeed("sim-day", 7)).toBe(a);
    expect(candidateQuestions(ids, a, 0)).toEqual(candidateQuestions(ids, candidateSeed("sim-day", 7), 0));
    // Over many pairs of candidates, the orders differ (31! orders; a clash would be a broken seed).
    for (let u = 1; u < 50; u++) {
      const mine = candidateQuestions(ids, candidateSeed("sim-day", u), 0);
      const theirs = candidateQuestions(ids, candidateSeed("sim-day", u + 1), 0);
      expect(mine).not.toEqual(theirs);
      expect([...mine].sort()).toEqual([...ids].sort());
    }
    // The same candidate in another simulation, or another subject, gets another order.
    expect(candidateQuestions(ids, candidateSeed("sim-other", 7), 0)).not.toEqual(candidateQuestions(ids, a, 0));
    expect(candidateQuestions(ids, a, 1)).not.toEqual(candidateQuestions(ids, a, 0));
  });

  it("orders options per candidate and question, keeping every option", () => {
    const options = ["A", "B", "C", "D", "E"];
    const seeds = Array.from({ length: 30 }, (_, u) => candidateSeed("sim-day", u));
    const orders = new Set(seeds.map((s) => candidateOptions(options, s, 1001).join("")));
    expect(orders.size).toBeGreaterThan(5);
    for (const s of seeds) expect([...candidateOptions(options, s, 1001)].sort()).toEqual(options);
    expect(candidateOptions(options, seeds[3]!, 1001)).toEqual(candidateOptions(options, seeds[3]!, 1001));
  });
});

describe("accommodations", () => {
  it("takes the largest percentage that applies, within 0-100", () => {
    expect(effectiveExtraPct()).toBe(0);
    expect(effectiveExtraPct(0, 30, null, undefined)).toBe(30);
    expect(effectiveExtraPct(50, 30)).toBe(50);
    expect(effectiveExtraPct(250)).toBe(100);
  });

  it("validates the percentage with an Italian message", () => {
    expect(extraTimePct.parse("30")).toBe(30);
    expect(extraTimePct.safeParse(101).success).toBe(false);
    expect(extraTimePct.safeParse(-1).success).toBe(false);
    expect(extraTimePct.safeParse(12.5).error?.issues[0]?.message).toMatch(/percentuale intera da 0 a 100/);
  });

  it("gives +30 % of 50 minutes = 15 minutes inside each subject and shifts the candidate's next subjects", () => {
    const t0 = 1_000_000;
    expect(extraMs(50, 30)).toBe(15 * MIN);
    const common = subjectWindows(day, t0);
    expect(studentWindows(day, t0, 0)).toEqual(common);
    const dsa = studentWindows(day, t0, 30);
    expect(dsa[0]).toEqual({ startsAt: t0, endsAt: t0 + 65 * MIN });
    // The break keeps its length: Fisica starts 30′ after the candidate's own Chimica.
    expect(dsa[1]).toEqual({ startsAt: t0 + 95 * MIN, endsAt: t0 + 160 * MIN });
    expect(dsa[2]!.endsAt - common[2]!.endsAt).toBe(45 * MIN);
    expect(studentWindows(day, t0, 50)[0]!.endsAt).toBe(t0 + 75 * MIN);
  });

  it("closes a candidate's subjects at their own deadline plus the grace, and lists every room deadline", () => {
    const t0 = 0;
    const dsa = studentWindows(day, t0, 30);
    expect(closedCount(dsa, 50 * MIN + 2000, 2000)).toBe(0);
    expect(closedCount(subjectWindows(day, t0), 50 * MIN + 2000, 2000)).toBe(1);
    expect(closedCount(dsa, 65 * MIN + 2000, 2000)).toBe(1);
    const deadlines = roomDeadlines(day, t0, [30, 30, 0], 2000);
    expect(deadlines).toHaveLength(6);
    expect(deadlines[0]).toBe(50 * MIN + 2000);
    expect(deadlines.at(-1)).toBe(dsa[2]!.endsAt + 2000);
  });

  it("extends practice timers by the percentage and leaves untimed quizzes alone", () => {
    expect(extendedSeconds(600, 30)).toBe(780);
    expect(extendedSeconds(null, 30)).toBeNull();
    expect(extendedSeconds(600, 0)).toBe(600);
  });
});

describe("a room's plan", () => {
  const config = {
    simulationId: "sim",
    shard: 0,
    startTime: 0,
    flow: day,
    subjects: [],
    extra: { "7": 30 },
  };
  it("gives each candidate their own windows, grades after the last one and wakes at every deadline", () => {
    const plan = planOf(config, 2000);
    expect(plan.windowsOf(1)).toEqual(subjectWindows(day, 0));
    expect(plan.windowsOf(7)[0]!.endsAt).toBe(65 * MIN);
    expect(plan.extraOf(7)).toBe(30);
    expect(plan.end).toBe(plan.windowsOf(7)[2]!.endsAt);
    // 51′: closed for the 0 % candidate, open for the +30 % one, so not closed for all.
    expect(plan.closedFor(1, 51 * MIN)).toBe(1);
    expect(plan.closedFor(7, 51 * MIN)).toBe(0);
    expect(plan.closedForAll(51 * MIN)).toBe(0);
    expect(nextAlarm(plan, 51 * MIN)).toBe(65 * MIN + 2000);
    // Overdue: the last deadline, at once.
    expect(nextAlarm(plan, 10 * 60 * MIN)).toBe(plan.end + 2000);
  });

  it("wakes at every candidate's opening too, to send that subject's key", () => {
    const plan = planOf(config, 2000);
    // Fisica opens at 80′ for the 0 % candidate (after the 30′ break), at 95′ for the +30 % one.
    expect(plan.openings).toEqual([0, 80 * MIN, 95 * MIN, 160 * MIN, 190 * MIN]);
    expect(nextAlarm(plan, 66 * MIN)).toBe(80 * MIN);
    expect(nextAlarm(plan, 80 * MIN)).toBe(95 * MIN);
    // Before the start: the start itself (Chimica opens for everybody).
    expect(nextAlarm(plan, -4000)).toBe(0);
    expect(openedBetween(plan.windowsOf(1), 66 * MIN, 80 * MIN)).toEqual([1]);
    expect(openedBetween(plan.windowsOf(7), 66 * MIN, 80 * MIN)).toEqual([]);
    expect(openedBetween(plan.windowsOf(7), 80 * MIN, 95 * MIN)).toEqual([1]);
    // An alarm late by hours sends every key it missed, once.
    expect(openedBetween(plan.windowsOf(1), -1, 10 * 60 * MIN)).toEqual([0, 1, 2]);
  });
});

describe("grades of an edition's day", () => {
  it("shows each subject's grade out of 30, with lode and the failed mark", () => {
    expect(subjectGrade({ format }, { correct: 24, wrong: 0, total: 31 }).text).toBe("24/30");
    expect(subjectGrade({ format }, { correct: 31, wrong: 0, total: 31 }).text).toBe("30 e lode");
    expect(subjectGrade({ format }, { correct: 18, wrong: 2, total: 31 }).text).toBe("17,8/30 — non superato");
    const result = withGrades({ subjects: [{ correct: 1, wrong: 0, total: 31 }] }, { format });
    expect(result.subjects[0]!.grade?.text).toBe("1/30 — non superato");
    expect(withGrades({ subjects: [{ correct: 1, wrong: 0, total: 31 }] }, null).subjects[0]).not.toHaveProperty(
      "grade",
    );
  });
});
