// The sheet and the grades as the real ones (issue 29, points 4 and 5), through the real routes and D1:
// - the completamento boxes are the edition's (16 seeded; an admin's correction reaches the runners' data);
// - a full paper's summary carries its grade out of 30, a shorter quiz none;
// - a teacher's class results of a template simulation carry each pupil's grades out of 30 (none for a hand-made one);
// - across the edition's official-format simulations the best PASSING grade of each exam counts.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { SubjectResult } from "~/lib/simulation";
import { getDb } from "~/server/db/client.server";
import { listEditions } from "~/server/editions.server";
import { bestSimulationGrades } from "~/server/grades.server";
import { call, json, login, seed, classOfDemoPupils } from "./helpers";

const STUDENT_ID = 1;
const FRIEND_ID = 2;
let admin: string;
let teacher: string;
let student: string;
let classId: number;

beforeAll(async () => {
  await seed();
  [admin, teacher, student] = await Promise.all([
    login("admin@example.com"),
    login("docente@example.com"),
    login("studente@example.com"),
  ]);
  classId = await classOfDemoPupils(teacher, "5ªC voti");
});

describe("the completamento boxes are the edition's", () => {
  it("16 in a drawn quiz; an admin's 20 reaches the next read of the quiz, and 16 again after", async () => {
    const quiz = await json<{ quizId: number; gapBoxes: number }>(
      await call("GET", "/api/quiz?subjectId=1&count=5", { token: student }),
    );
    expect(quiz.gapBoxes).toBe(16);
    const current = (await listEditions(getDb(env.DB))).find((e) => e.isDefault)!;
    const post = (format: typeof current.format) =>
      call("POST", "/admin/edizioni", {
        token: admin,
        json: { intent: "save", id: current.id, edition: { ...current, format } },
      });
    const refused = await post({ ...current.format, gapBoxes: 0 });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await json(refused))).toContain("Caselle del completamento: almeno 1.");
    expect((await post({ ...current.format, gapBoxes: 20 })).status).toBe(200);
    const again = await json<{ gapBoxes: number }>(await call("GET", `/api/quiz/${quiz.quizId}`, { token: student }));
    expect(again.gapBoxes).toBe(20);
    const editions = await json<{ editions: { id: number; format: { gapBoxes: number } }[] }>(
      await call("GET", "/api/exam-editions"),
    );
    expect(editions.editions.find((e) => e.id === current.id)!.format.gapBoxes).toBe(20);
    expect((await post({ ...current.format, gapBoxes: 16 })).status).toBe(200);
    const back = await json<{ gapBoxes: number }>(await call("GET", `/api/quiz/${quiz.quizId}`, { token: student }));
    expect(back.gapBoxes).toBe(16);
  });
});

describe("a practice summary's grade out of 30", () => {
  type Summary = { grade: { label: string; passed: boolean } | null; edition: { academicYear: string } | null };
  async function submitted(path: string, rightCount: number) {
    const quiz = await json<{ quizId: number; questions: { id: number; type: string }[] }>(
      await call("GET", path, { token: student }),
    );
    // Answer the first `rightCount` questions right from the keys in D1, leave the rest blank.
    const answers = [];
    for (const q of quiz.questions.slice(0, rightCount)) {
      const row = await env.DB.prepare("SELECT correct_index, accepted_answers FROM questions WHERE id = ?")
        .bind(q.id)
        .first<{ correct_index: number | null; accepted_answers: string | null }>();
      answers.push(
        q.type === "mc"
          ? { question_id: q.id, option_id: row!.correct_index }
          : { question_id: q.id, answer_text: (JSON.parse(row!.accepted_answers!) as string[])[0] },
      );
    }
    const response = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: student,
      json: { answers, timeTaken: 60 },
    });
    expect(response.status).toBe(200);
    const { attemptId } = await json<{ attemptId: number }>(response);
    return json<Summary>(await call("GET", `/api/attempts/${attemptId}/summary`, { token: student }));
  }

  it("a full paper of the default edition: 20 right of 31 is 20/30, passed; 17 right is 17/30, not passed", async () => {
    const passed = await submitted("/api/quiz?subjectId=2&count=31", 20);
    expect(passed.edition?.academicYear).toBe("2026/27");
    expect(passed.grade).toMatchObject({ label: "20/30", passed: true });
    const failed = await submitted("/api/quiz?subjectId=4&count=31", 17);
    expect(failed.grade).toMatchObject({ label: "17/30", passed: false });
  });

  it("a shorter quiz is no exam: no grade", async () => {
    const short = await submitted("/api/quiz?subjectId=2&count=10", 10);
    expect(short.grade).toBeNull();
  });
});

/** A subject's line as the room writes it (score31 and perc are not what grades read). */
const line = (id: number, name: string, correct: number, wrong: number): SubjectResult => ({
  id,
  name,
  correct,
  wrong,
  total: 31,
  score31: Math.round(correct - wrong * 0.1),
  perc: Math.round((correct / 31) * 100),
});

/** A finished simulation with given attempts (what the rooms leave in D1 once they have graded). */
async function finished(id: string, template: boolean, attempts: Array<[userId: number, SubjectResult[]]>) {
  const subjects = [2, 4, 1].map((subjectId) => ({ subjectId, timeMin: 1, questionCount: 31, breakAfterMin: 0 }));
  const created = await call("POST", "/api/admin/simulations", {
    token: teacher,
    json: {
      id,
      title: `Voti ${id}`,
      // A hand-made simulation: the same subjects, but not full papers of the edition.
      subjects: template ? subjects : subjects.map((s) => ({ ...s, questionCount: 5 })),
      allowedClasses: [classId],
    },
  });
  expect(created.status).toBe(201);
  const start = Date.now() - 3_600_000;
  await env.DB.prepare("UPDATE simulations SET started = 1, start_time = ?, graded_at = ? WHERE id = ?")
    .bind(start, start + 600_000, id)
    .run();
  for (const [userId, result] of attempts) {
    const score = Math.round(result.reduce((s, r) => s + r.score31, 0) / result.length);
    await env.DB.prepare(
      "INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec) VALUES (?, ?, '{}', ?, ?, 50, 600)",
    )
      .bind(id, userId, JSON.stringify(result), score)
      .run();
  }
}

