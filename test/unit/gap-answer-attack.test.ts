// The grader against a cheat (issue 28): every numeric completamento key of the shipped bank, the near
// misses a student could try (a factor of ten, the sign, one unit past the tolerance, overflow, a wrong unit
// prefix) and the other official spellings of the key. Practice, Rush, /api/grade and the room share the grader.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GapKey, gradeGapAnswer, parseGapNumber } from "~/lib/gap-answer";
import { nearMisses, numericKeyForm, officialSpellings } from "~/lib/gap-spellings";
import { type AnswerKey, isCorrect, memoJudge } from "~/lib/simulation";
import { BANK } from "../../seed/seed";

type BankGap = { id: number; key: GapKey };

const GAPS: BankGap[] = BANK.flatMap((file) =>
  file.questions
    .filter((q) => q.type === "gap")
    .map((q) => ({ id: q.id, key: { accepted: q.accepted ?? [], measure: q.measure, tolerance: q.tolerance } })),
);
const NUMERIC = GAPS.filter((g) => numericKeyForm(g.key) !== null);

const right = (typed: string, key: GapKey) => gradeGapAnswer(typed, key).correct;

describe("every numeric gap key of the bank", () => {
  it("is most of the bank's gap questions (the property below covers them)", () => {
    expect(NUMERIC.length).toBeGreaterThan(250);
  });

  it("refuses each near miss of each key", () => {
    const wrong: string[] = [];
    for (const { id, key } of NUMERIC)
      for (const miss of nearMisses(key))
        if (right(miss.typed, key)) wrong.push(`${id}: "${miss.typed}" (${miss.why})`);
    expect(wrong).toEqual([]);
  });

  it("accepts each key's other official spellings", () => {
    const refused: string[] = [];
    for (const { id, key } of NUMERIC)
      for (const typed of officialSpellings(key)) if (!right(typed, key)) refused.push(`${id}: "${typed}"`);
    expect(refused).toEqual([]);
  });

  it("never gives a right answer for any overflowing or underflowing exponent, in any notation or sign", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NUMERIC),
        fc.integer({ min: 100, max: 999 }),
        fc.constantFrom("", "-", "+"),
        fc.constantFrom("", "-"),
        fc.constantFrom("1", "9,99", "0,5", "45"),
        fc.constantFrom(
          (m: string, e: string) => `${m}e${e}`,
          (m: string, e: string) => `${m}x10^${e}`,
          (m: string, e: string) => `${m}·10^${e}`,
          (_m: string, e: string) => `10^${e}`,
        ),
        ({ key }, exponent, sign, expSign, mantissa, write) => {
          expect(right(write(`${sign}${mantissa}`, `${expSign}${exponent}`), key)).toBe(false);
        },
      ),
      { seed: 28, numRuns: 2000 },
    );
  });

  it("refuses the key scaled by any power of ten, written plainly or in scientific notation", () => {
    fc.assert(
      fc.property(fc.constantFrom(...NUMERIC), fc.integer({ min: 1, max: 8 }), fc.boolean(), ({ key }, k, up) => {
        const value = parseGapNumber(numericKeyForm(key)!.text)!.value;
        fc.pre(value !== 0);
        const scaled = value * 10 ** (up ? k : -k);
        expect(right(scaled.toExponential().replace("e+", "e"), key)).toBe(false);
        expect(right(String(scaled).replace(".", ","), key)).toBe(false);
      }),
      { seed: 28, numRuns: 2000 },
    );
  });
});

describe("the cheats of the report (issue 28)", () => {
  const k = (accepted: string[], measure?: string, tolerance?: number): GapKey => ({ accepted, measure, tolerance });
  it.each([
    ["1e999", k(["45"], "m")],
    ["10^999", k(["45"], "m")],
    ["-1x10^999", k(["-212"], "kJ/mol", 0.5)],
    ["1e-999", k(["0,00015"])],
    ["2e-19", k(["1,6x10^-19"])],
    ["45 mm", k(["45"], "m")],
    ["0,1 mM", k(["0,1"], "M")],
    ["0,1 mm", k(["0,1"], "M")],
    ["0,5%", k(["0,5"])],
    ["45 M", k(["45"], "m")],
    ["18", k(["0,18", "18%"])],
  ])("%j is wrong for %j", (typed, key) => {
    expect(right(typed, key)).toBe(false);
  });

  it.each([
    ["45000 mm", k(["45"], "m")],
    ["0,045 km", k(["45"], "m")],
    ["100 mM", k(["0,1"], "M")],
    ["100 mm", k(["0,1"], "M")],
    ["0,1 m", k(["0,1"], "M")],
    ["18%", k(["0,18", "18%"])],
    ["0,18", k(["0,18", "18%"])],
    ["1,6e-19", k(["1,6x10^-19"])],
    ["1500 ml", k(["1,5"], "L")],
  ])("%j is right for %j (the prefix is a factor)", (typed, key) => {
    expect(right(typed, key)).toBe(true);
  });

  it("the simulation room's grading refuses 1e999 on every numeric key of the bank", () => {
    for (const { id, key } of NUMERIC) {
      const roomKey: AnswerKey = {
        id,
        type: "gap",
        options: null,
        correctIndex: null,
        ...key,
        accepted: [...key.accepted],
      };
      for (const typed of ["1e999", "10^999", "-1x10^999"]) expect(isCorrect(roomKey, typed)).toBe(false);
    }
  });
});

describe("the room's memo of verdicts (memoJudge, issue 31)", () => {
  const KEYS: AnswerKey[] = BANK.flatMap((file) =>
    file.questions.map((q) =>
      q.type === "gap"
        ? {
            id: q.id,
            type: "gap" as const,
            options: null,
            correctIndex: null,
            accepted: [...(q.accepted ?? [])],
            measure: q.measure,
            tolerance: q.tolerance,
          }
        : {
            id: q.id,
            type: "mc" as const,
            options: [...(q.options ?? [])],
            correctIndex: q.correct ?? null,
            accepted: null,
          },
    ),
  );

  it("gives isCorrect's verdict on every question of the bank, for its own answers, the cheats and other questions' answers", () => {
    expect(KEYS.length).toBeGreaterThan(900);
    const judge = memoJudge();
    // What a room meets: each key's right answers and near misses, overflows, blanks, and the answers that are right for
    // the neighbouring questions (a memo keyed by the answer alone would hand them over).
    const answersFor = (key: AnswerKey): string[] => {
      const own =
        key.type === "mc"
          ? (key.options ?? [])
          : [
              ...(key.accepted ?? []),
              ...(numericKeyForm({ accepted: key.accepted ?? [], measure: key.measure, tolerance: key.tolerance })
                ? nearMisses({ accepted: key.accepted ?? [], measure: key.measure, tolerance: key.tolerance }).map(
                    (m) => m.typed,
                  )
                : []),
            ];
      return [...own, "1e999", "-1x10^999", "", "   ", "A"];
    };
    const mismatches: string[] = [];
    for (let round = 0; round < 2; round++)
      for (const [i, key] of KEYS.entries()) {
        const neighbour = KEYS[(i + 1) % KEYS.length]!;
        for (const typed of [...answersFor(key), ...answersFor(neighbour), undefined]) {
          const expected = isCorrect(key, typed);
          if (judge(key, typed) !== expected) mismatches.push(`${key.id}: ${JSON.stringify(typed)} (round ${round})`);
        }
      }
    expect(mismatches).toEqual([]);
  });
});
