// The one grading rule for typed answers (practice, redo, Rush, imports, the simulation room).
// Awkward cases come from the bank audit (§2.2, §2.3) and the answer-sheet rules in exam-format.md.
import { describe, expect, it } from "vitest";
import { type GapKey, gradeGapAnswer, isNumberWord, parseGapNumber, wrongAnswerHint } from "~/lib/gap-answer";

type Row = [typed: string, key: GapKey, correct: boolean, note: string];

const k = (accepted: string[], measure?: string, tolerance?: number): GapKey => ({ accepted, measure, tolerance });

const CASES: Row[] = [
  // Words: case, accents, outer spaces; spelling stays strict
  [" Mitocondrio ", k(["mitocondrio"]), true, "case and outer spaces"],
  ["perche", k(["perché"]), true, "accents ignored"],
  ["PERCHÉ", k(["perche"]), true, "accents ignored both ways"],
  ["globuli  rossi", k(["globuli rossi"]), true, "inner whitespace collapsed"],
  ["mitocondri", k(["mitocondrio"]), false, "a different word (plural not listed)"],
  ["mitocondiro", k(["mitocondrio"]), false, "a spelling error stays wrong"],
  ["sodo", k(["Na", "sodio"]), false, "a spelling error stays wrong"],
  ["", k(["x"]), false, "empty answer"],
  ["   ", k([""]), false, "blank against an empty key"],
  // Chemical formulas: sub/superscript digits equal plain digits
  ["H2O", k(["H₂O"]), true, "subscript in the key"],
  ["h₂o", k(["H2O"]), true, "subscript typed"],
  ["CO2", k(["CO₂"]), true, "formula"],
  ["na+", k(["Na⁺"]), true, "superscript charge"],
  ["sp3", k(["sp³"]), true, "hybridisation"],
  ["H2O2", k(["H₂O"]), false, "another formula"],
  // Decimal comma or point, trailing zeros
  ["0.5", k(["0,5"]), true, "decimal point"],
  ["0,50", k(["0,5"]), true, "trailing zero"],
  [",5", k(["0,5"]), true, "no leading zero"],
  ["8,00", k(["8"]), true, "audit 4004: 8,00"],
  ["44,80", k(["44,8"]), true, "audit 2024: 44,80"],
  ["4,80", k(["4,8", "24/5"]), true, "audit 3012"],
  ["68,00", k(["68"]), true, "audit 5016"],
  ["0,6", k(["0,5"]), false, "a different number"],
  ["5", k(["0,5"]), false, "order of magnitude wrong"],
  ["-3", k(["3"]), false, "sign matters"],
  ["+300", k(["300"]), true, "explicit plus"],
  ["−2", k(["-2"]), true, "unicode minus"],
  // Thousands separators
  ["3 000", k(["3000"]), true, "audit 4022: SI space"],
  ["1 000", k(["1000"]), true, "audit 4028"],
  ["1.000", k(["1000"]), true, "audit 3016: dot as thousands"],
  ["1.000.000", k(["10^6"]), true, "two groups"],
  ["1.000,5", k(["1000,5"]), true, "both marks"],
  ["1,000.5", k(["1000,5"]), true, "English both marks"],
  ["1,000", k(["1000"]), false, "the comma is the decimal mark: 1,000 is one"],
  ["10 00", k(["1000"]), false, "a space that is not a thousands group"],
  // Scientific notation
  ["6,02·10^23", k(["6,02x10^23"]), true, "middle dot"],
  ["6,02x10^23", k(["6,02·10^23"]), true, "x"],
  ["6,02 × 10^23", k(["6,02x10^23"]), true, "× with spaces"],
  ["6.02e23", k(["6,02x10^23"]), true, "e notation"],
  ["6,02E23", k(["6,02x10^23"]), true, "E notation with comma"],
  ["6,02*10^23", k(["6,02x10^23"]), true, "asterisk"],
  ["602000000000000000000000", k(["6,02x10^23"]), true, "written out"],
  ["6,02x10^22", k(["6,02x10^23"]), false, "wrong exponent"],
  ["10^6", k(["1000000"]), true, "power of ten alone"],
  ["10⁶", k(["1000000"]), true, "superscript exponent"],
  ["10³", k(["1000", "10^3"]), true, "audit 3016: 10³"],
  ["10^-3", k(["0,001"]), true, "negative exponent"],
  ["10⁻³", k(["0,001"]), true, "superscript negative exponent"],
  ["1,5x10^-4", k(["0,00015"]), true, "small number"],
  // Fractions (exam-format.md: 2/3 accepts 0,666 and 0,667 and the reverse)
  ["0,666", k(["2/3"]), true, "truncated, three decimals"],
  ["0,667", k(["2/3"]), true, "rounded, three decimals"],
  ["0.6667", k(["2/3"]), true, "four decimals"],
  ["0,67", k(["2/3"]), false, "two decimals are not enough"],
  ["0,665", k(["2/3"]), false, "a wrong third decimal"],
  ["2/3", k(["0,667"]), true, "the reverse"],
  ["2/3", k(["0,666"]), true, "the reverse, truncated"],
  ["4/6", k(["2/3"]), true, "same value, not in lowest terms"],
  ["1/16", k(["16"]), false, "audit 1023: the whole fraction is not the denominator"],
  ["1/16", k(["0,0625"]), true, "fraction against its exact decimal"],
  ["0,375", k(["3/8"]), true, "terminating decimal"],
  ["3/0", k(["3"]), false, "division by zero is not a number"],
  // Tolerance
  ["1,57", k(["1,57"], undefined, 0.01), true, "exact"],
  ["1,571", k(["1,57"], undefined, 0.01), true, "within tolerance"],
  ["1,56", k(["1,57"], undefined, 0.01), true, "at the edge"],
  ["1,55", k(["1,57"], undefined, 0.01), false, "outside tolerance"],
  ["1,571", k(["1,57"]), false, "no tolerance: exact"],
  // Units the question names, '°' and '%'
  ["45m", k(["45"], "m"), true, "audit 4002: unit joined"],
  ["45 m", k(["45"], "m"), true, "audit 4002: unit with a space"],
  ["45 M", k(["45"], "m"), false, "M is not m: a unit typed in capitals is read as typed"],
  ["45 mm", k(["45"], "m"), false, "a prefix is a factor: 45 mm is 0,045 m"],
  ["45000 mm", k(["45"], "m"), true, "a prefix is a factor: 45000 mm is 45 m"],
  ["45 km", k(["45"], "m"), false, "another unit is a different quantity"],
  ["45m", k(["45"]), false, "a unit the question does not name"],
  ["2g", k(["2"], "g"), true, "audit 2029"],
  ["165kj", k(["165"], "kJ"), true, "audit 4040"],
  ["300 K", k(["300"], "K"), true, "audit 4034"],
  ["6kwh", k(["6"], "kWh"), true, "audit 4044"],
  ["0,1 mol/L", k(["0,1"], "mol/L"), true, "compound unit"],
  ["8 µm", k(["8"], "μm"), true, "micro sign vs Greek mu"],
  ["25 °C", k(["25"], "°C"), true, "degrees Celsius"],
  ["25°", k(["25"], "°C"), true, "degree sign alone"],
  ["109,5°", k(["109,5"]), true, "audit 2016: degree sign"],
  ["109°", k(["109,5"]), false, "audit 2016: the wrong value with a degree sign"],
  ["12,5 %", k(["12,5%"]), true, "audit 2048: percent with a space"],
  ["12,50", k(["12,5%"], "%"), true, "audit 2048: trailing zero, no percent"],
  ["0,5%", k(["0,5"]), false, "a percent sign where the key is no percentage"],
  ["1e999", k(["45"], "m"), false, "overflow is not a number"],
  ["4 %", k(["4", "4%"]), true, "audit 5018"],
  ["due", k(["2", "due"]), true, "number word when listed"],
  ["quattro", k(["4"]), false, "number word when not listed"],
];

