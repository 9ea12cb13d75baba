import { describe, expect, it } from "vitest";
import {
  countWeakTopics,
  fullHistogram,
  histogramMean,
  histogramPercentile,
  improvementLastMonthPct,
  inactivityDays,
  median,
  minutesStudied,
  momentum,
  normalizeScore,
  percentileRank,
  preparationLevel,
  scoreBin,
  truncateLabel,
  weakestTopics,
} from "~/lib/analytics";

const DAY = 86_400_000;
const NOW = Date.parse("2026-03-31T12:00:00Z");
const at = (daysAgo: number, score: number, timeSec = 600) => ({
  date: new Date(NOW - daysAgo * DAY).toISOString(),
  score,
  timeSec,
});

describe("score normalisation", () => {
  it("reads a score of 1 or less as a fraction of 31", () => {
    expect(normalizeScore(0.5)).toBe(15.5);
    expect(normalizeScore(1)).toBe(31);
    expect(normalizeScore(20)).toBe(20);
    expect(normalizeScore(-0.4)).toBe(0);
  });
  it("bins an attempt by its summary score, rounded and kept in 0-31", () => {
    expect(scoreBin(19.5, 13, 20)).toBe(20);
    expect(scoreBin(-0.4, 0, 10)).toBe(0);
    expect(scoreBin(null, 10, 20)).toBe(16);
    expect(scoreBin(31, 31, 31)).toBe(31);
  });
  it("median of odd and even lists", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe("percentiles over the site histogram", () => {
  // 10 attempts: scores 10 ×2, 15 ×3, 20 ×3, 25 ×1, 30 ×1
  const bins = [
    { score: 10, count: 2 },
    { score: 15, count: 3 },
    { score: 20, count: 3 },
    { score: 25, count: 1 },
    { score: 30, count: 1 },
  ];
  it("p80 is the Top 20% threshold and p90 the 90th percentile", () => {
    expect(histogramPercentile(bins, 80)).toBe(20);
    expect(histogramPercentile(bins, 90)).toBe(25);
    expect(histogramPercentile(bins, 50)).toBe(15);
    expect(histogramPercentile([], 80)).toBeNull();
  });
  it("percentile rank counts the attempts strictly below", () => {
    expect(percentileRank(bins, 21)).toBe(80);
    expect(percentileRank(bins, 10)).toBe(0);
    expect(percentileRank(bins, 31)).toBe(100);
    expect(percentileRank([], 10)).toBeNull();
  });
  it("fills every bin 0..31 and computes the mean", () => {
    const full = fullHistogram(bins);
    expect(full).toHaveLength(32);
    expect(full[15]).toEqual({ score: 15, count: 3 });
    expect(full[0]).toEqual({ score: 0, count: 0 });
    expect(histogramMean(bins)).toBe(18);
  });
});

describe("momentum, weak topics, preparation", () => {
  it("compares the last 3 scores with the 3 before", () => {
    expect(momentum([1, 10, 12, 14, 20, 21, 22])).toEqual({ last: 21, previous: 12, delta: 9 });
    expect(momentum([10, 12, 14, 20, 21])).toBeNull();
  });
  it("suggests the 3 weakest answered topics and counts those under 60%", () => {
    const stats = [
      { topicId: 1, name: "A", answered: 10, correct: 9 },
      { topicId: 2, name: "B", answered: 10, correct: 2 },
      { topicId: 3, name: "C", answered: 0, correct: 0 },
      { topicId: 4, name: "D", answered: 10, correct: 5 },
      { topicId: 5, name: "E", answered: 10, correct: 7 },
    ];
    expect(weakestTopics(stats).map((t) => t.topicId)).toEqual([2, 4, 5]);
    expect(countWeakTopics(stats)).toBe(2);
    expect(weakestTopics([])).toEqual([]);
  });
  it("preparation above 80% is high", () => {
    expect(preparationLevel(27)).toEqual({ pct: 87, label: "Alta" });
    expect(preparationLevel(20)).toEqual({ pct: 65, label: "Media" });
    expect(preparationLevel(10)).toEqual({ pct: 32, label: "Bassa" });
    expect(preparationLevel(null)).toBeNull();
  });
  it("cuts topic labels to 24 characters", () => {
    const cut = truncateLabel("Anatomia e fisiologia umana comparata");
    expect(cut.length).toBe(24);
    expect(cut.endsWith("…")).toBe(true);
    expect(truncateLabel("La cellula")).toBe("La cellula");
  });
});

describe("study windows", () => {
  it("minutes in the last 7 days, inactivity above 5 days, monthly change", () => {
    const attempts = [at(40, 10), at(35, 10), at(20, 15), at(6, 15, 1200), at(2, 15, 900)];
    expect(minutesStudied(attempts, NOW)).toBe(35);
    expect(inactivityDays(attempts, NOW)).toBeNull();
    expect(inactivityDays([at(6, 10)], NOW)).toBe(6);
    expect(inactivityDays([at(5, 10)], NOW)).toBeNull();
    expect(improvementLastMonthPct(attempts, NOW)).toBe(50);
    expect(improvementLastMonthPct([at(2, 10)], NOW)).toBeNull();
  });
});
