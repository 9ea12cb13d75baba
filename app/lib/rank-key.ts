// THE ranking rule of a simulation (issue 44, point 3), pure: what orders a day and how equal days share a place.
// - An exam edition's day ranks as the real one: by section (the exams passed × the edition's section points:
//   300/200/100 in 2026/27), then the sum of the passed grades, one number (the section's points exceed any sum).
//   18 + 18 + 18 (section 300, 354) ranks above 30 + 30 + 17,8 (section 200, 260).
// - A simulation made by hand ranks by its total out of 31, as its result shows it.
// Equal keys share a position; no number a client sends (the time taken) decides an order. The grading write stores
// the key (simulation_attempts.rank_key), and the ranking pages, the CSV, the class results and the result screen
// read it, so every screen shows the same figures.
import type { ExamEdition } from "./edition.ts";
import { type SubjectGrade, subjectGrade } from "./simulation-day.ts";

export type RankedSubject = { correct: number; wrong: number; total: number };

export type RankKey = {
  /** Higher ranks first; equal keys share a position. */
  key: number;
  /** An edition's day: its section (the exams passed × the edition's points), how many passed, their grades' sum. */
  section: number | null;
  passed: number | null;
  gradesSum: number | null;
};

export function rankKey(
  result: { totale: number; subjects: readonly RankedSubject[] },
  edition: Pick<ExamEdition, "format"> | null,
): RankKey {
  if (!edition) return { key: result.totale, section: null, passed: null, gradesSum: null };
  return rankKeyOfGrades(
    result.subjects.filter((s) => s.total > 0).map((s) => subjectGrade(edition, s)),
    edition,
  );
}

/**
 * The same key from grades already known (a day's graded subjects, or the grades a student received at the real
 * sittings, issue 46): the section is the exams passed × the edition's section points, plus the passed grades' sum.
 */
export function rankKeyOfGrades(
  grades: readonly Pick<SubjectGrade, "value" | "passed">[],
  edition: Pick<ExamEdition, "format">,
): RankKey {
  const passedGrades = grades.filter((g) => g.passed);
  const passed = passedGrades.length;
  const section = passed * edition.format.sectionPoints;
  // Grades are whole numbers from the pass mark up (31 = 30 e lode): the sum is exact.
  const gradesSum = passedGrades.reduce((sum, g) => sum + g.value, 0);
  return { key: section + gradesSum, section, passed, gradesSum };
}

/**
 * Competition ranking over stored keys (ties share a position; the user id only orders rows within a tie), as the
 * grading write's SQL does it (RANK_ATTEMPTS_SQL): for rankings computed in memory (before every room has graded, a
 * class's own results).
 */
export function rankByKey<T extends { userId: number; key: number }>(rows: readonly T[]): (T & { pos: number })[] {
  const sorted = [...rows].sort((a, b) => b.key - a.key || a.userId - b.userId);
  let pos = 0;
  return sorted.map((row, i) => {
    if (i === 0 || sorted[i - 1]!.key !== row.key) pos = i + 1;
    return { ...row, pos };
  });
}

/** The share of the other participants whose key is strictly lower (100 when alone): the percentile of the spec. */
export function percentileByKey(key: number, all: readonly number[]): number {
  if (all.length <= 1) return 100;
  const below = all.filter((k) => k < key).length;
  return Math.round((below / (all.length - 1)) * 100);
}

export const RANK_TEXT = {
  section: (section: number) => `Sezione ${section}`,
  rankingScore: "Punteggio in graduatoria",
  /** "Sezione 300 · 354 punti" (an edition's day) or "18 punti" (a simulation made by hand). */
  label: (rank: Pick<RankKey, "key" | "section">) =>
    rank.section != null ? `Sezione ${rank.section} · ${formatKey(rank.key)} punti` : `${formatKey(rank.key)} punti`,
} as const;

/**
 * A ranking score in a table cell: "Sezione 300 · 354" for an edition's day (its section known), "18/31" for a
 * simulation made by hand: the same figures as the result screen.
 */
export function rankScoreText(row: { score: number; section?: number | null }): string {
  return row.section != null ? `Sezione ${row.section} · ${formatKey(row.score)}` : `${formatKey(row.score)}/31`;
}

function formatKey(key: number): string {
  return key.toLocaleString("it-IT", { maximumFractionDigits: 2 });
}
