// Gap-fill (completamento) answers: the ONE grading rule used by practice, redo, Rush, imports and the
// simulation room. Stored answers are at most 50 characters, lowercased, whitespace collapsed, trimmed.
// Grading follows the ministry's answer-sheet rules (docs: ../shared/spec/exam-format.md):
// - words: case, accents and outer spaces are ignored; sub/superscript digits equal plain digits (H₂O = H2O);
//   a spelling error stays wrong, as on the real sheet;
// - numbers are compared as numbers, each typed number with ONE reading: decimal comma or point, thousands
//   separators ('.' or spaces; a dots-only number in groups of three is thousands, see dotsAreThousands),
//   scientific notation (6,02·10^23, 6,02x10^23, 6.02e23, 10^6, 10⁶), fractions (2/3 accepts 0,666 and 0,667
//   and the reverse: a decimal with at least three decimals, truncated or rounded), the question's
//   tolerance, and one trailing unit read as a factor (gap-units.ts: the question's `measure` with any SI
//   prefix, '%' for a percentage key, '°' for angles); absurd values (1e999) are never a number.
import { GAP_ANSWER_MAX_CHARS } from "./constants.ts";
import { type UnitSpelling, unitFactor, unitSpellings } from "./gap-units.ts";

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

/** Longer than the server stores (GAP_ANSWER_MAX_CHARS, not the sheet's boxes: older answers stay gradable). */
export function gapAnswerTooLong(text: string): boolean {
  return normaliseGapAnswer(text).length > GAP_ANSWER_MAX_CHARS;
}

/** Pasting into the boxes strips every whitespace character (spec section 5) and keeps what fits `boxes`. */
export function pastedGapText(text: string, boxes: number = GAP_ANSWER_MAX_CHARS): string {
  return text.replace(/\s+/g, "").toLowerCase().slice(0, boxes);
}

/** The boxes left on the sheet for a typed answer (never below 0): the input's count-down. */
export function gapBoxesLeft(text: string, boxes: number): number {
  return Math.max(0, boxes - text.replace(/\s+$/, "").length);
}

// --- Numbers ---

export type ParsedNumber = {
  /** The one value the text means: a typed number has one reading, never two (issue 44). */
  value: number;
  /** A plain decimal: how many decimals it was written with (for the fraction rule); null otherwise. */
  decimals: number | null;
  fraction: boolean;
};

/**
 * The Italian reading of a number written with dots only (exam-format.md): groups of exactly three digits after a
 * first group of 1-3 digits that is not 0 are thousands ("1.500" = 1500, "45.000", "1.500.000"); any other dot is a
 * decimal point ("1.5", "12.34", "0.667", "0.500"). `digits` has no sign.
 */
export function dotsAreThousands(digits: string): boolean {
  return /^[1-9]\d{0,2}(\.\d{3})+$/.test(digits);
}

/**
 * A plain number: digits with an optional sign, decimal comma/point and thousands separators. A mantissa
 * (`thousands` false) has no thousands separators: its dot is always a decimal point.
 */
function plainNumber(raw: string, thousands = true): { value: number; decimals: number } | null {
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
    return { value: sign * Number(`${intPart || "0"}.${frac || "0"}`), decimals: frac.length };
  };
  if (dots === 0 && commas === 0) return { value: sign * Number(s), decimals: 0 };
  if (dots && commas) {
    // Both: the last one is the decimal mark, the other groups thousands (1.000,5 or 1,000.5).
    const decimalMark = s.lastIndexOf(",") > s.lastIndexOf(".") ? "," : ".";
    const group = decimalMark === "," ? "." : ",";
    const [intPart, frac = "", ...rest] = s.split(decimalMark);
    if (rest.length || !new RegExp(`^\\d{1,3}(\\${group}\\d{3})*$`).test(intPart!)) return null;
    return make(intPart!.split(group).join(""), frac);
  }
  if (commas) {
    // The comma is the Italian decimal mark (the sheet's); "1,000" is one, not a thousand.
    if (commas > 1) return null;
    const [intPart, frac] = s.split(",");
    return make(intPart!, frac!);
  }
  // Dots only: one reading (dotsAreThousands), never both.
  if (thousands && dotsAreThousands(s)) return make(s.replace(/\./g, ""), "");
  if (dots > 1) return null;
  const [intPart, frac] = s.split(".");
  return make(intPart!, frac!);
}

