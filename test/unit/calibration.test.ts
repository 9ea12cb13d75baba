import { describe, expect, it } from "vitest";
import { brierScore, calibrationBySubject, reliability, tenthOf } from "~/lib/calibration";

describe("the forecast against reality (issue 46, point 4)", () => {
  it("scores a perfect forecast 0, always 50 % at 0,25 and a confident miss at 1", () => {
    expect(
      brierScore([
        { forecast: 1, passed: true },
        { forecast: 0, passed: false },
      ]),
    ).toBe(0);
    expect(
      brierScore([
        { forecast: 0.5, passed: true },
        { forecast: 0.5, passed: false },
      ]),
    ).toBe(0.25);
    expect(brierScore([{ forecast: 0, passed: true }])).toBe(1);
    expect(brierScore([])).toBeNull();
  });

  it("groups by tenths: 0,1 is in the second, 1 in the last, and each bin's mean and pass share come from its cases", () => {
    expect([0, 0.0999, 0.1, 0.55, 0.9, 1].map(tenthOf)).toEqual([0, 0, 1, 5, 9, 9]);
    const bins = reliability([
      { forecast: 0.72, passed: true },
      { forecast: 0.78, passed: false },
      { forecast: 0.75, passed: true },
      { forecast: 0.05, passed: false },
    ]);
    expect(bins).toHaveLength(10);
    expect(bins[7]).toEqual({ tenth: 7, cases: 3, meanForecast: 0.75, passedShare: 2 / 3 });
    expect(bins[0]).toMatchObject({ cases: 1, passedShare: 0 });
    expect(bins[4]).toEqual({ tenth: 4, cases: 0, meanForecast: null, passedShare: null });
  });

  it("keeps subjects apart, in the order given, and compares with the base rate", () => {
    const rows = calibrationBySubject(
      [2, 4],
      [
        { subjectId: 4, forecast: 0.9, passed: true },
        { subjectId: 4, forecast: 0.1, passed: false },
        { subjectId: 1, forecast: 0.5, passed: true },
      ],
    );
    expect(rows.map((r) => [r.subjectId, r.cases])).toEqual([
      [2, 0],
      [4, 2],
    ]);
    expect(rows[0]!.brier).toBeNull();
    expect(rows[1]!.brier).toBeCloseTo(0.01, 10);
    // The base rate (1 of 2 passed) always forecasts 50 %: 0,25. A useful forecast beats it.
    expect(rows[1]!.baseBrier).toBeCloseTo(0.25, 10);
  });
});
