// The bank's rules (the same functions run by `npm run bank:check` and by POST /api/admin/import):
// the shipped bank passes, and each rule catches the mistake it is for.
import { describe, expect, it } from "vitest";
import { bankTable, checkBank, parseSyllabus, STYLE_RULES, stemKey, type BankFile } from "~/lib/bank-rules";
import syllabusMd from "../../seed/bank/SYLLABUS.md?raw";
import { BANK } from "../../seed/seed";

const syllabus = parseSyllabus(syllabusMd);
const clone = (): BankFile[] => JSON.parse(JSON.stringify(BANK)) as BankFile[];
const chimica = (bank: BankFile[]) => bank.find((b) => b.subject.id === 2)!;
const keys = (bank: BankFile[]) => checkBank(bank, { syllabus, idRanges: true }).map((i) => i.key);

describe("bank rules", () => {
  it("read SYLLABUS.md: 8 Chimica units, 7 Fisica, 7 Biologia, 6 credits each", () => {
    expect(syllabus.get(2)).toHaveLength(8);
    expect(syllabus.get(4)).toHaveLength(7);
    expect(syllabus.get(1)).toHaveLength(7);
    for (const units of syllabus.values()) expect(units.reduce((s, u) => s + u.credits, 0)).toBe(6);
  });

  it("the shipped bank passes every rule", () => {
    expect(checkBank(BANK, { syllabus, idRanges: true }).map((i) => i.message)).toEqual([]);
  });

  it("a key whose sheet form does not fit the editions' boxes fails, with the boxes it was checked against", () => {
    const bank = clone();
    const q = chimica(bank).questions.find((x) => x.type === "gap" && !x.legacy)!;
    q.accepted = ["ciclopentanoperidrofenantrene"];
    const at = (gapBoxes?: number) =>
      checkBank(bank, { syllabus, idRanges: true, gapBoxes })
        .filter((i) => i.key === `accepted-length:${q.id}`)
        .map((i) => i.message);
    expect(at()).toEqual([
      `domanda ${q.id}: la risposta da scrivere sul foglio "ciclopentanoperidrofenantrene" non entra nelle 16 caselle`,
    ]);
    expect(at(29)).toEqual([]);
    q.accepted = ["fosfatidilserina"];
    expect(at(16)).toEqual([]);
    expect(at(15)).toHaveLength(1);
  });

  type Case = [name: string, mutate: (bank: BankFile[]) => void, key: RegExp];
  const firstOf = (bank: BankFile[], type: "mc" | "gap") =>
    chimica(bank).questions.find((q) => q.type === type && !q.legacy)!;
  const CASES: Case[] = [
    ["a repeated id", (b) => void (chimica(b).questions[1]!.id = chimica(b).questions[0]!.id), /^id-dup:/],
    [
      "the same stem after normalising",
      (b) => void (chimica(b).questions[1]!.stem = `  ${chimica(b).questions[0]!.stem.toUpperCase()}!! `),
      /^stem-dup:/,
    ],
    ["4 options", (b) => void firstOf(b, "mc").options!.pop(), /^options:/],
    [
      "repeated options",
      (b) => {
        const q = firstOf(b, "mc");
        q.options![1] = ` ${q.options![0]!.toUpperCase()}`;
      },
      /^options-distinct:/,
    ],
    ["no blank in a gap stem", (b) => void (firstOf(b, "gap").stem = "Senza spazio da completare."), /^blank:/],
    [
      "an article right before the blank",
      (b) => void (firstOf(b, "gap").stem = "Il risultato è il ____."),
      /^article:/,
    ],
    [
      "an accepted form over 16 characters",
      (b) => void firstOf(b, "gap").accepted!.push("diciassettecaratt"),
      /^accepted-length:/,
    ],
    ["a number that does not read as one", (b) => void firstOf(b, "gap").accepted!.push("1,2,3"), /^numeric:/],
    [
      "a unit of measure without a numeric key",
      (b) => {
        const q = firstOf(b, "gap");
        q.accepted = ["parola"];
        q.measure = "m";
      },
      /^numeric:/,
    ],
    ["no explanation", (b) => void (firstOf(b, "mc").explanation = " "), /^explanation:/],
    ["no unit", (b) => void delete firstOf(b, "mc").unit, /^unit-missing:/],
    [
      "a unit that is not its topic's",
      (b) => {
        const q = firstOf(b, "mc");
        q.unit = q.unit === 1 ? 2 : 1;
      },
      /^unit-topic:/,
    ],
    ["a unit that does not exist", (b) => void (firstOf(b, "mc").unit = 42), /^unit-unknown:/],
    ["a topic without unit", (b) => void delete chimica(b).topics[0]!.unit, /^topic-unit:/],
    ["units that differ from SYLLABUS.md", (b) => void (chimica(b).units![0]!.credits = 2), /^units-syllabus:2$/],
    [
      "a topic under 6 questions",
      (b) => {
        const c = chimica(b);
        const t = c.topics[0]!.id;
        let n = 0;
        c.questions = c.questions.filter((q) => q.topic !== t || n++ < 5);
      },
      /^topic-min:/,
    ],
    [
      "a unit under 6 questions",
      (b) => {
        const c = chimica(b);
        c.questions = c.questions.filter((q) => q.unit !== 6);
        c.topics = c.topics.filter((t) => t.unit !== 6);
      },
      /^unit-min:2:6$/,
    ],
    [
      "the correct option always in one position",
      (b) => {
        for (const q of chimica(b).questions)
          if (q.type === "mc") {
            const right = q.options![q.correct!]!;
            q.options = [right, ...q.options!.filter((_, i) => i !== q.correct)];
            q.correct = 0;
          }
      },
      /^position:2:0$/,
    ],
    ["a question id outside its subject's range", (b) => void (firstOf(b, "mc").id = 9999), /^id-range:/],
    [
      "a tolerance that lets ×10 of the key pass",
      (b) => {
        const gap = chimica(b).questions.find((q) => q.type === "gap" && /^[1-9]\d*$/.test(q.accepted?.[0] ?? ""))!;
        gap.tolerance = Number(gap.accepted![0]) * 20;
      },
      /^near-miss:/,
    ],
    [
      "a listed form that is the key ×1000 (a slip of the unit)",
      (b) => {
        const gap = chimica(b).questions.find((q) => q.type === "gap" && /^[1-9]\d*$/.test(q.accepted?.[0] ?? ""))!;
        gap.accepted = [...gap.accepted!, `${gap.accepted![0]}000`];
      },
      /^near-miss:/,
    ],
  ];
  it.each(CASES)("catches %s", (_name, mutate, key) => {
    const bank = clone();
    mutate(bank);
    expect(keys(bank)).toContainEqual(expect.stringMatching(key));
  });

  it("bank:check still fails on an article right before the blank, the rule the admin import only warns about (issue 44)", () => {
    // The stems the import test (test/integration/admin-imports.test.ts) saves with a warning.
    for (const stem of [
      "In una trasformazione ciclica di un gas ideale il lavoro compiuto coincide con il ____ scambiato.",
      "Nel Sistema Internazionale l'unità di misura dell'energia è il ____.",
    ]) {
      const bank = clone();
      const gap = firstOf(bank, "gap");
      gap.stem = stem;
      const issues = checkBank(bank, { syllabus, idRanges: true }).filter((i) => i.questionId === gap.id);
      // bank:check (scripts/bank-check.ts) fails on every issue checkBank lists, style ones included.
      expect(issues.map((i) => i.message)).toEqual([
        `domanda ${gap.id}: un articolo subito prima dello spazio suggerisce la risposta: riformula ("detto ____")`,
      ]);
      expect(issues[0]).toMatchObject({ key: `article:${gap.id}`, style: true });
    }
    expect([...STYLE_RULES]).toEqual(["article"]);
  });

  it("normalises stems (case, accents, punctuation, spacing)", () => {
    expect(stemKey("Qual è  il pH?")).toBe(stemKey("QUAL E IL PH"));
  });

  it("prints the coverage table per subject, unit, topic and type", () => {
    const table = bankTable(BANK);
    expect(table).toMatch(/^Materia \/ unità \/ argomento\s+mc\s+gap\s+tot/);
    expect(table).toMatch(/\n {2}U8 Biomolecole/);
    expect(table).toMatch(/\nTotale\s+\d+\s+\d+\s+\d+$/);
  });
});