type ClassResultsBody = {
  edition: { academicYear: string } | null;
  classes: {
    classId: number;
    ranking: {
      userId: number;
      passed?: number;
      subjects: { subjectId: number; grade?: { label: string; passed: boolean; text: string } }[];
    }[];
  }[];
};

describe("grades out of 30 of the edition's simulations", () => {
  beforeAll(async () => {
    // Two official-format simulations ("the two sittings") and one made by hand.
    await finished("voti-primo", true, [
      [STUDENT_ID, [line(2, "Chimica", 20, 0), line(4, "Fisica", 17, 3), line(1, "Biologia", 31, 0)]],
      [FRIEND_ID, [line(2, "Chimica", 18, 1), line(4, "Fisica", 19, 6), line(1, "Biologia", 25, 5)]],
    ]);
    await finished("voti-secondo", true, [
      [STUDENT_ID, [line(2, "Chimica", 25, 2), line(4, "Fisica", 18, 5), line(1, "Biologia", 10, 0)]],
    ]);
    await finished("voti-a-mano", false, [
      [STUDENT_ID, [line(2, "Chimica", 31, 0), line(4, "Fisica", 31, 0), line(1, "Biologia", 31, 0)]],
    ]);
  });

  it("a teacher's class results carry each pupil's grades, the edition's rounding and exams passed", async () => {
    const response = await call("GET", "/api/admin/simulations/voti-primo/classes", { token: teacher });
    expect(response.status).toBe(200);
    const body = await json<ClassResultsBody>(response);
    expect(body.edition?.academicYear).toBe("2026/27");
    const ranking = body.classes.find((c) => c.classId === classId)!.ranking;
    const of = (userId: number) => ranking.find((r) => r.userId === userId)!;
    expect(of(STUDENT_ID).subjects.map((s) => s.grade?.text)).toEqual(["20/30", "16,7/30 — non superato", "30 e lode"]);
    expect(of(STUDENT_ID).passed).toBe(2);
    // 18 − 0,1 = 17,9 stays unrounded and fails; 19 − 0,6 = 18,4 rounds to 18; 25 − 0,5 = 24,5 rounds up to 25.
    expect(of(FRIEND_ID).subjects.map((s) => s.grade?.text)).toEqual(["17,9/30 — non superato", "18/30", "25/30"]);
    expect(of(FRIEND_ID).passed).toBe(2);
  });

  it("a hand-made simulation's class results have no grades; another teacher's pupils are not for a student", async () => {
    const body = await json<ClassResultsBody>(
      await call("GET", "/api/admin/simulations/voti-a-mano/classes", { token: teacher }),
    );
    expect(body.edition).toBeNull();
    expect(body.classes[0]!.ranking[0]!.subjects.every((s) => s.grade === undefined)).toBe(true);
    expect((await call("GET", "/api/admin/simulations/voti-primo/classes", { token: student })).status).toBe(403);
  });

  it("the best PASSING grade of each exam counts across the edition's simulations; a hand-made one never", async () => {
    const best = await bestSimulationGrades(getDb(env.DB), STUDENT_ID);
    expect(best?.edition.academicYear).toBe("2026/27");
    expect(best?.simulations).toBe(2);
    expect(
      best?.subjects.map((s) => ({ name: s.name, label: s.grade?.label, passed: s.grade?.passed, sat: s.sat })),
    ).toEqual([
      // 24,8 (second) beats 20 (first).
      { name: "Chimica", label: "25/30", passed: true, sat: 2 },
      // Never passed: the best so far, 17,5 (second) over 16,7, and not valid.
      { name: "Fisica", label: "17,5/30", passed: false, sat: 2 },
      // A passed 30 e lode (first) counts over a later fail (10/30).
      { name: "Biologia", label: "30 e lode", passed: true, sat: 2 },
    ]);
    // A student who sat none of the edition's simulations has no card.
    expect(await bestSimulationGrades(getDb(env.DB), 9999)).toBeNull();
  });
});

describe("unit statistics read the default edition (issue 29, point 2)", () => {
  it("the dashboard's units are 2026/27's: Chimica's 7 (units 1 and 2 merged), each topic in one of them", async () => {
    const response = await call("GET", "/api/me/analytics", { token: student });
    expect(response.status).toBe(200);
    const body = await json<{
      subjects: {
        id: number;
        units?: { number: number; title: string }[];
        topicUnits?: Record<string, number | null>;
      }[];
    }>(response);
    const chimica = body.subjects.find((s) => s.id === 2)!;
    expect(chimica.units?.map((u) => u.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(chimica.units?.[0]?.title).toBe("Atomo, legami chimici, stati di aggregazione e termodinamica");
    const assigned = Object.values(chimica.topicUnits ?? {}).filter((u) => u != null);
    expect(assigned.length).toBeGreaterThan(0);
    expect(assigned.every((u) => u! >= 1 && u! <= 7)).toBe(true);
    // Matematica is no exam of the edition: no units.
    expect(body.subjects.find((s) => s.id === 3)?.units ?? []).toEqual([]);
  });
});
