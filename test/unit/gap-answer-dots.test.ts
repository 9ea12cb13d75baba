// One reading of a typed number (issue 44, exam-format.md): a number typed with dots means one value, never two.
// Groups of exactly three digits after a first group of 1-3 digits that is not 0 are thousands ("1.500" = 1500);
// otherwise the dot is a decimal point ("1.5", "0.500"). A dotted number read both ways let "1.500" be right for
// 1,5 and for 1500: a student unsure of a factor 1000 (mL/L, g/kg) was always graded right.
import { describe, expect, it } from "vitest";
import { type GapKey, gradeGapAnswer, parseGapNumber, sheetFormOf } from "~/lib/gap-answer";
import { type Decimal, numericKeyForm, plainText } from "~/lib/gap-spellings";
import { BANK } from "../../seed/seed";

const k = (accepted: string[], measure?: string, tolerance?: number): GapKey => ({ accepted, measure, tolerance });
const right = (typed: string, key: GapKey) => gradeGapAnswer(typed, key).correct;

describe("a dotted number has one reading", () => {
  it('"1.500" is wrong for the key 1,5 and right for 1500', () => {
    expect(right("1.500", k(["1,5"]))).toBe(false);
    expect(right("1.500", k(["1,5"], "L"))).toBe(false);
    expect(gradeGapAnswer("1.500", k(["1500"]))).toEqual({ correct: true, sheetForm: "1500" });
  });

  it('"45.000" is wrong for 45 and right for 45000', () => {
    expect(right("45.000", k(["45"]))).toBe(false);
    expect(right("45.000", k(["45"], "m"))).toBe(false);
    expect(gradeGapAnswer("45.000", k(["45000"]))).toEqual({ correct: true, sheetForm: "45000" });
  });

  it('"2.250/1.000" reads one way only: 2250/1000 = 2,25', () => {
    expect(parseGapNumber("2.250/1.000")!.value).toBe(2.25);
    expect(gradeGapAnswer("2.250/1.000", k(["2,25"]))).toEqual({ correct: true, sheetForm: "2,25" });
    expect(right("2.250/1.000", k(["2250"]))).toBe(false);
    expect(right("2.250/1.000", k(["0,00225"]))).toBe(false);
  });

  type Row = [typed: string, key: GapKey, correct: boolean, note: string];
  const CASES: Row[] = [
    // Thousands: groups of exactly three after a first group of 1-3 digits that is not 0
    ["1.500", k(["1500"]), true, "one group of three: thousands"],
    ["1.500", k(["1,5"]), false, "never 1,5 as well"],
    ["1.500", k(["1,5"], undefined, 0.01), false, "a tolerance does not bring the decimal reading back"],
    ["45.000", k(["45"]), false, "45.000 is forty-five thousand"],
    ["45.000", k(["45000"]), true, "two-digit first group"],
    ["100.000", k(["10^5"]), true, "three-digit first group"],
    ["1.500.000", k(["1500000"]), true, "two groups"],
    ["1.500.000", k(["1,5"]), false, "two groups, never a decimal"],
    ["-1.500", k(["-1500"]), true, "a sign before the groups"],
    ["-1.500", k(["-1,5"]), false, "a sign changes nothing in the reading"],
    ["1.234", k(["1234"]), true, "any digits in the group"],
    ["1.234", k(["1,234"]), false, "not the decimal 1,234"],
    ["1.333", k(["4/3"]), false, "a fraction key against a thousands group"],
    // Otherwise the dot is a decimal point
    ["1.5", k(["1,5"]), true, "one decimal"],
    ["1.5", k(["1500"]), false, "one decimal is never thousands"],
    ["12.34", k(["12,34"]), true, "two decimals"],
    ["1.2345", k(["1,2345"]), true, "four decimals"],
    ["1234.567", k(["1234,567"]), true, "a first group of four digits: decimal point"],
    ["0.500", k(["0,5"]), true, "a first group of 0: decimal point"],
    ["0.500", k(["500"]), false, "a first group of 0 is never thousands"],
    ["0.667", k(["2/3"]), true, "the fraction rule with a decimal point"],
    ["0.0015", k(["0,0015"]), true, "small decimal"],
    ["0.0015", k(["1,5"]), false, "÷1000 with a point"],
    ["1.50", k(["1,5"]), true, "two decimals, trailing zero"],
    ["1.5000", k(["1,5"]), true, "four decimals, trailing zeros"],
    ["1.5000", k(["15000"]), false, "four digits after the dot are not a group"],
    ["1.50.000", k(["150000"]), false, "a group of two is no thousands group, and two dots are no decimal"],
    [".500", k(["0,5"]), true, "no leading digit: a decimal point"],
    // Both marks, a mantissa, a fraction's sides: as before, one reading each
    ["1.000,5", k(["1000,5"]), true, "both marks: the last is the decimal mark"],
    ["1.500x10^3", k(["1500"]), true, "a mantissa has no thousands: 1,5x10^3"],
    ["1.500x10^3", k(["1500000"]), false, "never 1500x10^3"],
    ["1.500e-3", k(["0,0015"]), true, "e notation mantissa"],
    ["3/1.000", k(["0,003"]), true, "a fraction's side in groups of three"],
    ["3/1.000", k(["3"]), false, "never 3/1"],
    ["1.5/3", k(["0,5"]), true, "a fraction's side with a decimal point"],
    // Units typed after a dotted number
    ["1.500 ml", k(["1,5"], "L"), true, "1.500 mL is 1,5 L"],
    ["1.500 L", k(["1,5"], "L"), false, "1.500 L is 1500 L"],
  ];
  it.each(CASES)("%j against %j → %s (%s)", (typed, key, correct) => {
    expect(gradeGapAnswer(typed, key).correct).toBe(correct);
  });

  it("a dotted answer that is right shows the sheet's form (comma decimals, no separators)", () => {
    expect(gradeGapAnswer("1.500", k(["1500"])).sheetForm).toBe("1500");
    expect(gradeGapAnswer("0.500", k(["0,5"])).sheetForm).toBe("0,5");
    expect(gradeGapAnswer("12.34", k(["12,34"])).sheetForm).toBe("12,34");
    expect(gradeGapAnswer("1.000.000", k(["10^6", "1000000"])).sheetForm).toBe("1000000");
  });
});

