// Weighted draws (issue 18): unit shares by credits, exact 15 mc + 16 gap, no repeats, never a legacy question
// in a semestre filtro draw, shortfalls moved to the nearest units. Over 1,000 draws the average share of
// every unit is within one question of its target (the table is printed for the closing note).
import { describe, expect, it } from "vitest";
import { parseSyllabus, type BankFile } from "~/lib/bank-rules";
import { apportion, drawQuestions, mixFor, type DrawCandidate, type DrawUnit } from "~/lib/draw";
import { paperSplit } from "~/lib/edition";
import { SEED_EDITIONS } from "../../seed/editions";
import syllabusMd from "../../seed/bank/SYLLABUS.md?raw";
import { BANK } from "../../seed/seed";
import { prng } from "~/lib/prng";

const SYLLABUS = parseSyllabus(syllabusMd);
// The 2025/26 edition's split (this file checks the 2025/26 syllabus of SYLLABUS.md).
const MIX = paperSplit(SEED_EDITIONS.find((e) => e.academicYear === "2025/26")!, 2)!;
const NAMES: Record<number, string> = { 1: "Biologia", 2: "Chimica", 4: "Fisica" };

/** A pool with `perType` mc and gap questions in every unit, plus legacy questions. */
function syntheticPool(units: readonly DrawUnit[], perType = 12, legacy = 11): DrawCandidate[] {
  const out: DrawCandidate[] = [];
  let id = 1;
  for (const u of units)
    for (const type of ["mc", "gap"] as const)
      for (let i = 0; i < perType; i++) out.push({ id: id++, type, unit: u.number, legacy: false });
  for (let i = 0; i < legacy; i++) out.push({ id: id++, type: i % 2 ? "mc" : "gap", unit: null, legacy: true });
  return out;
}

function runDraws(candidates: DrawCandidate[], units: readonly DrawUnit[], times: number, seed: number) {
  const random = prng(seed);
  const legacyIds = new Set(candidates.filter((c) => c.legacy).map((c) => c.id));
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const sums = new Map<number, number>(units.map((u) => [u.number, 0]));
  let legacySeen = 0;
  let repeats = 0;
  let wrongMix = 0;
  for (let i = 0; i < times; i++) {
    const r = drawQuestions({ candidates, count: 31, mix: MIX, units, excludeLegacy: true, random });
    if (new Set(r.ids).size !== r.ids.length) repeats++;
    if (r.ids.some((id) => legacyIds.has(id))) legacySeen++;
    const mc = r.ids.filter((id) => byId.get(id)!.type === "mc").length;
    if (mc !== 15 || r.ids.length - mc !== 16) wrongMix++;
    for (const s of r.shares) sums.set(s.unit, sums.get(s.unit)! + s.drawn);
  }
  const credits = units.reduce((s, u) => s + u.credits, 0);
  const rows = units.map((u) => ({
    unit: u.number,
    credits: u.credits,
    target: (u.credits / credits) * 31,
    drawn: sums.get(u.number)! / times,
  }));
  return { rows, legacySeen, repeats, wrongMix };
}

function table(title: string, rows: { unit: number; credits: number; target: number; drawn: number }[]) {
  return [
    title,
    "unità | CFU  | target/31 | media estratta (1.000 estrazioni) | scarto",
    ...rows.map(
      (r) =>
        `U${r.unit}    | ${r.credits.toFixed(2)} | ${r.target.toFixed(2).padStart(9)} | ${r.drawn.toFixed(2).padStart(33)} | ${(r.drawn - r.target).toFixed(2)}`,
    ),
  ].join("\n");
}

describe("apportion (largest remainder)", () => {
  it("gives 31 questions in total and a 1-credit unit of 6 gets 5", () => {
    for (const [sid, units] of SYLLABUS) {
      const q = apportion(
        31,
        units.map((u) => u.credits),
        prng(sid),
      );
      expect(q.reduce((s, n) => s + n, 0)).toBe(31);
      units.forEach((u, i) => {
        expect(Math.abs(q[i]! - (u.credits / 6) * 31)).toBeLessThan(1);
        if (u.credits === 1) expect(q[i]).toBe(5);
      });
    }
  });
  it("splits smaller tests in the template's mc/gap proportion", () => {
    expect(mixFor(31, MIX)).toEqual({ mc: 15, gap: 16 });
    expect(mixFor(10, MIX)).toEqual({ mc: 5, gap: 5 });
    expect(mixFor(20, MIX)).toEqual({ mc: 10, gap: 10 });
  });
});

