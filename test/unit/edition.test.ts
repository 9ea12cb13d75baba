// Exam editions' pure rules (issue 29): the shape an admin may save, the grade out of 30 with the edition's
// rounding (exam-format.md), the next sitting in Rome's calendar.
import { describe, expect, it } from "vitest";
import {
  dayTemplate,
  editionGapBoxes,
  EDITION_TEXT,
  examGrade,
  fullPaperGrade,
  nextSitting,
  nextSittingText,
  paperSplit,
} from "~/lib/edition";
import { editionFormatSchema } from "~/lib/edition-schema";
import { bestGrades } from "~/lib/simulation-day";
import { SEED_EDITIONS } from "../../seed/editions";

const [e2025, e2026] = SEED_EDITIONS as [(typeof SEED_EDITIONS)[number], (typeof SEED_EDITIONS)[number]];

describe("the seed editions", () => {
  it("pass their own schema: counts add up to 31, units sum to 6 credits per subject", () => {
    for (const e of SEED_EDITIONS) expect(editionFormatSchema.safeParse(e.format).error?.issues).toBeUndefined();
  });
  it("refuses section points a sum of grades could reach (a higher section must always rank first)", () => {
    const bad = editionFormatSchema.safeParse({ ...e2026.format, sectionPoints: 93 });
    expect(bad.error?.issues.map((i) => i.message)).toContain(
      "I punti della sezione devono superare la somma più alta dei voti (3 esami × 31 = 93).",
    );
    expect(editionFormatSchema.safeParse({ ...e2026.format, sectionPoints: 94 }).success).toBe(true);
  });
  it("2026/27 is 21 + 10 in 50 minutes with 30-minute breaks; 2025/26 is 15 + 16 in 45 with 15", () => {
    expect(paperSplit(e2026, 4)).toEqual({ mc: 21, gap: 10 });
    expect(paperSplit(e2025, 4)).toEqual({ mc: 15, gap: 16 });
    expect(dayTemplate(e2026).rows).toEqual([
      { subjectId: 2, timeMin: 50, questionCount: 31, breakAfterMin: 30 },
      { subjectId: 4, timeMin: 50, questionCount: 31, breakAfterMin: 30 },
      { subjectId: 1, timeMin: 50, questionCount: 31, breakAfterMin: 0 },
    ]);
  });
});

describe("the sheet's completamento boxes (issue 29, point 4)", () => {
  it("are edition data: 16 in both seeded editions, 16 for a format stored before the field, an admin's count else", () => {
    expect(SEED_EDITIONS.map((e) => editionGapBoxes(e))).toEqual([16, 16]);
    const { gapBoxes: _dropped, ...older } = e2026.format;
    expect(editionFormatSchema.parse(older).gapBoxes).toBe(16);
    expect(editionGapBoxes({ format: editionFormatSchema.parse({ ...e2026.format, gapBoxes: 20 }) })).toBe(20);
    expect(editionGapBoxes(null)).toBe(16);
  });
  it("are refused below 1, above the 50 characters the server stores, or not whole", () => {
    const issues = (gapBoxes: unknown) =>
      editionFormatSchema.safeParse({ ...e2026.format, gapBoxes }).error?.issues.map((i) => i.message) ?? [];
    expect(issues(0)).toContain("Caselle del completamento: almeno 1.");
    expect(issues(51)).toContain("Caselle del completamento: al massimo 50.");
    expect(issues(15.5)).toContain("Caselle del completamento: serve un numero intero.");
    expect(issues("16")).toContain("Caselle del completamento: serve un numero intero.");
  });
});

