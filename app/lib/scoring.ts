// Scores on the 0-31 scale (spec section 9). Pure functions, shared by the server and the seed.
import { SCORE_SCALE, WRONG_PENALTY } from "./constants.ts";

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Attempt summary: correct/total × 31 − 0.1 per wrong (non-blank) answer, one decimal. */
export function summaryScore(correct: number, wrong: number, total: number): number {
  if (total <= 0) return 0;
  return round1((correct / total) * SCORE_SCALE - WRONG_PENALTY * wrong);
}

/** Attempt list: round(correct/total × 31). */
export function listScore(correct: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((correct / total) * SCORE_SCALE);
}

export function percentCorrect(correct: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((correct / total) * 100);
}
