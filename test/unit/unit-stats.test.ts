import { describe, expect, it } from "vitest";
import type { SubjectAnalytics } from "~/lib/analytics-types";
import { editionTopicUnits, sumByUnit, unitStats, weakestUnits } from "~/lib/unit-stats";

const subject: SubjectAnalytics = {
  id: 2,
  name: "Chimica",
  topics: { "201": "Atomo", "202": "Legami", "204": "Soluzioni", "299": "Vecchio test" },
  units: [
    { number: 1, title: "Atomo e legami", credits: 0.5 },
    { number: 3, title: "Soluzioni", credits: 1 },
  ],
  topicUnits: { "201": 1, "202": 1, "204": 3, "299": null },
  studentAttempts: [],
  studentTopicAccuracy: {
    "201": { answered: 10, correct: 9 },
    "202": { answered: 10, correct: 3 },
    "204": { answered: 4, correct: 3 },
    "299": { answered: 50, correct: 0 },
  },
  siteAggregate: {
    scoreDistribution: [],
    attemptsOverTime: [],
    topicAccuracy: {},
    p80: null,
    p90: null,
    average: null,
  },
};

describe("statistics by syllabus unit", () => {
  it("sums a unit's topics and leaves legacy topics out", () => {
    const sums = sumByUnit(subject.studentTopicAccuracy, subject.topicUnits!);
    expect(sums.get(1)).toEqual({ answered: 20, correct: 12 });
    expect(sums.get(3)).toEqual({ answered: 4, correct: 3 });
    expect([...sums.keys()].sort()).toEqual([1, 3]);
  });
  it("suggests the weakest unit first and reviews its weakest topic", () => {
    const stats = unitStats(subject);
    expect(stats.map((s) => s.name)).toEqual(["U1 · Atomo e legami", "U3 · Soluzioni"]);
    const weak = weakestUnits(stats);
    expect(weak[0]).toMatchObject({ unit: 1, accuracy: 0.6, weakestTopicId: 202 });
  });
  it("is empty for a subject without units", () => {
    expect(unitStats({ ...subject, units: [] })).toEqual([]);
  });
});

describe("editionTopicUnits (units of the default edition, issue 29)", () => {
  it("puts each topic in the unit most of its questions belong to in the edition; ties go to the lower unit", () => {
    const map = editionTopicUnits([
      { topicId: 201, unit: 1, n: 5 },
      { topicId: 202, unit: 1, n: 2 },
      { topicId: 202, unit: 2, n: 3 },
      { topicId: 203, unit: 4, n: 2 },
      { topicId: 203, unit: 3, n: 2 },
      { topicId: null, unit: 7, n: 9 },
    ]);
    expect([...map].sort((a, b) => a[0] - b[0])).toEqual([
      [201, 1],
      [202, 2],
      [203, 3],
    ]);
  });
});
