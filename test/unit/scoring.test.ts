import { describe, expect, it } from "vitest";
import { listScore, percentCorrect, summaryScore } from "~/lib/scoring";

describe("scores on the 0-31 scale", () => {
  it("summary: correct/total × 31 − 0.1 per wrong answer, one decimal", () => {
    expect(summaryScore(31, 0, 31)).toBe(31);
    expect(summaryScore(20, 11, 31)).toBe(18.9); // 20 − 1.1
    expect(summaryScore(7, 2, 10)).toBe(21.5); // 21.7 − 0.2
    expect(summaryScore(0, 10, 10)).toBe(-1);
    expect(summaryScore(0, 0, 10)).toBe(0); // all blank costs nothing
  });

  it("rounds halves up without float drift", () => {
    expect(summaryScore(13, 6, 20)).toBe(19.6); // 20.15 − 0.6 = 19.55
    expect(summaryScore(13, 3, 20)).toBe(19.9); // 20.15 − 0.3 = 19.85
  });

  it("list score is round(correct/total × 31) and percent is rounded", () => {
    expect(listScore(7, 10)).toBe(22);
    expect(listScore(0, 0)).toBe(0);
    expect(percentCorrect(2, 3)).toBe(67);
  });
});
