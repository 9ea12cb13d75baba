// Gap-fill answers (spec section 5): at most 50 characters, lowercased, whitespace collapsed, trimmed.
// Grading also ignores accents, as the real exam accepts standard spellings (exam-format.md).
import { GAP_BOXES_QUIZ } from "./constants.ts";

/** The stored form of a typed answer: lowercased, inner whitespace collapsed, trimmed. */
export function normaliseGapAnswer(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** The comparison form: the stored form without accents (é → e). */
export function gapComparisonKey(text: string): string {
  return normaliseGapAnswer(text).normalize("NFD").replace(/\p{M}/gu, "");
}

export function gapAnswerTooLong(text: string): boolean {
  return normaliseGapAnswer(text).length > GAP_BOXES_QUIZ;
}

/** True when the typed answer matches one of the accepted spellings. An empty answer never matches. */
export function gapAnswerMatches(text: string, accepted: readonly string[]): boolean {
  const given = gapComparisonKey(text);
  if (!given) return false;
  return accepted.some((a) => gapComparisonKey(a) === given);
}

/** Pasting into the boxes strips every whitespace character (spec section 5). */
export function pastedGapText(text: string): string {
  return text.replace(/\s+/g, "").toLowerCase().slice(0, GAP_BOXES_QUIZ);
}
