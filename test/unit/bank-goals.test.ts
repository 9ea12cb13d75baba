// Issue 48's goals for the 2026/27 pool, as `npm run bank:check` applies them: twenty papers and 440 multiple choice
// per subject, the real exam's difficulty mix per type, the one-word share, and no question asking what another
// subject's question asks. Each goal is shown failing on a bank made to miss it, and the shipped bank meets them.
import { describe, expect, it } from "vitest";
import { COVERAGE_GOALS, coverageIssues, editionCoverage } from "~/lib/bank-editions";
import { type BankFile, type BankQuestion, parseSyllabus } from "~/lib/bank-rules";
import { crossSubjectDuplicates, questionWords, similarPairs } from "~/lib/bank-similarity";
import syllabusMd from "../../seed/bank/SYLLABUS.md?raw";
import { BANK } from "../../seed/seed";

const syllabus2627 = parseSyllabus(syllabusMd, "2026/27");
const clone = (): BankFile[] => JSON.parse(JSON.stringify(BANK)) as BankFile[];
const coverage = (bank: BankFile[]) => editionCoverage(bank, syllabus2627, { mc: 21, gap: 10 }, (q) => q.unit2627);
const issueKeys = (bank: BankFile[]) => coverageIssues(coverage(bank)).map((i) => i.key);
const subject = (bank: BankFile[], id: number) => bank.find((b) => b.subject.id === id)!;
const inPool = (q: BankQuestion) => !q.legacy && q.unit2627 != null;

describe("the 2026/27 pool (issue 48)", () => {
  it("the shipped bank holds 20 papers a subject, 440 multiple choice, the mix and the one-word share", () => {
    const rows = coverage(BANK);
    expect(rows.map((r) => r.papers).every((p) => p >= COVERAGE_GOALS.papers)).toBe(true);
    expect(rows.map((r) => r.mc).every((n) => n >= COVERAGE_GOALS.mc)).toBe(true);
    expect(coverageIssues(rows).map((i) => i.message)).toEqual([]);
  });

  it("fails a subject that falls under 20 papers or 440 multiple choice", () => {
    const bank = clone();
    const fisica = subject(bank, 4);
    const mc = fisica.questions.filter((q) => q.type === "mc" && inPool(q));
    for (const q of mc.slice(0, 10)) q.unit2627 = null; // ten fewer on the syllabus
    expect(issueKeys(bank)).toEqual(expect.arrayContaining(["mc:4"]));
    expect(coverage(bank).find((r) => r.subjectId === 4)!.papers).toBeLessThan(COVERAGE_GOALS.papers);
  });

  it("fails a type whose easy, medium or hard share strays more than 5 points from 20 / 50 / 30", () => {
    const bank = clone();
    const gaps = subject(bank, 2).questions.filter((q) => q.type === "gap" && inPool(q));
    // Every hard completamento rated medium: the hard share goes to 0, the medium one far above 55 %.
    for (const q of gaps) if (q.difficulty === 5) q.difficulty = 4;
    expect(issueKeys(bank)).toEqual(expect.arrayContaining(["difficulty:2:gap:2", "difficulty:2:gap:1"]));
    expect(issueKeys(bank).filter((k) => k.startsWith("difficulty:2:mc"))).toEqual([]);
  });

  it("fails Fisica under 45 % one-word completamento", () => {
    const bank = clone();
    for (const q of subject(bank, 4)
      .questions.filter((x) => x.type === "gap" && inPool(x))
      .slice(0, 200))
      q.accepted = ["42"];
    expect(issueKeys(bank)).toContain("one-word:4");
  });

  it("reports the longest stem on the syllabus", () => {
    const bank = clone();
    const q = subject(bank, 1).questions.find((x) => inPool(x))!;
    q.stem = `${"parola ".repeat(80)}____`;
    const biologia = coverage(bank).find((r) => r.subjectId === 1)!;
    expect(biologia.longestStem).toEqual({ id: q.id, words: 81 });
    expect(biologia.longStems).toBeGreaterThan(0);
  });
});

describe("no question asks what another subject's asks", () => {
  it("the shipped bank has no such pair", () => {
    expect(crossSubjectDuplicates(BANK).map((i) => i.message)).toEqual([]);
  });

  it("catches the same problem restated in another subject with other words and another type", () => {
    const bank = clone();
    const biologia = subject(bank, 1);
    const chimica = subject(bank, 2);
    const mc = biologia.questions.find((q) => q.type === "mc" && inPool(q))!;
    mc.stem =
      "In una molecola di DNA a doppio filamento il 20% delle basi è costituito da adenina. Qual è la percentuale di citosina?";
    mc.options = ["20%", "40%", "30%", "60%", "10%"];
    const gap = chimica.questions.find((q) => q.type === "gap" && inPool(q))!;
    gap.stem =
      "In un campione di DNA a doppio filamento l'adenina rappresenta il 20 % delle basi: la percentuale di guanina è ____ %.";
    gap.accepted = ["30"];
    expect(crossSubjectDuplicates(bank).map((i) => i.key)).toContain(`similar:${mc.id}:${gap.id}`);
  });

  it("leaves alone two questions of one template that ask different things, and variants within a subject", () => {
    const a = {
      stem: "Quale delle seguenti affermazioni sulla trascrizione è corretta?",
      options: ["L'RNA polimerasi legge il filamento stampo in direzione 3'→5'"],
    };
    const b = {
      stem: "Quale delle seguenti affermazioni sulla viscosità è corretta?",
      options: ["La viscosità di un liquido diminuisce quando la temperatura aumenta"],
    };
    const shared = [...questionWords(a)].filter((w) => questionWords(b).has(w));
    expect(shared).toEqual([]);
    // Within a subject, variants with other data are allowed (and counted apart by bank:check).
    expect(similarPairs(BANK).some((p) => p.subjectA === p.subjectB)).toBe(true);
  });
});
