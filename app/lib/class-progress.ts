// A class's progress (issue 32, point 2): accuracy per syllabus unit of the default edition over the last weeks, the
// weakest units, each pupil's weekly trend and who has gone quiet. Pure and isomorphic: the server's query
// (app/server/class-progress.server.ts) feeds it rows, the teacher's screen shows what it returns.

export const PROGRESS_WEEKS = 8;
/** A pupil with no practice for this many days (or never) is listed as inactive. */
export const INACTIVE_DAYS = 7;
/** A unit needs this many answers in the window before it can be called weak. */
export const WEAK_UNIT_MIN_ANSWERS = 10;
export const WEAKEST_UNITS = 3;
/** Each half of the window needs this many answers before a trend is given. */
export const TREND_MIN_ANSWERS = 10;
/** A change of accuracy under this many percentage points is "stabile". */
export const TREND_STEADY_PP = 5;

export const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;

export type Counts = { answered: number; correct: number };

export type UnitProgress = {
  subjectId: number;
  subject: string;
  unit: number;
  title: string;
  answered: number;
  correct: number;
  /** Share right, 0-1; null with no answers. */
  accuracy: number | null;
};

export type TrendDirection = "su" | "giu" | "stabile";

export type PupilTrend = {
  /** Accuracy per week, oldest first (PROGRESS_WEEKS entries; null where the pupil answered nothing). */
  weekly: (number | null)[];
  /** Percentage points between the last half of the window and the first; null with too few answers. */
  deltaPp: number | null;
  direction: TrendDirection | null;
};

export const accuracyOf = (c: Counts): number | null => (c.answered > 0 ? c.correct / c.answered : null);

/**
 * Weekly rows (`week` 0 = the last 7 days, up to PROGRESS_WEEKS − 1) → the pupil's weekly accuracy, oldest first, and
 * the change between the older half of the window and the newer half.
 */
export function pupilTrend(rows: readonly (Counts & { week: number })[]): PupilTrend {
  const weeks: Counts[] = Array.from({ length: PROGRESS_WEEKS }, () => ({ answered: 0, correct: 0 }));
  for (const r of rows) {
    if (r.week < 0 || r.week >= PROGRESS_WEEKS) continue;
    const w = weeks[PROGRESS_WEEKS - 1 - r.week]!;
    w.answered += r.answered;
    w.correct += r.correct;
  }
  const half = PROGRESS_WEEKS / 2;
  const sum = (list: Counts[]) =>
    list.reduce((s, c) => ({ answered: s.answered + c.answered, correct: s.correct + c.correct }), {
      answered: 0,
      correct: 0,
    });
  const older = sum(weeks.slice(0, half));
  const newer = sum(weeks.slice(half));
  let deltaPp: number | null = null;
  if (older.answered >= TREND_MIN_ANSWERS && newer.answered >= TREND_MIN_ANSWERS) {
    deltaPp = Math.round((accuracyOf(newer)! - accuracyOf(older)!) * 100);
  }
  const direction: TrendDirection | null =
    deltaPp == null ? null : deltaPp >= TREND_STEADY_PP ? "su" : deltaPp <= -TREND_STEADY_PP ? "giu" : "stabile";
  return { weekly: weeks.map(accuracyOf), deltaPp, direction };
}

/** The weakest units: answered at least WEAK_UNIT_MIN_ANSWERS times, lowest accuracy first (more answers first on ties). */
export function weakestUnits(units: readonly UnitProgress[], count = WEAKEST_UNITS): UnitProgress[] {
  return units
    .filter((u) => u.answered >= WEAK_UNIT_MIN_ANSWERS)
    .sort(
      (a, b) => a.accuracy! - b.accuracy! || b.answered - a.answered || a.subjectId - b.subjectId || a.unit - b.unit,
    )
    .slice(0, count);
}

/** Whole days since the pupil's last practice at `now`; null if never. */
export function daysSince(lastActiveAt: number | null, now: number): number | null {
  return lastActiveAt == null ? null : Math.max(0, Math.floor((now - lastActiveAt) / DAY_MS));
}

export function isInactive(lastActiveAt: number | null, now: number): boolean {
  const days = daysSince(lastActiveAt, now);
  return days == null || days >= INACTIVE_DAYS;
}
