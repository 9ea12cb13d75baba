// After the sitting (issue 46, point 3), pure: the grades a student received at an edition's sittings, read by the
// edition's rules. The grade rule is examGrade's (reportedGrade), the best of two sittings betterGrade's (the best
// passing grade of each exam counts automatically), the section and the ranking score rankKeyOfGrades' (the same key
// that ranks a simulated day): no second copy of any of them. Then which exams the next sitting can still improve, and
// the weights that turn the plan for it towards them.
import { type ExamEdition, sittingStartsAt } from "./edition.ts";
import { type RankKey, rankKeyOfGrades } from "./rank-key.ts";
import { betterGrade, reportedGrade, type SubjectGrade } from "./simulation-day.ts";
import { RETAKE_FOCUS } from "./study-plan.ts";

/** Aggregates of self-reported grades are shown only over at least this many students. */
export const AGGREGATE_MIN_STUDENTS = 30;

/** One row as stored: null grade = non sostenuto. */
export type EnteredGrade = { sittingDate: string; subjectId: number; grade: number | null };

export type SittingView = {
  date: string;
  label: string;
  /** The sitting has started: grades may be entered. */
  started: boolean;
  entered: boolean;
  grades: { subjectId: number; grade: SubjectGrade | null }[];
};

/** recupero: not passed yet (passing moves the section up); miglioramento: passed below 30 e lode. */
export type Improvement = "recupero" | "miglioramento";

export type ExamBest = {
  subjectId: number;
  name: string;
  /** The grade that counts (passed), or the best failed one (not valid); null: never sat. */
  grade: SubjectGrade | null;
  /** The sitting it came from. */
  from: string | null;
  /** What the next sitting can do for this exam (null: nothing, or no sitting left). */
  improvable: Improvement | null;
  /** The most the ranking score can gain from it at the next sitting. */
  maxGain: number;
};

export type SittingResults = {
  sittings: SittingView[];
  best: ExamBest[];
  /** Section and ranking score of the best valid grades; null before any grade was entered. */
  rank: RankKey | null;
  /** The first sitting not started yet, when some grade was entered before it. */
  next: { date: string; label: string } | null;
};

export function sittingResults(
  edition: Pick<ExamEdition, "format">,
  entries: readonly EnteredGrade[],
  names: ReadonlyMap<number, string>,
  now: number,
): SittingResults {
  const f = edition.format;
  const sittings: SittingView[] = f.sittings.map((s) => {
    const rows = entries.filter((e) => e.sittingDate === s.date);
    return {
      date: s.date,
      label: s.label,
      started: sittingStartsAt(s) <= now,
      entered: rows.length > 0,
      grades: f.subjects.map(({ subjectId }) => {
        const row = rows.find((r) => r.subjectId === subjectId);
        return { subjectId, grade: row?.grade == null ? null : reportedGrade(edition, row.grade) };
      }),
    };
  });
  const anyEntered = sittings.some((s) => s.entered);
  const nextIndex = f.sittings.findIndex((s) => sittingStartsAt(s) > now);
  const lastEntered = sittings.reduce((last, s, i) => (s.entered ? i : last), -1);
  const next = anyEntered && nextIndex > lastEntered ? f.sittings[nextIndex]! : null;
  const best = f.subjects.map(({ subjectId, name }): ExamBest => {
    let grade: SubjectGrade | null = null;
    let from: string | null = null;
    for (const s of sittings) {
      const g = s.grades.find((x) => x.subjectId === subjectId)?.grade;
      if (!g) continue;
      const better = betterGrade(grade, g);
      if (better !== grade) [grade, from] = [better, s.date];
    }
    const improvable: Improvement | null = !next
      ? null
      : !grade?.passed
        ? "recupero"
        : grade.value < f.lode
          ? "miglioramento"
          : null;
    const maxGain =
      improvable === "recupero" ? f.sectionPoints + f.lode : improvable === "miglioramento" ? f.lode - grade!.value : 0;
    return { subjectId, name: names.get(subjectId) ?? name ?? "", grade, from, improvable, maxGain };
  });
  const rank = anyEntered
    ? rankKeyOfGrades(
        best.flatMap((b) => (b.grade ? [b.grade] : [])),
        edition,
      )
    : null;
  return { sittings, best, rank, next: next ? { date: next.date, label: next.label } : null };
}

/**
 * The plan's focus per exam for the next sitting: an exam still to pass weighs RETAKE_FOCUS; a passed one less the
 * higher its grade (18: 1, 30 e lode: 0,2); with no grade entered every exam weighs 1.
 */
export function focusWeights(
  edition: Pick<ExamEdition, "format">,
  results: Pick<SittingResults, "best" | "next">,
): Map<number, number> {
  const f = edition.format;
  return new Map(
    results.best.map((b) => {
      if (!results.next) return [b.subjectId, 1];
      if (!b.grade?.passed) return [b.subjectId, RETAKE_FOCUS];
      return [b.subjectId, Math.max(0.2, (f.lode - b.grade.value) / Math.max(1, f.lode - f.passMark))];
    }),
  );
}
