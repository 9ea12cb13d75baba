import { describe, expect, it } from "vitest";
import { formatDecimal } from "~/lib/format";
import { prng } from "~/lib/prng";

const intl = (n: number, max: number, min: number) =>
  new Intl.NumberFormat("it-IT", { minimumFractionDigits: min, maximumFractionDigits: max }).format(n);
const SHAPES: [max: number, min: number][] = [
  [0, 0],
  [1, 0],
  [1, 1],
  [2, 0],
  [2, 2],
  [3, 1],
];

describe("formatDecimal", () => {
  it("writes what Intl.NumberFormat('it-IT') writes, on the awkward cases", () => {
    const awkward = [0, -0, 0.5, 2.5, -2.5, 1.005, 9.95, 99_999.95, 0.05, -0.04, 1234, 12_345, 1_234_567.891, 31];
    for (const n of [...awkward, Number.NaN, Number.POSITIVE_INFINITY, 1e-7, 1e21])
      for (const [max, min] of SHAPES) expect(formatDecimal(n, max, min), `${n} ${max} ${min}`).toBe(intl(n, max, min));
    expect(formatDecimal(12.345)).toBe("12,3");
    expect(formatDecimal(12_345.67, 2, 2)).toBe("12.345,67");
    expect(formatDecimal(1.005, 2)).toBe("1,01");
  });

  it("writes what Intl.NumberFormat('it-IT') writes, on 20,000 numbers of every size", () => {
    const random = prng(47);
    for (let i = 0; i < 20_000; i++) {
      let n = (random() - 0.3) * 10 ** Math.floor(random() * 8 - 3);
      if (i % 3 === 0) n = Math.round(n * 1000) / 1000;
      if (i % 5 === 0) n = Math.round(n * 200) / 200;
      const [max, min] = SHAPES[i % SHAPES.length]!;
      expect(formatDecimal(n, max, min), `${n} ${max} ${min}`).toBe(intl(n, max, min));
    }
  });
});
