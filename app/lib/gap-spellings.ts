// The other ways to write a numeric completamento key, and the near misses a fair grader must refuse.
// Used by `npm run bank:check` (every numeric key of the shipped bank) and by the grader's property test:
// each official spelling is right, each near miss (a factor of ten, the sign, one unit past the tolerance,
// an overflow, a wrong unit prefix) is wrong.
import { dotsAreThousands, type GapKey } from "./gap-answer.ts";
import { unitForm } from "./gap-units.ts";

/** A decimal written exactly: (-1)^neg × digits × 10^exp, digits without leading zeros ("0" for zero). */
export type Decimal = { neg: boolean; digits: string; exp: number };

/** A key written as a plain decimal ("-212,3") or in scientific notation ("6,02x10^23"), or null. */
export function parseKeyDecimal(text: string): Decimal | null {
  let s = text
    .trim()
    .replace(/[\u2212\u2013]/g, "-")
    .replace(/\s+/g, "");
  // The grader's one reading of dots: "1.500" is 1500, never 1,5.
  if (dotsAreThousands(s.replace(/^[+-]/, ""))) s = s.replace(/\./g, "");
  const m = /^([+-]?)(\d+)(?:[,.](\d+))?(?:(?:x|×|·|\*)10\^\(?([+-]?\d{1,2})\)?)?$/.exec(s);
  if (!m) return null;
  const [, sign, int, frac = "", e = "0"] = m;
  const raw = `${int}${frac}`.replace(/^0+(?=\d)/, "");
  const digits = raw.replace(/^0+/, "") || "0";
  return { neg: sign === "-" && digits !== "0", digits, exp: Number(e) - frac.length };
}

/** A key written as a fraction a/b ("2/3"): its value, or null. */
export function parseKeyFraction(text: string): number | null {
  const m = /^([+-]?\d+)\/(\d+)$/.exec(text.trim());
  return m && Number(m[2]) !== 0 ? Number(m[1]) / Number(m[2]) : null;
}

/** The decimal's plain text with the given decimal mark ("212,3"), or null when it would not fit 50 boxes. */
export function plainText(d: Decimal, mark = ","): string | null {
  let int: string;
  let frac = "";
  if (d.exp >= 0) int = d.digits === "0" ? "0" : d.digits + "0".repeat(d.exp);
  else {
    const padded = d.digits.padStart(-d.exp + 1, "0");
    int = padded.slice(0, padded.length + d.exp);
    frac = padded.slice(padded.length + d.exp);
  }
  const text = `${d.neg ? "-" : ""}${int}${frac ? `${mark}${frac}` : ""}`;
  return text.length <= 50 ? text : null;
}

/** Mantissa and exponent for scientific notation: 212,3 → ["2,123", 2]. */
function scientific(d: Decimal, mark = ","): [string, number] {
  const mantissa = d.digits.length > 1 ? `${d.digits[0]}${mark}${d.digits.slice(1)}` : d.digits;
  return [`${d.neg ? "-" : ""}${mantissa}`, d.exp + d.digits.length - 1];
}

function shift(d: Decimal, by: number): Decimal {
  return { ...d, exp: d.exp + by };
}

