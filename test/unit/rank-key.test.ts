// THE ranking rule (issue 44, point 3): an edition's day by section and passed grades, a hand-made simulation by its
// total; ties share a position and nothing a client sends takes part.
import { describe, expect, it } from "vitest";
import { percentileByKey, RANK_TEXT, rankByKey, rankKey, rankScoreText } from "~/lib/rank-key";
import { gradeSimulation, type AnswerKey } from "~/lib/simulation";
import { SEED_EDITIONS } from "../../seed/editions";

const edition = SEED_EDITIONS.find((e) => e.isDefault)!;

/** A subject of 31 questions with `right` right and `wrong` wrong (the rest blank). */
const subject = (id: number, right: number, wrong: number) => ({ id, correct: right, wrong, total: 31 });

describe("rankKey", () => {
  it("ranks 18 + 18 + 18 (section 300, 354) above 30 + 30 + 17,8 (section 200, 260)", () => {
    // 19 right and 10 wrong: 18,0 → 18; 30 right and 1 wrong: 29,9 → 30; 19 right and 12 wrong: 17,8 (failed).
    const threePassed = rankKey(
      { totale: 19, subjects: [subject(1, 19, 10), subject(2, 19, 10), subject(3, 19, 10)] },
      edition,
    );
    const twoPassed = rankKey(
      { totale: 27, subjects: [subject(1, 30, 1), subject(2, 30, 1), subject(3, 19, 12)] },
      edition,
    );
    expect(threePassed).toEqual({ key: 354, section: 300, passed: 3, gradesSum: 54 });
    expect(twoPassed).toEqual({ key: 260, section: 200, passed: 2, gradesSum: 60 });
    const ranked = rankByKey([
      { userId: 1, key: twoPassed.key },
      { userId: 2, key: threePassed.key },
    ]);
    expect(ranked.map((r) => [r.userId, r.pos])).toEqual([
      [2, 1],
      [1, 2],
    ]);
    expect(RANK_TEXT.label(threePassed)).toBe("Sezione 300 · 354 punti");
  });

  it("takes the section's points from the edition, not from the code", () => {
    const other = { ...edition, format: { ...edition.format, sectionPoints: 1000 } };
    expect(rankKey({ totale: 19, subjects: [subject(1, 19, 10), subject(2, 0, 0)] }, other)).toMatchObject({
      key: 1018,
      section: 1000,
      passed: 1,
    });
  });

  it("ranks a simulation made by hand by its total out of 31", () => {
    const keys: AnswerKey[] = [{ id: 1, type: "mc", options: ["a", "b"], correctIndex: 0, accepted: null }];
    const result = gradeSimulation([{ id: 7, name: "Chimica", keys }], { "7": { "1": "a" } });
    expect(rankKey(result, null)).toEqual({ key: result.totale, section: null, passed: null, gradesSum: null });
    expect(RANK_TEXT.label(rankKey(result, null))).toBe("31 punti");
  });

  it("gives equal keys one position, whatever else differs, and the percentile counts strictly lower keys", () => {
    const ranked = rankByKey([
      { userId: 1, key: 20 },
      { userId: 2, key: 25 },
      { userId: 3, key: 20 },
      { userId: 4, key: 10 },
    ]);
    expect(ranked.map((r) => [r.userId, r.pos])).toEqual([
      [2, 1],
      [1, 2],
      [3, 2],
      [4, 4],
    ]);
    expect(percentileByKey(25, [20, 25, 20, 10])).toBe(100);
    expect(percentileByKey(10, [20, 25, 20, 10])).toBe(0);
    expect(percentileByKey(20, [20, 25, 20, 10])).toBe(33);
  });

  it("reads the same in the staff tables: the section and its score for an edition's day, never a score on 31", () => {
    expect(rankScoreText({ score: 354, section: 300 })).toBe("Sezione 300 · 354");
    expect(rankScoreText({ score: 260, section: 200 })).not.toMatch(/31/);
    expect(rankScoreText({ score: 17.5, section: null })).toBe("17,5/31");
  });
});
