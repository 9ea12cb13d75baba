// Gap-fill (completamento) answers: the ONE grading rule used by practice, redo, Rush, imports and the
// simulation room. Stored answers are at most 50 characters, lowercased, whitespace collapsed, trimmed.
// Grading follows the ministry's answer-sheet rules (docs: ../shared/spec/exam-format.md):
// - words: case, accents and outer spaces are ignored; sub/superscript digits equal plain digits (H₂O = H2O);
//   a spelling error stays wrong, as on the real sheet;
// - numbers are compared as numbers: decimal comma or point, thousands separators ('.' or spaces),
//   scientific notation (6,02·10^23, 6,02x10^23, 6.02e23, 10^6, 10⁶), fractions (2/3 accepts 0,666 and 0,667
//   and the reverse: a decimal with at least three decimals, truncated or rounded), the question's
//   tolerance, and a trailing unit when it is the question's own (`measure`), '°' or '%'.
import { GAP_BOXES_QUIZ } from "./constants.ts";

/** What grading needs from a gap question (the bank's `accepted`, `measure`, `tolerance`). */
export type GapKey = {
  accepted: readonly string[];
  /** The unit printed after the blank ("m/s"); a student may type it after the number. */
  measure?: string | null;
  /** Absolute tolerance for numeric answers (0 or absent: exact). */
  tolerance?: number | null;
};

export type GapGrade = {
  correct: boolean;
  /**
   * Set when the answer is right only because the grader was lenient (a decimal point, a thousands
   * separator, a unit typed in, scientific notation written another way...): the form the real answer
   * sheet wants, to show in the feedback ("all'esame scrivi 44,8"). null otherwise.
   */
  sheetForm: string | null;
};