describe("semestre filtro draws", () => {
  for (const [sid, units] of SYLLABUS) {
    it(`${NAMES[sid]}: over 1,000 draws every unit is within one question of its target, 15 mc + 16 gap, no repeats, no legacy`, () => {
      const { rows, legacySeen, repeats, wrongMix } = runDraws(syntheticPool(units), units, 1000, 1000 + sid);
      console.log(table(`${NAMES[sid]} (banca sintetica, 12 mc + 12 gap per unità)`, rows));
      expect(legacySeen).toBe(0);
      expect(repeats).toBe(0);
      expect(wrongMix).toBe(0);
      for (const r of rows) expect(Math.abs(r.drawn - r.target)).toBeLessThan(1);
    });
  }

  it("moves the shortfall of a short unit to the nearest units and says so", () => {
    const units = SYLLABUS.get(2)!;
    // Unit 3 (1 credit: 5 questions, 2 or 3 of them gap) has a single gap question.
    const pool = syntheticPool(units).filter((c) => !(c.unit === 3 && c.type === "gap" && c.id % 12 !== 0));
    expect(pool.filter((c) => c.unit === 3 && c.type === "gap")).toHaveLength(1);
    const r = drawQuestions({ candidates: pool, count: 31, mix: MIX, units, excludeLegacy: true, random: prng(7) });
    expect(r.ids).toHaveLength(31);
    expect(new Set(r.ids).size).toBe(31);
    const short = r.shortfalls.find((s) => s.unit === 3 && s.type === "gap")!;
    expect(short.missing).toBeGreaterThan(0);
    expect(short.movedTo.reduce((s, m) => s + m.count, 0)).toBe(short.missing);
    for (const m of short.movedTo) expect([2, 4]).toContain(m.unit);
  });

  it("an older-format draw keeps legacy questions available", () => {
    const units = SYLLABUS.get(1)!;
    const legacyOnly = syntheticPool(units, 0, 20);
    const r = drawQuestions({ candidates: legacyOnly, count: 10, units: [], excludeLegacy: false, random: prng(3) });
    expect(r.ids).toHaveLength(10);
    const none = drawQuestions({ candidates: legacyOnly, count: 10, units, excludeLegacy: true, random: prng(3) });
    expect(none.ids).toHaveLength(0);
    expect(none.complete).toBe(false);
  });

  it("a 10-question practice test keeps the unit mix as closely as its size allows", () => {
    const units = SYLLABUS.get(4)!;
    const r = drawQuestions({
      candidates: syntheticPool(units),
      count: 10,
      mix: mixFor(10, MIX),
      units,
      excludeLegacy: true,
      random: prng(11),
    });
    expect(r.ids).toHaveLength(10);
    for (const s of r.shares) expect(Math.abs(s.drawn - s.target)).toBeLessThan(1);
  });
});

// The shipped bank: when its files carry units, the same figures on the real questions.
const realBanks = BANK.filter((b: BankFile) => (b.units ?? []).length > 0);
describe.runIf(realBanks.length > 0)("draws from the shipped bank", () => {
  for (const b of realBanks) {
    it(`${b.subject.name}: 1,000 draws within one question of every unit's target, no legacy`, () => {
      const candidates = b.questions.map((q) => ({
        id: q.id,
        type: q.type,
        unit: q.unit ?? null,
        legacy: q.legacy === true,
      }));
      const { rows, legacySeen, repeats } = runDraws(candidates, b.units!, 1000, b.subject.id);
      console.log(table(`${b.subject.name} (banca del seed, ${b.questions.length} domande)`, rows));
      expect(legacySeen).toBe(0);
      expect(repeats).toBe(0);
      for (const r of rows) expect(Math.abs(r.drawn - r.target)).toBeLessThan(1);
    });
  }
});