describe("gradeGapAnswer: the awkward cases", () => {
  it.each(CASES)("%j against %j → %s (%s)", (typed, key, correct) => {
    expect(gradeGapAnswer(typed, key).correct).toBe(correct);
  });
});

describe("the form the real answer sheet wants", () => {
  it("is given when the answer was right only thanks to a lenient rule", () => {
    expect(gradeGapAnswer("44.80", k(["44,8", "44.8"]))).toEqual({ correct: true, sheetForm: "44,8" });
    expect(gradeGapAnswer("44.8", k(["44,8", "44.8"]))).toEqual({ correct: true, sheetForm: "44,8" });
    expect(gradeGapAnswer("45 m", k(["45"], "m"))).toEqual({ correct: true, sheetForm: "45" });
    expect(gradeGapAnswer("3 000", k(["3000"]))).toEqual({ correct: true, sheetForm: "3000" });
    expect(gradeGapAnswer("6.02e23", k(["6,02x10^23"]))).toEqual({ correct: true, sheetForm: "6,02x10^23" });
  });
  it("is absent when the answer is written as on the sheet", () => {
    expect(gradeGapAnswer("44,8", k(["44,8"])).sheetForm).toBeNull();
    expect(gradeGapAnswer("0,667", k(["2/3"])).sheetForm).toBeNull();
    expect(gradeGapAnswer("Mitocondrio", k(["mitocondrio"])).sheetForm).toBeNull();
    expect(gradeGapAnswer("0,6", k(["0,5"])).sheetForm).toBeNull();
  });
});

describe("parseGapNumber", () => {
  it("reads numbers and refuses words", () => {
    expect(parseGapNumber("6,02·10^23")!.value).toBeCloseTo(6.02e23, -10);
    // One reading (issue 44): dots in groups of three are thousands, never a decimal point as well.
    expect(parseGapNumber("1.000")!.value).toBe(1000);
    expect(parseGapNumber("1.5")!.value).toBe(1.5);
    expect(parseGapNumber("mitocondrio")).toBeNull();
    expect(parseGapNumber("sp3")).toBeNull();
    expect(parseGapNumber("h2o")).toBeNull();
    expect(parseGapNumber("1,2,3")).toBeNull();
  });
});

describe("numbers in words (issue 30: the sheet wants digits)", () => {
  it("are never a number, and the summary says to write digits when the key is a number", () => {
    expect(gradeGapAnswer("sei", k(["6"])).correct).toBe(false);
    expect(gradeGapAnswer("settantacinque", k(["75"], "%")).correct).toBe(false);
    expect(wrongAnswerHint("sei", k(["6"]))).toBe("il numero in cifre");
    expect(wrongAnswerHint("Trenta", k(["30"], "%"))).toBe("il numero in cifre");
    expect(wrongAnswerHint("sei", k(["mitocondrio"]))).toBeNull();
    expect(wrongAnswerHint("7", k(["6"]))).toBeNull();
    expect(isNumberWord("ventuno")).toBe(true);
    expect(isNumberWord("mitosi")).toBe(false);
    expect(isNumberWord("settembre")).toBe(false);
  });
});