// --- The whole bank: every numeric key ×1000 and ÷1000 written with dots ---

type BankGap = { id: number; key: GapKey };
const NUMERIC: BankGap[] = BANK.flatMap((file) =>
  file.questions
    .filter((q) => q.type === "gap")
    .map((q) => ({ id: q.id, key: { accepted: q.accepted ?? [], measure: q.measure, tolerance: q.tolerance } })),
).filter((g) => numericKeyForm(g.key) !== null);

/**
 * What a string of digits, dots and an optional sign means by exam-format.md's words, written here on its own
 * (not by the grader): groups of exactly three after a first group of 1-3 digits that is not 0 are thousands;
 * otherwise one dot is a decimal point.
 */
function specReading(typed: string): number {
  if (/^-?[1-9]\d{0,2}(\.\d{3})+$/.test(typed)) return Number(typed.replace(/\./g, ""));
  if (/^-?\d*\.?\d+$/.test(typed)) return Number(typed);
  throw new Error(`not a dotted number: ${typed}`);
}

const shift = (d: Decimal, by: number): Decimal => ({ ...d, exp: d.exp + by });
/** Thousands groups with dots for an integer ("1500" → "1.500"), or null. */
const dotted = (plain: string | null) =>
  plain && /^-?\d{4,}$/.test(plain) ? plain.replace(/\B(?=(\d{3})+$)/g, ".") : null;
/** A decimal with a point and at least three decimals ("1.5" → "1.500", "45" → "45.000"). */
const threeDecimals = (plain: string | null) => {
  if (!plain) return null;
  const [int, frac = ""] = plain.split(".");
  return frac.length >= 3 ? null : `${int}.${frac.padEnd(3, "0")}`;
};

/** The dotted strings a student unsure of a factor 1000 types for a key: ×1000 and ÷1000, and the key itself. */
function dottedWritings(key: GapKey): string[] {
  const form = numericKeyForm(key)!;
  const out = new Set<string>();
  if (form.fraction !== null) {
    // A fraction's sides read the same way: "1.000/16" is 1000/16.
    const [, sign = "", num, den] = /^([+-]?)(\d+)\/(\d+)$/.exec(form.text.trim()) ?? [];
    if (num && den && num !== "0") {
      out.add(`${sign}${dotted(`${num}000`)}/${den}`);
      out.add(`${sign}${num}/${dotted(`${den}000`)}`);
    }
    return [...out];
  }
  const d = form.decimal!;
  if (d.digits === "0") return [];
  for (const scaled of [shift(d, 3), shift(d, -3), d]) {
    const point = plainText(scaled, ".");
    for (const typed of [dotted(point), point, threeDecimals(point)]) if (typed?.includes(".")) out.add(typed);
  }
  return [...out].filter((t) => t.length <= 50);
}

/** The key's value and whether a reading is the key within its tolerance (the grader's noise relative to the key). */
function keyValue(key: GapKey): number {
  const form = numericKeyForm(key)!;
  if (form.fraction !== null) return form.fraction;
  return Number(plainText(form.decimal!, ".") ?? Number.NaN);
}

function readingOf(typed: string): number {
  const [num, den] = typed.split("/");
  return den === undefined ? specReading(num!) : specReading(num!) / specReading(den);
}

describe("every numeric key of the bank, ×1000 and ÷1000 written with dots", () => {
  it("is graded right only when the one reading of the string is the key (within its tolerance)", () => {
    expect(NUMERIC.length).toBeGreaterThan(250);
    const mismatches: string[] = [];
    let wrongExpected = 0;
    let rightExpected = 0;
    for (const { id, key } of NUMERIC) {
      const value = keyValue(key);
      if (!Number.isFinite(value)) continue;
      const tolerance = key.tolerance && key.tolerance > 0 ? key.tolerance : 0;
      for (const typed of dottedWritings(key)) {
        const meant = readingOf(typed);
        const expected = Math.abs(meant - value) <= tolerance + 1e-9 * Math.abs(value);
        if (expected) rightExpected++;
        else wrongExpected++;
        const grade = gradeGapAnswer(typed, key);
        if (grade.correct !== expected)
          mismatches.push(`${id}: "${typed}" graded ${grade.correct ? "right" : "wrong"} (reads ${meant})`);
        // Right only through leniency (a dot): the feedback shows the sheet's form.
        else if (grade.correct && grade.sheetForm !== sheetFormOf(key.accepted))
          mismatches.push(`${id}: "${typed}" right without the sheet's form`);
      }
    }
    expect(mismatches).toEqual([]);
    // The property has teeth: most strings are slips of a factor 1000 (wrong), some are the key written with dots.
    expect(wrongExpected).toBeGreaterThan(500);
    expect(rightExpected).toBeGreaterThan(50);
  });

  it("grades the key written in the sheet's form right, with nothing to correct", () => {
    const refused: string[] = [];
    for (const { id, key } of NUMERIC) {
      const sheet = sheetFormOf(key.accepted);
      const grade = gradeGapAnswer(sheet, key);
      if (!grade.correct || grade.sheetForm !== null) refused.push(`${id}: "${sheet}" → ${JSON.stringify(grade)}`);
    }
    expect(refused).toEqual([]);
  });
});
