// The forecast against reality (issue 46, point 4), pure: each student who entered an official grade is one case,
// the probability of passing the forecast stored the day before the sitting (P(≥ pass mark) on one paper) against
// what happened (the grade passed by the edition's rule, reportedGrade). The Brier score is the mean squared
// distance between the two (0 is perfect; always saying 50 % scores 0,25); the reliability table groups the cases by
// tenths of the forecast and compares each group's mean forecast with how many passed.

/** One case: the stored forecast and the outcome (true: the exam was passed). */
export type CalibrationCase = { subjectId: number; forecast: number; passed: boolean };

export type ReliabilityBin = {
  /** The tenth: 0 holds forecasts in [0; 0,1), …, 9 holds [0,9; 1]. */
  tenth: number;
  cases: number;
  /** Mean forecast of the bin (null when empty). */
  meanForecast: number | null;
  /** Share of the bin's cases that passed (null when empty). */
  passedShare: number | null;
};

export type SubjectCalibration = {
  subjectId: number;
  cases: number;
  /** null with no case. */
  brier: number | null;
  /** The base rate's Brier score (always forecasting the observed pass share): what a useful forecast beats. */
  baseBrier: number | null;
  bins: ReliabilityBin[];
};

export const TENTHS = 10;

export function tenthOf(p: number): number {
  return Math.min(TENTHS - 1, Math.max(0, Math.floor(p * TENTHS + 1e-9)));
}

export function brierScore(cases: readonly Pick<CalibrationCase, "forecast" | "passed">[]): number | null {
  if (!cases.length) return null;
  return cases.reduce((s, c) => s + (c.forecast - (c.passed ? 1 : 0)) ** 2, 0) / cases.length;
}

export function reliability(cases: readonly Pick<CalibrationCase, "forecast" | "passed">[]): ReliabilityBin[] {
  return Array.from({ length: TENTHS }, (_, tenth) => {
    const mine = cases.filter((c) => tenthOf(c.forecast) === tenth);
    return {
      tenth,
      cases: mine.length,
      meanForecast: mine.length ? mine.reduce((s, c) => s + c.forecast, 0) / mine.length : null,
      passedShare: mine.length ? mine.filter((c) => c.passed).length / mine.length : null,
    };
  });
}

/** Per subject, in the order given (the edition's exams). */
export function calibrationBySubject(
  subjectIds: readonly number[],
  cases: readonly CalibrationCase[],
): SubjectCalibration[] {
  return subjectIds.map((subjectId) => {
    const mine = cases.filter((c) => c.subjectId === subjectId);
    const base = mine.length ? mine.filter((c) => c.passed).length / mine.length : 0;
    return {
      subjectId,
      cases: mine.length,
      brier: brierScore(mine),
      baseBrier: mine.length ? brierScore(mine.map((c) => ({ forecast: base, passed: c.passed }))) : null,
      bins: reliability(mine),
    };
  });
}
