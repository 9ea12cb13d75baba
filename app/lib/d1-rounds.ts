// The header of the D1 round-trip count (app/server/d1-rounds.server.ts), shared with the benchmark.
export const D1_ROUNDS_HEADER = "X-Unicum-D1-Rounds";

export type D1Rounds = { sequential: number; total: number };

/** Reads the header of a counted answer: "sequential=2; total=7". */
export function parseD1Rounds(value: string | null): D1Rounds | null {
  const m = /sequential=(\d+); total=(\d+)/.exec(value ?? "");
  return m ? { sequential: Number(m[1]), total: Number(m[2]) } : null;
}