/**
 * No answer on the sheet is bigger than 10^100 or a non-zero value smaller than 10^-100: beyond that (1e999,
 * 10^999) a number overflows to Infinity or 0, and Infinity would match every key within "tolerance".
 */
const MAX_EXPONENT = 99;
const MAX_MAGNITUDE = 1e100;

function isSaneNumber(v: number): boolean {
  return Number.isFinite(v) && Math.abs(v) <= MAX_MAGNITUDE && (v === 0 || Math.abs(v) >= 1 / MAX_MAGNITUDE);
}

function sane(n: ParsedNumber): ParsedNumber | null {
  return isSaneNumber(n.value) ? n : null;
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

  // A fraction's sides read as plain numbers do: "2.250/1.000" is 2250/1000, nothing else.
  const frac = /^([+-]?[\d.,]+)\/([+-]?[\d.,]+)$/.exec(s);
  if (frac) {
    const a = plainNumber(frac[1]!);
    const b = plainNumber(frac[2]!);
    if (!a || !b || b.value === 0) return null;
    return sane({ value: a.value / b.value, decimals: null, fraction: true });
  }

  const exponent = (e: string) => (/^[+-]?\d{1,3}$/.test(e) && Math.abs(Number(e)) <= MAX_EXPONENT ? Number(e) : null);
  const sci = /^(?:([+-]?[\d.,]+)[x×·*])?10\^\(?([+-]?\d+)\)?$/.exec(s);
  if (sci) {
    const e = exponent(sci[2]!);
    // A mantissa has no thousands separators: "1.095x10^-1" is 0,1095, never 109,5.
    const m = sci[1] === undefined ? { value: 1 } : plainNumber(sci[1], false);
    if (e === null || !m) return null;
    return sane({ value: m.value * 10 ** e, decimals: null, fraction: false });
  }
  const eNotation = /^([+-]?[\d.,]+)e([+-]?\d+)$/.exec(s);
  if (eNotation) {
    const e = exponent(eNotation[2]!);
    const m = plainNumber(eNotation[1]!, false);
    if (e === null || !m) return null;
    return sane({ value: m.value * 10 ** e, decimals: null, fraction: false });
  }
  const plain = plainNumber(s);
  return plain ? sane({ value: plain.value, decimals: plain.decimals, fraction: false }) : null;
}

/** A reading of a typed answer: the number's text and what a unit typed after it multiplies it by. */
type Reading = { t: string; factor: number };

/**
 * The ways to read a typed answer as a number with at most ONE trailing unit the key allows (gap-units.ts):
 * the text as it is, and the text before each allowed unit it ends with, with that unit's factor.
 */
function unitReadings(text: string, spellings: readonly UnitSpelling[]): Reading[] {
  const base = text.normalize("NFC").replace(/\s+/g, " ").trim();
  const out: Reading[] = [{ t: base, factor: 1 }];
  for (let i = base.length - 1; i > 0; i--) {
    const head = base.slice(0, i).trim();
    if (!/[\d)]$/.test(head)) continue;
    const factor = unitFactor(base.slice(i), spellings);
    if (factor !== null) out.push({ t: head, factor });
  }
  return out;
}

/** The number a reading stands for, or null when it is not a number. */
function readingNumber(reading: Reading): ParsedNumber | null {
  const n = parseGapNumber(reading.t);
  if (!n) return null;
  if (reading.factor === 1) return n;
  // A converted decimal no longer has the decimals it was written with: the fraction rule does not apply.
  return sane({ value: n.value * reading.factor, decimals: null, fraction: false });
}

/** Rounding noise of binary floating point, relative to the KEY (never to the typed value, which a cheat picks). */
const EPSILON = 1e-9;

function numbersMatch(given: ParsedNumber, key: ParsedNumber, tolerance: number): boolean {
  const [g, k] = [given.value, key.value];
  const noise = EPSILON * Math.abs(k);
  if (Math.abs(g - k) <= tolerance + noise) return true;
  // A fraction against a decimal of at least three decimals, truncated or rounded (2/3 = 0,666 = 0,667):
  // exactly those two, so 1/4 is 0,250 but never 0,249 or 0,251.
  const decimalSide =
    given.fraction && key.decimals !== null ? "key" : key.fraction && given.decimals !== null ? "given" : null;
  if (!decimalSide) return false;
  const [decimal, fraction, places] = decimalSide === "key" ? [k, g, key.decimals!] : [g, k, given.decimals!];
  return places >= 3 && places <= 12 && fractionWrittenAs(fraction, places).some((x) => Math.abs(x - decimal) <= 1e-12);
}