/** Thousands groups with a separator: 12345,6 → "12.345,6" / "12 345,6" (only for integer parts of 4+ digits). */
function grouped(plain: string, sep: string): string | null {
  const m = /^(-?)(\d{4,})(,\d+)?$/.exec(plain);
  if (!m) return null;
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+$)/g, sep)}${m[3] ?? ""}`;
}

/** The first accepted form that is a number: a decimal or a fraction (words, e.g. "due", are skipped). */
export function numericKeyForm(key: GapKey): { text: string; decimal: Decimal | null; fraction: number | null } | null {
  for (const text of key.accepted) {
    const decimal = parseKeyDecimal(text);
    const fraction = decimal ? null : parseKeyFraction(text);
    if (decimal || fraction !== null) return { text, decimal, fraction };
  }
  return null;
}

/** Other ways the real sheet or a fair reader accepts for the key's number (each must grade right). */
export function officialSpellings(key: GapKey): string[] {
  const form = numericKeyForm(key);
  if (!form) return [];
  const out = new Set<string>();
  if (form.fraction !== null) {
    const v = form.fraction;
    const truncated = Math.trunc(v * 1000) / 1000;
    const rounded = Math.round(v * 1000) / 1000;
    for (const x of [truncated, rounded]) out.add(x.toFixed(3).replace(".", ","));
    return [...out];
  }
  const d = form.decimal!;
  const comma = plainText(d, ",");
  const point = plainText(d, ".");
  if (comma) {
    out.add(comma);
    out.add(comma.includes(",") ? `${comma}0` : `${comma},0`);
    const dots = grouped(comma, ".");
    const spaces = grouped(comma, " ");
    // Dots in groups of three are thousands ("1.000" is a thousand, never one: gap-answer.ts, dotsAreThousands).
    if (dots) out.add(dots);
    if (spaces) out.add(spaces);
  }
  if (point && point !== comma) out.add(point);
  if (d.digits !== "0") {
    const [mantissa, e] = scientific(d, ",");
    const [pointMantissa] = scientific(d, ".");
    out.add(`${mantissa}x10^${e}`);
    out.add(`${mantissa} x 10^${e}`);
    out.add(`${mantissa}·10^${e}`);
    out.add(`${mantissa}×10^${e}`);
    out.add(`${pointMantissa}e${e}`);
    out.add(`${pointMantissa}E${e}`);
  }
  if (key.measure && comma) {
    out.add(`${comma} ${key.measure}`);
    out.add(`${comma}${key.measure.toLowerCase()}`);
  }
  return [...out].filter((s) => s.length <= 50);
}

/** The unit of the last written digit of the key (212,3 → 0,1; 6,02x10^23 → 10^21). */
function lastDigitUnit(d: Decimal): number {
  return 10 ** d.exp;
}

/** Answers near the key that a fair grader must refuse, each with why (Italian: bank:check prints it). */
export function nearMisses(key: GapKey): Array<{ typed: string; why: string }> {
  const form = numericKeyForm(key);
  if (!form) return [];
  const out: Array<{ typed: string; why: string }> = [];
  const add = (typed: string | null, why: string) => {
    if (typed) out.push({ typed, why });
  };
  const tolerance = key.tolerance && key.tolerance > 0 ? key.tolerance : 0;
  // Overflow and underflow: never a number.
  for (const typed of ["1e999", "10^999", "-1x10^999", "1x10^999", "9,9e999", "10^-999", "1e-999"])
    add(typed, "esponente fuori scala");
  if (form.fraction !== null) {
    const v = form.fraction;
    add((Math.trunc(v * 1000) / 1000 - 0.001).toFixed(3).replace(".", ","), "frazione: terza cifra decimale sbagliata");
    add((Math.round(v * 1000) / 1000 + 0.001).toFixed(3).replace(".", ","), "frazione: terza cifra decimale sbagliata");
    if (v !== 0) add(form.text.startsWith("-") ? form.text.slice(1) : `-${form.text}`, "segno opposto");
    // A fraction's sides read as plain numbers do: "1.000/16" is 1000/16, never 1/16.
    const sides = /^([+-]?)(\d+)\/(\d+)$/.exec(form.text.trim());
    if (sides && v !== 0) {
      const [, sign, num, den] = sides;
      const [bigNum, bigDen] = [grouped(`${num}000`, "."), grouped(`${den}000`, ".")];
      add(bigNum && `${sign}${bigNum}/${den}`, "frazione: numeratore ×1000 scritto con i punti");
      add(bigDen && `${sign}${num}/${bigDen}`, "frazione: denominatore ×1000 scritto con i punti");
    }
    return out;
  }
  const d = form.decimal!;
  if (d.digits !== "0") {
    add(plainText(shift(d, 1)), "×10");
    add(plainText(shift(d, 3)), "×1000");
    add(plainText(shift(d, -3)), "÷1000");
    // The same slips written with dots, as a student unsure of a factor 1000 (mL/L, g/kg) types them: "1.500" for
    // 1,5 (a thousand and five hundred, not 1,5 with three decimals), "0.0015" for 1,5.
    const thousandFold = plainText(shift(d, 3));
    add(thousandFold && grouped(thousandFold, "."), "×1000 scritto con i punti delle migliaia");
    const timesPoint = plainText(shift(d, 3), ".");
    if (timesPoint?.includes(".")) add(timesPoint, "×1000 scritto con il punto decimale");
    // ÷1000 of 1234 is "1.234": in groups of three, that is the key itself (1234), not a slip.
    const dividedPoint = plainText(shift(d, -3), ".");
    if (dividedPoint?.includes(".") && !dotsAreThousands(dividedPoint.replace(/^-/, "")))
      add(dividedPoint, "÷1000 scritto con il punto decimale");
    add(plainText({ ...d, neg: !d.neg }), "segno opposto");
    const [mantissa, e] = scientific(d, ",");
    add(`${mantissa}x10^${e + 1}`, "esponente sbagliato di uno");
    add(`${mantissa}e${e > 0 ? e + 100 : e - 100}`, "esponente fuori scala");
  }
  // One unit of the key's last digit past the tolerance, both ways.
  const step = lastDigitUnit(d);
  const value = (d.neg ? -1 : 1) * Number(d.digits) * step;
  const past = Math.ceil((tolerance + step) / step - 1e-9) * step;
  const decimals = Math.max(0, -d.exp);
  for (const v of [value + past, value - past])
    add(v.toFixed(decimals).replace(".", ","), "una unità oltre la tolleranza");
  // The key's number with a unit it is not: another prefix of the measure, or the measure in the wrong case.
  const plain = plainText(d);
  if (key.measure && plain && d.digits !== "0") {
    const m = unitForm(key.measure);
    for (const wrong of wrongPrefixUnits(m)) add(`${plain} ${wrong}`, "prefisso dell'unità sbagliato");
  }
  if (!key.accepted.some((a) => a.includes("%")) && plain && unitForm(key.measure ?? "") !== "%")
    add(`${plain}%`, "un % che la chiave non ha");
  return out;
}

const PREFIXED = /^(m|k|c|u|n|M|G)?(mol|Osm|Eq|Pa|Hz|Bq|Sv|m|g|s|L|M|J|W|V|N|A|C|F|T)([/.].*)?$/;

/** The measure with a different prefix (m → mm, km, Mm; M → mM; mL → L, kL), or in the wrong case (m → M). */
function wrongPrefixUnits(measure: string): string[] {
  const m = PREFIXED.exec(measure);
  if (!m) return [];
  const [, own = "", base, rest = ""] = m;
  const out = ["", "m", "k", "u", "M"].filter((p) => p !== own).map((p) => `${p}${base}${rest}`);
  // Typed in capitals, a lowercase unit is another one (M is molar or mega, not metre). The other way round
  // cannot be told: the inputs lowercase what students type, so "mbq" stands for MBq.
  if (measure === measure.toLowerCase() && measure !== measure.toUpperCase()) out.push(measure.toUpperCase());
  return out;
}
