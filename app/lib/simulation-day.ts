// The exam day as the real one (issue 29, point 3), the pure part shared by the room, the services and the runner:
// - each candidate's own question and option order, a permutation seeded by (simulation id, user id): never stored,
//   re-derived identically on every read, so a reload or a resume keeps it; answers carry question ids and option
//   TEXT, so grading does not depend on it;
// - accommodations: a per-pupil extra-time percentage and THE deadline rule (studentWindows).
import { type ExamEdition, type ExamGrade, examGrade, rawScore } from "./edition.ts";
import { prng } from "./prng.ts";
import { type FlowSubject, subjectWindows } from "./simulation.ts";

// --- Per-candidate order ---

/** FNV-1a (32 bit) of a string: a stable seed on every runtime. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The seed of one candidate in one simulation. */
export function candidateSeed(simulationId: string, userId: number): number {
  return hashSeed(`${simulationId}:${userId}`);
}

/** A Fisher-Yates permutation of [0, n) from the seed (the same seed, the same permutation). */
export function permutation(n: number, seed: number): number[] {
  const rand = prng(seed);
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function permuted<T>(items: readonly T[], seed: number): T[] {
  return permutation(items.length, seed).map((i) => items[i]!);
}

/** One subject's questions in the candidate's order (subject position mixes in, so subjects differ). */
export function candidateQuestions<Q>(items: readonly Q[], seed: number, subjectPosition: number): Q[] {
  return permuted(items, hashSeed(`q:${seed}:${subjectPosition}`));
}

/** A multiple-choice question's options in the candidate's order. */
export function candidateOptions(options: readonly string[], seed: number, questionId: number): string[] {
  return permuted(options, hashSeed(`o:${seed}:${questionId}`));
}

// --- Accommodations ---

export const EXTRA_TIME_MAX = 100;

export const EXTRA_TIME_TEXT = {
  label: "Tempo aggiuntivo",
  none: "Nessuna",
  dsa: "+30 % (DSA)",
  disability: "+50 % (disabilità)",
  custom: "Altra percentuale",
  invalid: `Tempo aggiuntivo: serve una percentuale intera da 0 a ${EXTRA_TIME_MAX}.`,
  badge: (pct: number) => `+${pct} %`,
  practiceToggle: "Applica il tempo aggiuntivo alle esercitazioni",
  practiceHint: (pct: number) =>
    `Il tuo tempo aggiuntivo è +${pct} %: vale sempre nelle simulazioni; se lo scegli, allunga anche i timer delle esercitazioni.`,
  practiceApplied: (pct: number) => `Tempo aggiuntivo +${pct} % incluso`,
} as const;

/** The teacher's and the admin's choices; any other whole percentage 0-100 is accepted too. */
export const EXTRA_TIME_CHOICES = [
  { value: 0, label: EXTRA_TIME_TEXT.none },
  { value: 30, label: EXTRA_TIME_TEXT.dsa },
  { value: 50, label: EXTRA_TIME_TEXT.disability },
] as const;

/**
 * The one accommodation rule: a candidate's extra time is the largest of what applies (their own, set by an admin,
 * and the class memberships relevant to the simulation, set by the class's teacher); percentages never add up.
 */
export function effectiveExtraPct(...pcts: readonly (number | null | undefined)[]): number {
  return Math.min(EXTRA_TIME_MAX, Math.max(0, ...pcts.map((p) => (Number.isFinite(p) ? Number(p) : 0))));
}

/** Extra milliseconds for a subject of `timeMin` minutes: +30 % of 50′ = 15′. */
export function extraMs(timeMin: number, pct: number): number {
  return Math.round((timeMin * 60_000 * pct) / 100);
}

/** A practice timer extended by the percentage (whole seconds), or null (untimed) unchanged. */
export function extendedSeconds(totalSec: number | null, pct: number): number | null {
  return totalSec == null || totalSec <= 0 ? totalSec : Math.round(totalSec * (1 + pct / 100));
}

/**
 * THE deadline rule (as in the real exam, the extra minutes are given inside each exam): every subject of a
 * candidate with +p % lasts timeMin × (1 + p/100); breaks keep their length, so the candidate's next subject starts
 * after their own extended subject plus the break. With 0 % it is exactly the common plan (subjectWindows).
 */
export function studentFlow<F extends FlowSubject>(flow: readonly F[], pct: number): F[] {
  if (!pct) return [...flow];
  return flow.map((s) => ({ ...s, timeMin: s.timeMin + extraMs(s.timeMin, pct) / 60_000 }));
}

export function studentWindows(flow: readonly FlowSubject[], startTime: number, pct: number) {
  return subjectWindows(studentFlow(flow, pct), startTime);
}

/** How many of a candidate's subjects are over at `now` (their end plus the grace has passed). */
export function closedCount(windows: readonly { endsAt: number }[], now: number, graceMs: number): number {
  let n = 0;
  while (n < windows.length && now >= windows[n]!.endsAt + graceMs) n++;
  return n;
}

/** Every instant at which some candidate's subject ends (plus the grace), sorted: when a room's alarm must run. */
export function roomDeadlines(
  flow: readonly FlowSubject[],
  startTime: number,
  pcts: Iterable<number>,
  graceMs: number,
) {
  const set = new Set<number>();
  for (const pct of new Set([0, ...pcts]))
    for (const w of studentWindows(flow, startTime, pct)) set.add(w.endsAt + graceMs);
  return [...set].sort((a, b) => a - b);
}

// --- Grades of an edition's exam day ---

/** A subject's grade out of 30 in the edition's rule: "24/30", "30 e lode", "17,8/30 — non superato". */
export type SubjectGrade = {
  /** The grade as recorded (31 = 30 e lode; unrounded below the pass mark): what "best" compares. */
  value: number;
  label: string;
  passed: boolean;
  lode: boolean;
  text: string;
};

export function subjectGrade(
  edition: Pick<ExamEdition, "format">,
  subject: { correct: number; wrong: number; total: number },
): SubjectGrade {
  const blank = Math.max(0, subject.total - subject.correct - subject.wrong);
  const raw = rawScore(edition, { right: subject.correct, wrong: subject.wrong, blank });
  return asSubjectGrade(examGrade(edition, raw, subject.total));
}

function asSubjectGrade(g: ExamGrade): SubjectGrade {
  return {
    value: g.grade,
    label: g.label,
    passed: g.passed,
    lode: g.lode,
    text: g.passed ? g.label : `${g.label} — non superato`,
  };
}

/** The result with each subject's grade (an edition's simulation); the scores stay as they are. */
export function withGrades<R extends { subjects: { correct: number; wrong: number; total: number }[] }>(
  result: R,
  edition: Pick<ExamEdition, "format"> | null,
): R & { subjects: (R["subjects"][number] & { grade?: SubjectGrade })[] } {
  if (!edition) return result;
  return { ...result, subjects: result.subjects.map((s) => ({ ...s, grade: subjectGrade(edition, s) })) };
}

/** A grade as the student received it (issue 46: 24, 31 = 30 e lode, 17,8), read by the same rule as a graded day's. */
export function reportedGrade(edition: Pick<ExamEdition, "format">, value: number): SubjectGrade {
  return asSubjectGrade(examGrade(edition, value));
}

/**
 * THE rule of the best grade across sittings (exam-format.md, 2026/27: the best passing grade counts automatically): a
 * passed grade beats any failed one; among equals, the higher value.
 */
export function betterGrade(best: SubjectGrade | null, g: SubjectGrade): SubjectGrade {
  if (!best || (g.passed && !best.passed) || (g.passed === best.passed && g.value > best.value)) return g;
  return best;
}

/**
 * One exam subject's grade over an edition's official-format simulations (issue 29, point 5): as across the two
 * real sittings, the best PASSING grade counts; with none passed, the best grade so far (not valid).
 */
export type BestGrade = {
  subjectId: number;
  name: string;
  /** The grade that counts (passed), or the best failed one; null: no simulation of this subject yet. */
  grade: SubjectGrade | null;
  /** How many graded simulations had this subject. */
  sat: number;
};

export function bestGrades(
  edition: Pick<ExamEdition, "format">,
  attempts: readonly {
    subjects: readonly { id: number; name: string; correct: number; wrong: number; total: number }[];
  }[],
): BestGrade[] {
  return edition.format.subjects.map((subject) => {
    let best: SubjectGrade | null = null;
    let name = subject.name ?? "";
    let sat = 0;
    for (const attempt of attempts) {
      const s = attempt.subjects.find((x) => x.id === subject.subjectId);
      if (!s || s.total <= 0) continue;
      sat++;
      name = s.name || name;
      best = betterGrade(best, subjectGrade(edition, s));
    }
    return { subjectId: subject.subjectId, name, grade: best, sat };
  });
}
