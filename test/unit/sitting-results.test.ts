// After the sitting (issue 46, point 3): the grades a student received, read by the edition's rules: the section and
// the ranking score by the ranking key (rankKeyOfGrades), the best valid grade of each exam across the two sittings,
// what the next sitting can still improve and the plan's weights for it; bad grades refused by the schema.
import { describe, expect, it } from "vitest";
import { sittingStartsAt } from "~/lib/edition";
import { sittingGradesSchema } from "~/lib/forms/study-plan";
import { rankKeyOfGrades } from "~/lib/rank-key";
import { type EnteredGrade, focusWeights, sittingResults } from "~/lib/sitting-results";
import { reportedGrade } from "~/lib/simulation-day";
import { RETAKE_FOCUS } from "~/lib/study-plan";
import { SEED_EDITIONS } from "../../seed/editions";

const edition = SEED_EDITIONS.find((e) => e.isDefault)!;
const [first, second] = edition.format.sittings as [
  (typeof edition.format.sittings)[number],
  (typeof edition.format.sittings)[number],
];
const ids = edition.format.subjects.map((s) => s.subjectId) as [number, number, number];
const names = new Map(ids.map((id) => [id, `Materia ${id}`]));
/** Between the sittings, and after both. */
const between = sittingStartsAt(first) + 86_400_000;
const after = sittingStartsAt(second) + 86_400_000;

const sat = (date: string, grades: (number | null)[]): EnteredGrade[] =>
  grades.map((grade, i) => ({ sittingDate: date, subjectId: ids[i]!, grade }));

describe("the grades received, by the edition's rules", () => {
  it("17,9 fails and 18 passes; 31 is 30 e lode", () => {
    expect(reportedGrade(edition, 17.9)).toMatchObject({ passed: false, label: "17,9/30" });
    expect(reportedGrade(edition, 18)).toMatchObject({ passed: true, value: 18 });
    expect(reportedGrade(edition, 31)).toMatchObject({ passed: true, lode: true, label: "30 e lode" });
  });

  it("ranks 18 + 18 + 18 (section 300) above 30 + 30 + 17 (section 200), with the ranking key's own rule", () => {
    const three = sittingResults(edition, sat(first.date, [18, 18, 18]), names, between).rank!;
    const two = sittingResults(edition, sat(first.date, [30, 30, 17]), names, between).rank!;
    expect(three).toMatchObject({ section: 300, key: 354, passed: 3 });
    expect(two).toMatchObject({ section: 200, key: 260, passed: 2 });
    expect(three.key).toBeGreaterThan(two.key);
    expect(rankKeyOfGrades([reportedGrade(edition, 18)], edition)).toMatchObject({ section: 100, key: 118 });
  });

  it("the best valid grade counts: a better January grade replaces December's, a worse one does not", () => {
    const entries = [...sat(first.date, [24, 17.8, null]), ...sat(second.date, [20, 26, 19])];
    const r = sittingResults(edition, entries, names, after);
    expect(r.best.map((b) => [b.grade?.value ?? null, b.from])).toEqual([
      [24, first.date],
      [26, second.date],
      [19, second.date],
    ]);
    expect(r.rank).toMatchObject({ section: 300, key: 300 + 24 + 26 + 19 });
    // After the last sitting nothing is left to improve.
    expect(r.next).toBeNull();
    expect(r.best.every((b) => b.improvable === null)).toBe(true);
  });

  it("between the sittings: what January can improve, and the plan turned towards it", () => {
    const r = sittingResults(edition, sat(first.date, [30, 17.9, null]), names, between);
    expect(r.next).toEqual({ date: second.date, label: second.label });
    expect(r.best.map((b) => b.improvable)).toEqual(["miglioramento", "recupero", "recupero"]);
    expect(r.best[0]!.maxGain).toBe(1);
    expect(r.rank).toMatchObject({ section: 100, key: 130 });
    const focus = focusWeights(edition, r);
    expect(focus.get(ids[1])).toBe(RETAKE_FOCUS);
    expect(focus.get(ids[2])).toBe(RETAKE_FOCUS);
    expect(focus.get(ids[0])).toBeLessThan(0.5);
    // No grade entered: no focus.
    const none = sittingResults(edition, [], names, between);
    expect(none.rank).toBeNull();
    expect([...focusWeights(edition, none).values()]).toEqual([1, 1, 1]);
  });
});

describe("the grades' schema", () => {
  const schema = sittingGradesSchema(edition.format);
  const body = (grades: (number | null)[]) => ({
    editionId: 2,
    sittingDate: first.date,
    grades: grades.map((grade, i) => ({ subjectId: ids[i], grade })),
  });

  it("takes 0 to 30, 31 for 30 e lode, decimals only below the pass mark, and null for non sostenuto", () => {
    expect(schema.safeParse(body([31, 17.85, null])).success).toBe(true);
    for (const bad of [32, -1, 24.5, 17.855, Number.NaN])
      expect(schema.safeParse(body([bad, 18, 18])).success, String(bad)).toBe(false);
  });

  it("wants each exam of the edition once", () => {
    expect(schema.safeParse(body([18, 18])).success).toBe(false);
    const twice = body([18, 18, 18]);
    twice.grades[2]!.subjectId = ids[0];
    expect(schema.safeParse(twice).success).toBe(false);
    expect(schema.safeParse({ ...body([18, 18, 18]), extra: 1 }).success).toBe(false);
  });
});
