// One answer, one verdict (issue 44): the simulation room grades a typed answer on the same stored form as practice
// (gapVerdict in gap-answer.ts). The room used to grade the raw socket text and practice the normalised one, so an
// answer typed in capitals or with odd spaces ("45 M", "1500 ML") was right in practice and wrong in the room.
import { describe, expect, it } from "vitest";
import type { GapKey } from "~/lib/gap-answer";
import { nearMisses, officialSpellings } from "~/lib/gap-spellings";
import { type AnswerKey, gradeSimulation, memoJudge } from "~/lib/simulation";
import { gradeAnswers } from "~/server/attempts.server";
import type { Question } from "~/server/db/schema";
import { BANK } from "../../seed/seed";

const SUBJECT = 4;

function questionOf(id: number, key: GapKey): Question {
  return {
    id,
    subjectId: SUBJECT,
    topicId: null,
    type: "gap",
    stem: "____",
    options: null,
    correctIndex: null,
    acceptedAnswers: [...key.accepted],
    explanation: "",
    difficulty: 3,
    unit: null,
    legacy: false,
    measure: key.measure ?? null,
    tolerance: key.tolerance ?? null,
    active: true,
    createdAt: new Date(0),
    updatedAt: null,
  };
}

/** Practice, redo and Rush: the server's grading of a submitted attempt. */
function practiceVerdict(id: number, key: GapKey, text: string): boolean | null {
  return gradeAnswers([questionOf(id, key)], [{ question_id: id, answer_text: text }])[0]!.correct;
}

/** The room: its finalize grades every stored answer with gradeSimulation and a memo of isCorrect. */
function roomVerdict(id: number, key: GapKey, text: string): boolean | null {
  const answerKey: AnswerKey = {
    id,
    type: "gap",
    options: null,
    correctIndex: null,
    ...key,
    accepted: [...key.accepted],
  };
  const [s] = gradeSimulation(
    [{ id: SUBJECT, name: "Fisica", keys: [answerKey] }],
    { [String(SUBJECT)]: { [String(id)]: text } },
    memoJudge(),
  ).subjects;
  return s!.correct ? true : s!.wrong ? false : null;
}

/** What a socket may carry that the runner's boxes would not: capitals, tabs, no-break and wide spaces. */
function oddly(text: string): string[] {
  return [
    text.toUpperCase(),
    `\t${text}\u00a0`,
    text.replace(/ /g, "\u2003"),
    `\u3000${text.toUpperCase().replace(/ /g, "  ")}\n`,
  ];
}

describe("one answer, one verdict: the room grades what practice grades", () => {
  it.each([
    ["45 M", { accepted: ["45"], measure: "m" }],
    ["1500 ML", { accepted: ["1,5"], measure: "L" }],
    ["\u00a0MITOCONDRIO\t", { accepted: ["mitocondrio"] }],
  ] as [string, GapKey][])("%j gets practice's verdict in the room (%j)", (text, key) => {
    expect(practiceVerdict(1, key, text)).toBe(true);
    expect(roomVerdict(1, key, text)).toBe(true);
  });

  it("on every gap question of the bank, for its accepted forms, other spellings and near misses typed oddly", () => {
    const differ: string[] = [];
    let checked = 0;
    for (const file of BANK)
      for (const q of file.questions) {
        if (q.type !== "gap") continue;
        const key: GapKey = { accepted: q.accepted ?? [], measure: q.measure, tolerance: q.tolerance };
        const typed = [...key.accepted, ...officialSpellings(key), ...nearMisses(key).map((m) => m.typed)];
        for (const text of typed.flatMap(oddly)) {
          // Practice refuses an answer longer than the stored 50 characters (a 400, no verdict).
          if (text.trim().length > 50) continue;
          checked++;
          const practice = practiceVerdict(q.id, key, text);
          const room = roomVerdict(q.id, key, text);
          if (practice !== room) differ.push(`${q.id}: ${JSON.stringify(text)} practice ${practice}, room ${room}`);
        }
      }
    expect(checked).toBeGreaterThan(5000);
    expect(differ).toEqual([]);
  });
});
