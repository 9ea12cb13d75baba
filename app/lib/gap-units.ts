// The unit a student may type after a number in a completamento answer (the real sheet wants the bare
// number: the unit is printed after the blank). A unit is read, never just dropped:
// - the question's own `measure` (factor 1); with another SI prefix it means a factor ("45 mm" is 0,045 m,
//   "0,1 mM" is 0,0001 M), so a wrong prefix is a wrong answer, not a lenient one;
// - case counts where SI says so (m is milli, M is mega or molar): a unit typed with capitals is compared as
//   typed; an all-lowercase unit (the inputs lowercase what students type) is compared in lowercase, where the
//   prefix m is read as milli;
// - '%' only where the key is a percentage: the measure itself, or ×0,01 where a listed form has it ("18%");
// - '°' only for angles and temperatures (measure °, gradi, °C, °F) or a bare key with no measure.
// Every reading strips ONE unit: "45 mm" against the measure m is never "45".

/** SI prefixes the grader reads (hecto and deca are left out: "h" is the hour, "da" reads as words). */
const PREFIX_FACTOR: Record<string, number> = {
  p: 1e-12,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  c: 1e-2,
  d: 1e-1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
};

/** Base units that take a prefix, longest first so "mol" is not read as m + "ol". */
const PREFIXABLE_BASES = ["mol", "Osm", "Pa", "Hz", "Bq", "Sv", "Gy", "Wh", "eV", "Eq", "m", "g", "s", "L", "M"]
  .concat(["J", "W", "V", "A", "N", "C", "F", "T"])
  .sort((a, b) => b.length - a.length);

const DEGREE_MEASURES = new Set(["°", "gradi", "°c", "°f"]);

const SUPERSCRIPT_DIGIT: Record<string, string> = { "²": "2", "³": "3", "¹": "1", "⁻": "-" };

/** A unit's comparison form: no spaces, µ/μ as u, ²/³ and ^2 as plain digits, · and * as '.'; case kept. */
export function unitForm(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\s+/g, "")
    .replace(/[µμ]/g, "u")
    .replace(/[²³¹⁻]/g, (c) => SUPERSCRIPT_DIGIT[c] ?? c)
    .replace(/\^/g, "")
    .replace(/[·*×]/g, ".");
}

/** `rank` orders the lowercase reading: 0 the measure itself (and %, °), 1 a lowercase prefix, 2 a capital one. */
export type UnitSpelling = { unit: string; factor: number; rank: 0 | 1 | 2 };

/** The measure split into prefix, prefixable base and the rest ("kJ/mol" → k, J, "/mol"), or null. */
function decompose(measure: string): { prefix: string; base: string; rest: string } | null {
  for (const prefix of ["", ...Object.keys(PREFIX_FACTOR)]) {
    if (!measure.startsWith(prefix)) continue;
    const tail = measure.slice(prefix.length);
    const base = PREFIXABLE_BASES.find((b) => tail.startsWith(b));
    if (!base) continue;
    const rest = tail.slice(base.length);
    // A power on the first unit (cm3, m2) would raise the prefix too: such measures are read only as written.
    if (rest === "" || rest.startsWith("/") || rest.startsWith(".")) return { prefix, base, rest };
  }
  return null;
}

/** Every unit a student may type after the number for this key, with what it multiplies the number by. */
export function unitSpellings(measure: string | null | undefined, keyIsPercentage: boolean): UnitSpelling[] {
  const out: UnitSpelling[] = [];
  const m = measure ? unitForm(measure) : "";
  if (m) out.push({ unit: m, factor: 1, rank: 0 });
  // '%' is the unit itself where the measure is '%' (12,5 %); elsewhere a listed "18%" means 0,18.
  if (keyIsPercentage && m !== "%") out.push({ unit: "%", factor: 0.01, rank: 0 });
  if (!m || DEGREE_MEASURES.has(m.toLowerCase())) out.push({ unit: "°", factor: 1, rank: 0 });
  const parts = m ? decompose(m) : null;
  if (parts) {
    const own = PREFIX_FACTOR[parts.prefix] ?? 1;
    for (const prefix of ["", ...Object.keys(PREFIX_FACTOR)]) {
      if (prefix === parts.prefix) continue;
      out.push({
        unit: `${prefix}${parts.base}${parts.rest}`,
        factor: (PREFIX_FACTOR[prefix] ?? 1) / own,
        rank: /^[MGT]$/.test(prefix) ? 2 : 1,
      });
    }
  }
  return out;
}

/**
 * The factor a typed unit stands for under these spellings, or null when it is none of them. Exact (case kept)
 * first; an all-lowercase unit is then compared in lowercase, the first spelling winning (the measure itself,
 * then lowercase prefixes before capital ones: "mm" is milli, never mega).
 */
export function unitFactor(typedUnit: string, spellings: readonly UnitSpelling[]): number | null {
  const typed = unitForm(typedUnit);
  if (!typed) return null;
  const exact = spellings.find((s) => s.unit === typed);
  if (exact) return exact.factor;
  if (typed !== typed.toLowerCase()) return null;
  const matches = spellings.filter((s) => s.unit.toLowerCase() === typed).sort((a, b) => a.rank - b.rank);
  return matches[0]?.factor ?? null;
}