describe("what an admin may save", () => {
  const bad = (mutate: (f: typeof e2026.format) => void) => {
    const format = structuredClone(e2026.format);
    mutate(format);
    return editionFormatSchema.safeParse(format).error?.issues.map((i) => i.message) ?? [];
  };
  it("refuses counts that do not add up, minutes of 0, credits that do not sum to 6, sittings out of order", () => {
    expect(bad((f) => void (f.subjects[0]!.mc = 20))).toContain(
      "Chimica: scelta multipla e completamento devono sommare 31 domande.",
    );
    expect(bad((f) => void (f.subjects[1]!.minutes = 0))).toContain("Minuti: almeno 1.");
    expect(bad((f) => void (f.units[0]!.credits = 2))).toContain("Le unità della materia 2 devono sommare 6 crediti.");
    expect(bad((f) => void f.sittings.reverse())).toContain("Gli appelli vanno in ordine di data.");
    expect(bad((f) => void (f.sittings[0]!.date = "10/12/2026"))).toContain(EDITION_TEXT.sittingDate);
    // Issue 44: a day that does not exist is refused, not rolled over into March.
    expect(bad((f) => void (f.sittings[0]!.date = "2026-02-31"))).toContain(EDITION_TEXT.sittingDate);
    expect(bad((f) => void (f.sittings[0]!.time = "24:00"))).toContain("Ora dell'appello nel formato HH:MM.");
  });
  it("accepts the split 20 + 11", () => {
    expect(
      bad((f) => {
        for (const s of f.subjects) Object.assign(s, { mc: 20, gap: 11 });
      }),
    ).toEqual([]);
  });
});

describe("the grade out of 30 (exam-format.md)", () => {
  it.each([
    [17.8, "17,8/30", false],
    [18, "18/30", true],
    [18.3, "18/30", true],
    [18.5, "19/30", true],
    [29.9, "30/30", true],
    [30.4, "30/30", true],
    [31, "30 e lode", true],
    [-2, "0/30", false],
  ])("a raw %d is %s", (raw, label, passed) => {
    const grade = examGrade(e2026, raw);
    expect(grade.label).toBe(label);
    expect(grade.passed).toBe(passed);
  });
});

describe("the next sitting", () => {
  it("counts Rome calendar days: on 25 November 2026 the first sitting is 15 days away", () => {
    const next = nextSitting(e2026, Date.UTC(2026, 10, 25, 13))!;
    expect(nextSittingText(next)).toBe("Primo appello: 10 dicembre, tra 15 giorni");
  });
  it("moves to the second sitting once the first has started (11:00 Rome = 10:00 UTC in winter), then none", () => {
    expect(nextSitting(e2026, Date.UTC(2026, 11, 10, 9, 59))!.index).toBe(0);
    expect(nextSitting(e2026, Date.UTC(2026, 11, 10, 10, 0))!.index).toBe(1);
    expect(nextSitting(e2026, Date.UTC(2027, 0, 10, 23, 30))!.daysLeft).toBe(0);
    expect(nextSittingText(nextSitting(e2026, Date.UTC(2027, 0, 10, 23, 30))!)).toBe(
      "Secondo appello: 11 gennaio, oggi",
    );
    expect(nextSitting(e2026, Date.UTC(2027, 0, 11, 10, 0))).toBeNull();
  });
});

describe("grades of practice papers and the best passing grade (issue 29, point 5)", () => {
  it("a full paper (31 questions) has the exam's grade; a shorter quiz has none", () => {
    expect(fullPaperGrade(e2026, { correct: 20, wrong: 5, total: 31 })).toMatchObject({ label: "20/30", passed: true });
    expect(fullPaperGrade(e2026, { correct: 18, wrong: 1, total: 31 })).toMatchObject({
      label: "17,9/30",
      passed: false,
    });
    expect(fullPaperGrade(e2026, { correct: 31, wrong: 0, total: 31 })?.label).toBe("30 e lode");
    expect(fullPaperGrade(e2026, { correct: 10, wrong: 0, total: 10 })).toBeNull();
  });

  const sat = (chimica: [number, number], fisica?: [number, number]) => ({
    subjects: [
      { id: 2, name: "Chimica", correct: chimica[0], wrong: chimica[1], total: 31 },
      ...(fisica ? [{ id: 4, name: "Fisica", correct: fisica[0], wrong: fisica[1], total: 31 }] : []),
    ],
  });
  it("counts the best passing grade per exam; a pass beats a higher-looking fail; none passed shows the best so far", () => {
    const best = bestGrades(e2026, [sat([19, 0], [17, 0]), sat([30, 10], [17, 2]), sat([17, 0])]);
    expect(best.map((b) => [b.name, b.grade?.label, b.grade?.passed, b.sat])).toEqual([
      ["Chimica", "29/30", true, 3],
      ["Fisica", "17/30", false, 2],
      ["Biologia", undefined, undefined, 0],
    ]);
    // 18 passed in one sitting, 17,9 failed in the other: the 18 counts.
    expect(bestGrades(e2026, [sat([18, 0]), sat([18, 1])])[0]!.grade).toMatchObject({ label: "18/30", passed: true });
  });
});