/** The stored form of a typed answer: lowercased, inner whitespace collapsed, trimmed. */
export function normaliseGapAnswer(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

const SUB_SUPER: Record<string, string> = {
  "₀": "0",
  "₁": "1",
  "₂": "2",
  "₃": "3",
  "₄": "4",
  "₅": "5",
  "₆": "6",
  "₇": "7",
  "₈": "8",
  "₉": "9",
  "₊": "+",
  "₋": "-",
  "⁰": "0",
  "¹": "1",
  "²": "2",
  "³": "3",
  "⁴": "4",
  "⁵": "5",
  "⁶": "6",
  "⁷": "7",
  "⁸": "8",
  "⁹": "9",
  "⁺": "+",
  "⁻": "-",
};
const SUB_SUPER_RE = /[₀-₉₊₋⁰¹²³⁴-⁹⁺⁻]/g;
const SUPER_RUN_RE = /[⁻⁺]?[⁰¹²³⁴-⁹]+/g;

/** The comparison form of words: the stored form without accents (é → e), sub/superscripts as plain characters. */
export function gapComparisonKey(text: string): string {
  return normaliseGapAnswer(text)
    .replace(SUB_SUPER_RE, (c) => SUB_SUPER[c] ?? c)
    .replace(/[\u2212\u2013]/g, "-")
    .normalize("NFD")
    .replace(/\p{M}/gu, "");
}

export function gapAnswerTooLong(text: string): boolean {
  return normaliseGapAnswer(text).length > GAP_BOXES_QUIZ;
}

/** Pasting into the boxes strips every whitespace character (spec section 5). */
export function pastedGapText(text: string): string {
  return text.replace(/\s+/g, "").toLowerCase().slice(0, GAP_BOXES_QUIZ);
}

// --- Numbers ---

export type ParsedNumber = {
  /** Every value the text can mean ("1.000" is 1000 in Italian and 1 in English notation). */
  values: number[];
  /** A plain decimal: how many decimals it was written with (for the fraction rule); null otherwise. */
  decimals: number | null;
  fraction: boolean;
};

/** Compact form for measures and trailing units: lowercase, no spaces, no accents, µ/μ as u. */
function unitKey(text: string): string {
  return gapComparisonKey(text).replace(/\s+/g, "").replace(/[µμ]/g, "u");
}

/** A plain number: digits with an optional sign, decimal comma/point and thousands separators. */
function plainValues(raw: string): { values: number[]; decimals: number } | null {
  let s = raw;
  let sign = 1;
  if (s.startsWith("+")) s = s.slice(1);
  else if (s.startsWith("-")) {
    sign = -1;
    s = s.slice(1);
  }
  // SI style thousands with spaces ("3 000", "1 000 000"): only digit groups of exactly three.
  if (/^\d{1,3}( \d{3})+([.,]\d+)?$/.test(s)) s = s.replace(/ /g, "");
  if (/\s/.test(s) || !/^[\d.,]+$/.test(s) || !/\d/.test(s)) return null;
  const dots = (s.match(/\./g) ?? []).length;
  const commas = (s.match(/,/g) ?? []).length;
  const make = (intPart: string, frac: string) => {
    if (!/^\d*$/.test(intPart) || !/^\d*$/.test(frac) || (intPart === "" && frac === "")) return null;
    return Number(`${intPart || "0"}.${frac || "0"}`);
  };
  const out: number[] = [];
  let decimals = 0;
  if (dots === 0 && commas === 0) {
    out.push(Number(s));
  } else if (dots && commas) {
    // Both: the last one is the decimal mark, the other groups thousands (1.000,5 or 1,000.5).
    const decimalMark = s.lastIndexOf(",") > s.lastIndexOf(".") ? "," : ".";
    const group = decimalMark === "," ? "." : ",";
    const [intPart, frac = "", ...rest] = s.split(decimalMark);
    if (rest.length || !new RegExp(`^\\d{1,3}(\\${group}\\d{3})*$`).test(intPart!)) return null;
    const v = make(intPart!.split(group).join(""), frac);
    if (v === null) return null;
    out.push(v);
    decimals = frac.length;
  } else if (commas) {
    // The comma is the Italian decimal mark (the sheet's); "1,000" is one, not a thousand.
    if (commas > 1) return null;
    const [intPart, frac] = s.split(",");
    const v = make(intPart!, frac!);
    if (v === null) return null;
    out.push(v);
    decimals = frac!.length;
  } else {
    // Dots only: thousands separators ("1.000", "1.000.000") or a decimal point ("0.5").
    if (/^[1-9]\d{0,2}(\.\d{3})+$/.test(s)) out.push(Number(s.replace(/\./g, "")));
    if (dots === 1) {
      const [intPart, frac] = s.split(".");
      const v = make(intPart!, frac!);
      if (v !== null) {
        out.push(v);
        decimals = frac!.length;
      }
    }
    if (!out.length) return null;
  }
  return { values: out.map((v) => sign * v), decimals };
}

/**
 * Parses a typed number: plain (with decimal comma/point and thousands separators), scientific
 * (m·10^e, mx10^e, m×10^e, m*10^e, 10^e, 10⁶, 6.02e23) or a fraction a/b. null when it is not a number.
 */
export function parseGapNumber(text: string): ParsedNumber | null {
  let s = normaliseGapAnswer(text)
    .replace(/[\u2212\u2013]/g, "-")
    // Superscript exponents become ^n (10⁻³ → 10^-3) before anything else.
    .replace(SUPER_RUN_RE, (run) => `^${[...run].map((c) => SUB_SUPER[c] ?? c).join("")}`)
    .replace(/\*\*/g, "^");
  // Spaces around operators carry no meaning ("6,02 x 10^23", "2 / 3").
  s = s.replace(/\s*([x×·*/^])\s*/g, "$1").replace(/\^\s*/g, "^");
  if (!s) return null;

  const frac = /^([+-]?[\d.,]+)\/([+-]?[\d.,]+)$/.exec(s);
  if (frac) {
    const a = plainValues(frac[1]!);
    const b = plainValues(frac[2]!);
    if (!a || !b) return null;
    const values = a.values.flatMap((x) => b.values.filter((y) => y !== 0).map((y) => x / y));
    return values.length ? { values, decimals: null, fraction: true } : null;
  }

  const exponent = (e: string) => (/^[+-]?\d{1,3}$/.test(e) ? Number(e) : null);
  const sci = /^(?:([+-]?[\d.,]+)[x×·*])?10\^\(?([+-]?\d+)\)?$/.exec(s);
  if (sci) {
    const e = exponent(sci[2]!);
    const m = sci[1] === undefined ? { values: [1] } : plainValues(sci[1]);
    if (e === null || !m) return null;
    return { values: m.values.map((v) => v * 10 ** e), decimals: null, fraction: false };
  }
  const eNotation = /^([+-]?[\d.,]+)e([+-]?\d+)$/.exec(s);
  if (eNotation) {
    const e = exponent(eNotation[2]!);
    const m = plainValues(eNotation[1]!);
    if (e === null || !m) return null;
    return { values: m.values.map((v) => v * 10 ** e), decimals: null, fraction: false };
  }
  const plain = plainValues(s);
  return plain ? { values: plain.values, decimals: plain.decimals, fraction: false } : null;
}

/** The typed text without a trailing unit the question allows: its `measure`, '°' or '%'. */
function withoutUnit(text: string, measure: string | null | undefined): string[] {
  const base = normaliseGapAnswer(text);
  const out = new Set<string>([base]);
  const strip = (s: string, tail: string) => {
    const compact = unitKey(s);
    return compact.endsWith(tail) && compact.length > tail.length
      ? s.slice(0, s.length - rawTailLength(s, tail)).trim()
      : null;
  };
  const tails = ["%", "°", ...(measure ? [unitKey(measure)] : [])].filter(Boolean);
  // Units may combine once: "109,5 °", "25 °c" (measure "°C"), "45 m".
  for (const first of [base, ...[...tails].map((t) => strip(base, t)).filter((x): x is string => x !== null)]) {
    out.add(first);
    for (const t of tails) {
      const s = strip(first, t);
      if (s) out.add(s);
    }
  }
  return [...out];
}

/** How many raw characters at the end of `s` make up `tail` in unitKey form (spaces and accents included). */
function rawTailLength(s: string, tail: string): number {
  for (let n = 1; n <= s.length; n++) {
    if (unitKey(s.slice(s.length - n)) === tail) return n;
  }
  return s.length;
}

const EPSILON = 1e-9;

function numbersMatch(given: ParsedNumber, key: ParsedNumber, tolerance: number): boolean {
  for (const g of given.values) {
    for (const k of key.values) {
      const scale = Math.max(1, Math.abs(g), Math.abs(k));
      if (Math.abs(g - k) <= tolerance + EPSILON * scale) return true;
      // A fraction against a decimal of at least three decimals, truncated or rounded (2/3 = 0,666 = 0,667).
      const decimalSide =
        given.fraction && key.decimals !== null ? key : key.fraction && given.decimals !== null ? given : null;
      if (decimalSide && decimalSide.decimals! >= 3 && Math.abs(g - k) < 10 ** -decimalSide.decimals! + EPSILON * scale)
        return true;
    }
  }
  return false;
}

/** The forms the real sheet accepts: a plain number with decimal comma, a fraction, m x10^e, or a word. */
function isSheetNumberForm(text: string): boolean {
  const s = normaliseGapAnswer(text);
  return /^-?\d+(,\d+)?$/.test(s) || /^-?\d+\/\d+$/.test(s) || /^-?\d+(,\d+)?x10\^-?\d+$/.test(s);
}

/** Grades a typed answer against a gap question. An empty answer is never correct. */
export function gradeGapAnswer(text: string, key: GapKey): GapGrade {
  const given = gapComparisonKey(text);
  if (!given) return { correct: false, sheetForm: null };
  const accepted = key.accepted.filter((a) => gapComparisonKey(a));
  // Words (and numbers typed exactly as listed).
  if (accepted.some((a) => gapComparisonKey(a) === given)) return { correct: true, sheetForm: null };
  // Numbers, with an optional unit the question allows.
  const tolerance = key.tolerance && key.tolerance > 0 ? key.tolerance : 0;
  const candidates = withoutUnit(text, key.measure)
    .map((t) => ({ t, n: parseGapNumber(t) }))
    .filter((c): c is { t: string; n: ParsedNumber } => c.n !== null);
  if (!candidates.length) return { correct: false, sheetForm: null };
  for (const a of accepted) {
    const keyNumbers = withoutUnit(a, key.measure)
      .map(parseGapNumber)
      .filter((n): n is ParsedNumber => n !== null);
    if (!keyNumbers.length) continue;
    const hit = candidates.find((c) => keyNumbers.some((k) => numbersMatch(c.n, k, tolerance)));
    if (hit) {
      const typedAsOnSheet = hit.t === normaliseGapAnswer(text) && isSheetNumberForm(hit.t);
      return { correct: true, sheetForm: typedAsOnSheet ? null : sheetFormOf(key.accepted) };
    }
  }
  return { correct: false, sheetForm: null };
}

/** The first accepted form that the real sheet takes as written (the bank lists it first). */
function sheetFormOf(accepted: readonly string[]): string {
  return accepted.find((a) => isSheetNumberForm(a)) ?? accepted[0] ?? "";
}

/** True when the typed answer is right for the question (see gradeGapAnswer). */
export function gapAnswerMatches(
  text: string,
  accepted: readonly string[],
  options: Omit<GapKey, "accepted"> = {},
): boolean {
  return gradeGapAnswer(text, { accepted, ...options }).correct;
}
