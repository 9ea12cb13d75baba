// Scores on the 0-31 scale (spec section 9). Pure functions, shared by the server and the seed.
import { SCORE_SCALE, WRONG_PENALTY } from "./constants.ts";

/** Attempt summary: correct/total × 31 − 0.1 per wrong (non-blank) answer, one decimal. */
export function summaryScore(correct: number, wrong: number, total: number): number {
  if (total <= 0) return 0;
  // In tenths, so that 13/20 × 31 − 0.6 = 19.55 rounds to 19.6 without float drift.
  return Math.round((correct * SCORE_SCALE * 10) / total - wrong * WRONG_PENALTY * 10) / 10;
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
