import { describe, expect, it } from "vitest";
import { daysAgoText, pickDefaultSubject, signedPct, subjectView } from "~/components/dashboard/view-model";
import type { StudentAnalytics, SubjectAnalytics } from "~/lib/analytics-types";

const DAY = 86_400_000;
const NOW = Date.parse("2026-03-31T12:00:00Z");
const iso = (daysAgo: number) => new Date(NOW - daysAgo * DAY).toISOString();

function subject(id: number, attempts: { daysAgo: number; score: number; topicIds: number[] }[]): SubjectAnalytics {
  return {
    id,
    name: `Materia ${id}`,
    topics: { "1": "Uno", "2": "Due", "3": "Tre", "4": "Quattro" },
    studentAttempts: attempts.map((a, i) => ({
      id: id * 100 + i,
      date: iso(a.daysAgo),
      score: a.score,
      correct: 6,
      total: 10,
      timeSec: 300,
      topic: "Uno",
      topicIds: a.topicIds,
    })),
    studentTopicAccuracy: {
      "1": { answered: 10, correct: 9 },
      "2": { answered: 10, correct: 3 },
      "3": { answered: 4, correct: 2 },
    },
    siteAggregate: {
      scoreDistribution: Array.from({ length: 32 }, (_, score) => ({
        score,
        count: score === 10 || score === 20 ? 5 : 0,
      })),
      attemptsOverTime: [],
      topicAccuracy: { "1": 0.7 },
      p80: 20,
      p90: 20,
      average: 15,
    },
  };
}

const analytics: StudentAnalytics = {
  studentId: 1,
  studentName: "Giulia",
  improvementLastMonthPct: 12.5,
  subjects: [
    subject(1, [{ daysAgo: 9, score: 10, topicIds: [1] }]),
    subject(2, [
      { daysAgo: 8, score: 0.5, topicIds: [1, 2] },
      { daysAgo: 7, score: 12, topicIds: [2] },
      { daysAgo: 6, score: 14, topicIds: [1] },
      { daysAgo: 3, score: 20, topicIds: [1] },
      { daysAgo: 2, score: 22, topicIds: [2] },
      { daysAgo: 1, score: 24, topicIds: [1] },
    ]),
  ],
};

describe("dashboard view model", () => {
  it("opens on the subject practised last", () => {
    expect(pickDefaultSubject(analytics)).toBe(2);
  });

  it("derives KPI, small cards, suggestions and footer figures", () => {
    const view = subjectView(analytics, 2, null, NOW);
    expect(view.scores).toEqual([15.5, 12, 14, 20, 22, 24]); // 0.5 read as a fraction of 31
    expect(view.mean).toBeCloseTo(17.92, 2);
    expect(view.median).toBe(17.75);
    expect(view.accuracyPct).toBe(60);
    expect(view.secondsPerQuestion).toBe(30);
    expect(view.coverage).toEqual({ covered: 3, total: 4 });
    expect(view.daysSinceLast).toBe(1);
    expect(view.momentum).toEqual({ last: 22, previous: 13.8, delta: 8.2 });
    expect(view.weakest.map((t) => t.name)).toEqual(["Due", "Tre", "Uno"]);
    expect(view.weakCount).toBe(2);
    expect(view.rank).toBe(50);
    expect(view.minutesLast7Days).toBe(25); // 5 attempts of 5 minutes started in the last 7 days
    expect(view.inactiveDays).toBeNull();
  });

  it("filters by topic and reports inactivity above 5 days", () => {
    const view = subjectView(analytics, 2, 2, NOW);
    expect(view.attempts.map((a) => a.score)).toEqual([0.5, 12, 22]);
    const idle = subjectView(analytics, 1, null, NOW + 10 * DAY);
    expect(idle.inactiveDays).toBe(11);
  });

  it("formats the month change and the days since the last attempt", () => {
    expect(signedPct(12.5)).toBe("+12,5%");
    expect(signedPct(-3)).toBe("-3%");
    expect(signedPct(null)).toBe("—");
    expect(daysAgoText(0)).toBe("Oggi");
    expect(daysAgoText(1)).toBe("1 giorno fa");
    expect(daysAgoText(4)).toBe("4 giorni fa");
    expect(daysAgoText(null)).toBe("Nessuna");
  });
});
