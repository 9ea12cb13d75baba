// Class results of a finished simulation: pure helpers (averages per subject on the 0-31 scale, the
// distribution of total scores, the CSV export), shared by the server and the teacher's screen.
import { toCsv } from "./csv";
import type { SubjectGrade } from "./simulation-day.ts";

export type SubjectScore = { id: number; name: string; score31: number };

/** Bands of the 0-31 scale for the distribution: 0-4, 5-9, ..., 25-31 (the last one is wider). */
export const SCORE_BANDS = [
  { from: 0, to: 4 },
  { from: 5, to: 9 },
  { from: 10, to: 14 },
  { from: 15, to: 19 },
  { from: 20, to: 24 },
  { from: 25, to: 31 },
] as const;

/** How many totals fall in each band (a total is floored: 24.9 counts in 20-24; negatives in 0-4). */
export function scoreDistribution(totals: readonly number[]) {
  const counts = SCORE_BANDS.map((b) => ({ label: `${b.from}-${b.to}`, from: b.from, to: b.to, count: 0 }));
  for (const total of totals) {
    const t = Math.min(31, Math.max(0, Math.floor(total)));
    counts.find((b) => t >= b.from && t <= b.to)!.count++;
  }
  return counts;
}

/** Average score (0-31, one decimal) per subject over the attempts, in the order subjects first appear. */
export function subjectAverages(results: readonly (readonly SubjectScore[])[]) {
  const acc = new Map<number, { name: string; sum: number; n: number }>();
  for (const subjects of results) {
    for (const s of subjects) {
      const row = acc.get(s.id) ?? { name: s.name, sum: 0, n: 0 };
      row.sum += s.score31;
      row.n++;
      acc.set(s.id, row);
    }
  }
  return [...acc].map(([id, r]) => ({
    subjectId: id,
    name: r.name,
    average: Math.round((r.sum / r.n) * 10) / 10,
    count: r.n,
  }));
}

export type ClassResult = {
  classId: number;
  name: string;
  members: number;
  participants: number;
  ranking: {
    pos: number;
    userId: number;
    name: string;
    email: string;
    /** The ranking score (rankKey): an edition's day's section plus passed grades, else the total out of 31. */
    score: number;
    /** An edition's day: its section (exams passed × the edition's section points); absent otherwise. */
    section?: number | null;
    /** The total out of 31, as graded. */
    total?: number;
    perc: number;
    timeSec: number;
    /** `grade`: out of 30 in the simulation's edition (a template simulation, issue 29); absent otherwise. */
    subjects: { subjectId: number; name: string; score31: number; grade?: SubjectGrade }[];
    /** Exams passed (grade 18 or more) in an edition's simulation; absent otherwise. */
    passed?: number;
  }[];
  subjectAverages: { subjectId: number; name: string; average: number; count: number }[];
  distribution: { label: string; count: number }[];
  absent: { userId: number; name: string; email: string }[];
};

/** One CSV row per pupil of the class: the ranked ones first, then the absentees. */
export function classResultsCsv(result: ClassResult): string {
  const subjects = result.subjectAverages.map((s) => ({ id: s.subjectId, name: s.name }));
  const graded = result.ranking.some((r) => r.subjects.some((s) => s.grade));
  type Row = Record<string, string | number | null>;
  const rows: Row[] = [
    ...result.ranking.map((r) => ({
      pos: r.pos,
      name: r.name,
      email: r.email,
      present: "sì",
      score: r.score,
      section: r.section ?? null,
      perc: r.perc,
      timeSec: r.timeSec,
      ...Object.fromEntries(
        subjects.map((s) => [`s${s.id}`, r.subjects.find((x) => x.subjectId === s.id)?.score31 ?? null]),
      ),
      ...Object.fromEntries(
        subjects.map((s) => [`g${s.id}`, r.subjects.find((x) => x.subjectId === s.id)?.grade?.label ?? null]),
      ),
    })),
    ...result.absent.map((a) => ({
      pos: null,
      name: a.name,
      email: a.email,
      present: "no",
      score: null,
      section: null,
      perc: null,
      timeSec: null,
    })),
  ];
  return toCsv(rows, [
    { key: "pos", label: "Posizione" },
    { key: "name", label: "Studente" },
    { key: "email", label: "Email" },
    { key: "present", label: "Presente" },
    // An edition's day ranks by section and grades (rankKey), a simulation made by hand by its total out of 31.
    ...(graded
      ? [
          { key: "score", label: "Punteggio in graduatoria" },
          { key: "section", label: "Sezione" },
        ]
      : [{ key: "score", label: "Punteggio (0-31)" }]),
    { key: "perc", label: "Corrette %" },
    { key: "timeSec", label: "Tempo (s)" },
    ...subjects.map((s) => ({ key: `s${s.id}`, label: `${s.name} (0-31)` })),
    // Grades out of 30 only for a simulation of an exam edition (its template).
    ...(graded ? subjects.map((s) => ({ key: `g${s.id}`, label: `${s.name} (voto /30)` })) : []),
  ]);
}
