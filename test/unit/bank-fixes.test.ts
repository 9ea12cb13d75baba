// The bank findings of issue 44: a right answer refused, a stem with two right answers, a sentence that does not
// read, calculations filed under functional groups.
import { describe, expect, it } from "vitest";
import type { BankQuestion } from "~/lib/bank-rules";
import { gradeGapAnswer } from "~/lib/gap-answer";
import { BANK } from "../../seed/seed";

const question = (id: number): BankQuestion => BANK.flatMap((f) => f.questions).find((q) => q.id === id)!;
const right = (id: number, typed: string) => {
  const q = question(id);
  return gradeGapAnswer(typed, { accepted: q.accepted ?? [], measure: q.measure, tolerance: q.tolerance }).correct;
};

describe("the bank findings of issue 44", () => {
  it('a configuration is right written "(S)" as well as "S" (2379, since 2460 became a question on racemisation in issue 48), and R stays wrong', () => {
    expect(right(2379, "(S)")).toBe(true);
    expect(right(2379, "S")).toBe(true);
    expect(right(2379, "R")).toBe(false);
    expect(right(2379, "(R)")).toBe(false);
  });

  it('1466 takes "non-sense" (nonsense-mediated decay)', () => {
    expect(right(1466, "non-sense")).toBe(true);
    expect(right(1466, "missense")).toBe(false);
  });

  it("4399 asks for the planar image, so SPECT (the tomographic one, same gamma-camera) is not a second right answer", () => {
    const q = question(4399);
    expect(q.stem).toMatch(/planare/);
    expect(q.stem).toMatch(/senza ricostruzione tomografica/);
    expect(right(4399, "scintigrafia")).toBe(true);
    expect(right(4399, "SPECT")).toBe(false);
  });

  it("4416 no longer offers a choice among words (issue 48): the blank takes the energy conserved, not 'uguale'", () => {
    expect(question(4416).stem).not.toMatch(/maggiore|minore|uguale/);
    expect(right(4416, "meccanica")).toBe(true);
    expect(right(4416, "uguale")).toBe(false);
  });

  it.each([
    [2424, 211, 5, 4, "a titration: molar mass from the NaOH that neutralises the acid"],
    [2425, 210, 4, 3, "an equilibrium constant (Kc of an esterification)"],
    [2428, 203, 4, 3, "a yield (stoichiometry)"],
  ])(
    "%i is filed where its calculation is taught: topic %i, unit %i (2026/27: %i), %s",
    (id, topic, unit, unit2627) => {
      const q = question(id);
      expect({ topic: q.topic, unit: q.unit, unit2627: q.unit2627 }).toEqual({ topic, unit, unit2627 });
    },
  );
});
