// Class results of a finished simulation: pure helpers (averages per subject on the 0-31 scale and the
// distribution of total scores), shared by the server and the teacher's screen.

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
  return [...acc].map(([id, r]) => ({ subjectId: id, name: r.name, average: Math.round((r.sum / r.n) * 10) / 10, count: r.n }));
}