/** A fraction's value with `places` decimals, truncated and rounded (half away from zero). */
function fractionWrittenAs(value: number, places: number): number[] {
  const scale = 10 ** places;
  const scaled = Math.abs(value) * scale;
  // 1e-6 absorbs binary noise (0,57 × 100 = 56,99999…) without moving a real digit.
  const truncated = Math.floor(scaled + 1e-6);
  const rounded = Math.floor(scaled + 0.5 + 1e-6);
  return [truncated, rounded].map((n) => (Math.sign(value) * n) / scale);
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
  // Words (and numbers typed exactly as listed: "44.8" listed beside "44,8" is still lenient, the sheet wants 44,8).
  if (accepted.some((a) => gapComparisonKey(a) === given)) {
    const sheet = sheetFormOf(key.accepted);
    const lenient = readsAsNumber(text) && !isSheetNumberForm(text) && isSheetNumberForm(sheet);
    return { correct: true, sheetForm: lenient ? sheet : null };
  }
  // Numbers, with an optional unit the question allows.
  const tolerance = key.tolerance && Number.isFinite(key.tolerance) && key.tolerance > 0 ? key.tolerance : 0;
  const spellings = unitSpellings(
    key.measure,
    accepted.some((a) => a.includes("%")),
  );
  const candidates = unitReadings(text, spellings)
    .map((r) => ({ t: normaliseGapAnswer(r.t), n: readingNumber(r) }))
    .filter((c): c is { t: string; n: ParsedNumber } => c.n !== null);
  if (!candidates.length) return { correct: false, sheetForm: null };
  for (const a of accepted) {
    const keyNumbers = unitReadings(a, spellings)
      .map(readingNumber)
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
export function sheetFormOf(accepted: readonly string[]): string {
  return accepted.find((a) => isSheetNumberForm(a)) ?? accepted[0] ?? "";
}

/**
 * THE verdict on a typed answer, one for every path (practice, redo, Rush, the simulation room, imported attempts):
 * null for a blank, else gradeGapAnswer on the answer's stored form (normaliseGapAnswer), so the text a verdict is
 * given on is the text the server keeps. (The room once graded the raw socket text, practice the stored form: "45 M"
 * was wrong in one and right in the other.)
 */
export function gapVerdict(text: string | null | undefined, key: GapKey): boolean | null {
  const stored = text == null ? "" : normaliseGapAnswer(text);
  return stored ? gradeGapAnswer(stored, key).correct : null;
}

/** True when the typed answer is right for the question (gapVerdict; a blank is not). */
export function gapAnswerMatches(
  text: string,
  accepted: readonly string[],
  options: Omit<GapKey, "accepted"> = {},
): boolean {
  return gapVerdict(text, { accepted, ...options }) === true;
}

// --- Number words: the sheet wants digits (issue 30). "sei" is never 6: the bank lists no number word, the
// grader reads none, and the summary tells the student to write digits. ---

const NUMBER_WORD_RE =
  /^(?:zero|un[oa]?|due|tr[eé]|quattro|cinque|sei|sette|otto|nove|dieci|undici|dodici|tredici|quattordici|quindici|sedici|diciassette|diciotto|diciannove|vent[iu]?|trent[ao]?|quarant[ao]?|cinquant[ao]?|sessant[ao]?|settant[ao]?|ottant[ao]?|novant[ao]?|cento|mille|mila|milioni?)+$/;

/** True for an Italian number written in words ("sei", "trenta", "settantacinque", "due mila"). */
export function isNumberWord(text: string): boolean {
  const s = gapComparisonKey(text).replace(/[\s'-]+/g, "");
  return s.length > 0 && NUMBER_WORD_RE.test(s);
}

/** An accepted form that is a number (a trailing '%' or '°' aside): the bank's rules and the summary's hint. */
export function readsAsNumber(accepted: string): boolean {
  return parseGapNumber(accepted.replace(/[%°]\s*$/, "")) !== null;
}

/** What the summary says after "scrivi" when a number was written in words. */
export const DIGITS_HINT = "il numero in cifre";

/** The summary's hint for a wrong answer: digits, when a number key was answered with a number in words. */
export function wrongAnswerHint(text: string, key: GapKey): string | null {
  if (!isNumberWord(text)) return null;
  const numeric = key.accepted.some(readsAsNumber);
  return numeric ? DIGITS_HINT : null;
}
