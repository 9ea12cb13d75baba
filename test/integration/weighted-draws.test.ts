// Weighted draws through the real calls and D1 (issue 18): the admin's semestre filtro template and a
// 31-question practice test draw the default exam edition's split (21 mc + 10 gap in 2026/27) by unit weight, never a legacy question and never the same
// question twice; a short unit is reported to the admin; the older format keeps legacy questions.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { editionTopicUnits } from "~/lib/unit-stats";
import { getDb } from "~/server/db/client.server";
import { listEditions } from "~/server/editions.server";
import { call, json, login, seed, answeredBefore } from "./helpers";

let admin: string;
let student: string;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  student = await login("studente@example.com");
});

type Row = { id: number; subject_id: number; type: "mc" | "gap"; unit: number | null; legacy: number };

async function questionsById(ids: number[]): Promise<Map<number, Row>> {
  const out = new Map<number, Row>();
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    const rows = await env.DB.prepare(
      `SELECT id, subject_id, type, unit, legacy FROM questions WHERE id IN (${part.map(() => "?").join(",")})`,
    )
      .bind(...part)
      .all<Row>();
    for (const r of rows.results) out.set(r.id, r);
  }
  return out;
}

async function editionUnitsOf(year: string, subjectId: number) {
  const row = await env.DB.prepare("SELECT format FROM exam_editions WHERE academic_year = ?")
    .bind(year)
    .first<{ format: string }>();
  const format = JSON.parse(row!.format) as { units: { subjectId: number; number: number; credits: number }[] };
  return format.units.filter((u) => u.subjectId === subjectId);
}

async function editionUnitOfQuestions(year: string, ids: number[]): Promise<Map<number, number>> {
  const rows = await env.DB.prepare(
    `SELECT question_id AS id, unit FROM question_edition_units
     WHERE edition_id = (SELECT id FROM exam_editions WHERE academic_year = ?) AND question_id IN (${ids.map(() => "?").join(",")})`,
  )
    .bind(year, ...ids)
    .all<{ id: number; unit: number }>();
  return new Map(rows.results.map((r) => [r.id, r.unit]));
}

describe("the semestre filtro simulation (admin template)", () => {
  it("draws 3 × 31 questions in the default edition's split (21 mc + 10 gap), by unit weight, no legacy, no repeats", async () => {
    const response = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: {
        id: "sim-weighted",
        title: "Semestre filtro pesato",
        subjects: [
          { subjectId: 2, timeMin: 45, questionCount: 31, breakAfterMin: 15 },
          { subjectId: 4, timeMin: 45, questionCount: 31, breakAfterMin: 15 },
          { subjectId: 1, timeMin: 45, questionCount: 31 },
        ],
        allowedUsers: [1],
      },
    });
    expect(response.status).toBe(201);
    const rows = (
      await env.DB.prepare(
        "SELECT subject_position AS pos, question_id AS id FROM simulation_questions WHERE simulation_id = 'sim-weighted'",
      ).all<{ pos: number; id: number }>()
    ).results;
    const ids = rows.map((r) => r.id);
    expect(ids).toHaveLength(93);
    expect(new Set(ids).size).toBe(93);
    const byId = await questionsById(ids);
    for (const [pos, subjectId] of [
      [0, 2],
      [1, 4],
      [2, 1],
    ] as const) {
      const mine = rows.filter((r) => r.pos === pos).map((r) => byId.get(r.id)!);
      expect(mine.every((q) => q.subject_id === subjectId)).toBe(true);
      expect(mine.filter((q) => q.type === "mc")).toHaveLength(21);
      expect(mine.filter((q) => q.type === "gap")).toHaveLength(10);
      expect(mine.filter((q) => q.legacy)).toHaveLength(0);
      // The default edition's (2026/27) units and each question's unit in it (issue 30).
      const units = await editionUnitsOf("2026/27", subjectId);
      const unitOf = await editionUnitOfQuestions(
        "2026/27",
        mine.map((q) => q.id),
      );
      expect(mine.every((q) => unitOf.has(q.id))).toBe(true); // nothing fuori programma
      const credits = units.reduce((s, u) => s + u.credits, 0);
      for (const u of units) {
        const drawn = mine.filter((q) => unitOf.get(q.id) === u.number).length;
        // Largest remainder: floor or ceil of the exact share (a unit that ran short may hold less).
        expect(Math.abs(drawn - (u.credits / credits) * 31)).toBeLessThan(1);
      }
    }
  });

  it("moves a short unit's questions to the nearest units and tells the admin", async () => {
    // A subject of its own: units 1-3 of 2 credits each, unit 2 with a single gap question.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO subjects (id, name) VALUES (88, 'Materia di prova pesata')"),
      env.DB.prepare(
        "INSERT INTO units (subject_id, number, title, credits) VALUES (88, 1, 'Uno', 2), (88, 2, 'Due', 2), (88, 3, 'Tre', 2)",
      ),
    ]);
    const inserts = [];
    let id = 88001;
    for (const unit of [1, 2, 3]) {
      for (const type of ["mc", "gap"] as const) {
        const n = unit === 2 && type === "gap" ? 1 : 12;
        for (let i = 0; i < n; i++) {
          inserts.push(
            env.DB.prepare(
              "INSERT INTO questions (id, subject_id, type, stem, options, correct_index, accepted_answers, explanation, difficulty, unit) VALUES (?, 88, ?, ?, ?, ?, ?, 'x', 3, ?)",
            ).bind(
              id,
              type,
              `Domanda ${id}`,
              type === "mc" ? JSON.stringify(["a", "b", "c", "d", "e"]) : null,
              type === "mc" ? 0 : null,
              type === "gap" ? JSON.stringify(["x"]) : null,
              unit,
            ),
          );
          id++;
        }
      }
    }
    inserts.push(
      env.DB.prepare(
        "INSERT INTO questions (id, subject_id, type, stem, accepted_answers, explanation, difficulty, legacy) VALUES (88999, 88, 'gap', 'Legacy', '[\"x\"]', 'x', 3, 1)",
      ),
    );
    await env.DB.batch(inserts);
    const response = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: {
        id: "sim-short",
        title: "Unità corta",
        subjects: [{ subjectId: 88, timeMin: 45, questionCount: 31 }],
        allowedUsers: [],
      },
    });
    expect(response.status).toBe(201);
    const body = await json<{ drawNotes: string[] }>(response);
    expect(body.drawNotes).toHaveLength(1);
    expect(body.drawNotes[0]).toMatch(
      /^Materia di prova pesata: unità 2: mancano \d+ domande di completamento \(spostate: .*all'unità [13]/,
    );
    const ids = (
      await env.DB.prepare("SELECT question_id AS id FROM simulation_questions WHERE simulation_id = 'sim-short'").all<{
        id: number;
      }>()
    ).results.map((r) => r.id);
    expect(ids).toHaveLength(31);
    expect(new Set(ids).size).toBe(31);
    expect(ids).not.toContain(88999);
  });
});

describe("practice tests", () => {
  it("a 31-question test of a semestre filtro subject follows the default edition (21 mc + 10 gap) by unit weight, without legacy questions", async () => {
    for (const subjectId of [1, 2, 4]) {
      const response = await call("GET", `/api/quiz?subjectId=${subjectId}&count=31`, { token: student });
      expect(response.status).toBe(200);
      const quiz = await json<{ questions: { id: number; type: string }[] }>(response);
      const ids = quiz.questions.map((q) => q.id);
      expect(new Set(ids).size).toBe(31);
      expect(quiz.questions.filter((q) => q.type === "mc")).toHaveLength(21);
      const byId = await questionsById(ids);
      expect([...byId.values()].filter((q) => q.legacy)).toHaveLength(0);
    }
  });

  it("a legacy topic chosen on purpose still draws its questions (older format)", async () => {
    const legacyTopic = await env.DB.prepare("SELECT id, subject_id FROM topics WHERE legacy = 1 LIMIT 1").first<{
      id: number;
      subject_id: number;
    }>();
    if (!legacyTopic) return; // the shipped bank has no legacy topic
    const response = await call(
      "GET",
      `/api/quiz?subjectId=${legacyTopic.subject_id}&topicId=${legacyTopic.id}&count=5`,
      { token: student },
    );
    expect(response.status).toBe(200);
    const quiz = await json<{ questions: { id: number }[] }>(response);
    const byId = await questionsById(quiz.questions.map((q) => q.id));
    expect([...byId.values()].every((q) => q.legacy === 1)).toBe(true);
  });
});

describe("statistics by unit", () => {
  it("the student's analytics carry the units, each topic's unit and the site accuracy per unit", async () => {
    const response = await call("GET", "/api/me/analytics", { token: student });
    expect(response.status).toBe(200);
    const body = await json<{
      subjects: {
        id: number;
        units?: { number: number }[];
        topicUnits?: Record<string, number | null>;
        siteAggregate: { unitAccuracy?: Record<string, number> };
      }[];
    }>(response);
    // The units are the default edition's (issue 29): its syllabus, each topic in the unit most of its
    // questions have in that edition (question_edition_units).
    const edition = (await listEditions(getDb(env.DB))).find((e) => e.isDefault)!;
    for (const subjectId of [1, 2, 4]) {
      const s = body.subjects.find((x) => x.id === subjectId)!;
      const units = edition.format.units.filter((u) => u.subjectId === subjectId);
      expect(s.units?.map((u) => u.number)).toEqual(units.map((u) => u.number));
      const topics = (
        await env.DB.prepare("SELECT id, unit, legacy FROM topics WHERE subject_id = ?")
          .bind(subjectId)
          .all<{ id: number; unit: number | null; legacy: number }>()
      ).results;
      const inEdition = (
        await env.DB.prepare(
          `SELECT q.topic_id AS topicId, u.unit AS unit, count(*) AS n FROM question_edition_units u
           JOIN questions q ON q.id = u.question_id WHERE u.edition_id = ? AND q.subject_id = ? GROUP BY q.topic_id, u.unit`,
        )
          .bind(edition.id, subjectId)
          .all<{ topicId: number; unit: number; n: number }>()
      ).results;
      const expected = editionTopicUnits(inEdition);
      for (const t of topics) expect(s.topicUnits?.[t.id]).toBe(t.legacy ? null : (expected.get(t.id) ?? null));
      // The seeded history answered questions of every subject: every accuracy is a share.
      for (const value of Object.values(s.siteAggregate.unitAccuracy ?? {})) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(Object.keys(s.siteAggregate.unitAccuracy ?? {}).length).toBeGreaterThan(0);
    }
    const math = body.subjects.find((x) => x.id === 3)!;
    expect(math.units).toEqual([]);
  });

  it("the admin analytics list answers and accuracy per unit", async () => {
    const response = await call("GET", "/api/admin/analytics", { token: admin });
    const body = await json<{
      unitAccuracy: { subjectId: number; unit: number; answered: number; correct: number; accuracy: number | null }[];
    }>(response);
    const expected = (await env.DB.prepare("SELECT count(*) AS n FROM units").first<{ n: number }>())!.n;
    expect(body.unitAccuracy).toHaveLength(expected);
    const sample = body.unitAccuracy.find((u) => u.answered > 0)!;
    expect(sample.accuracy).toBeCloseTo(Math.round((sample.correct / sample.answered) * 1000) / 10, 5);
  });
});

describe("fair grading of typed answers in practice", () => {
  it("accepts a number typed with a decimal point and its unit, and the summary shows the sheet's form", async () => {
    const q = await env.DB.prepare(
      "SELECT id, accepted_answers, measure FROM questions WHERE type = 'gap' AND measure IS NOT NULL AND accepted_answers LIKE '[\"%,%' LIMIT 1",
    ).first<{ id: number; accepted_answers: string; measure: string }>();
    expect(q, "the bank has a numeric gap question with a decimal comma and a unit").toBeTruthy();
    const key = (JSON.parse(q!.accepted_answers) as string[])[0]!;
    await answeredBefore("studente@example.com", [q!.id]); // a redo needs the question in the student's history
    const quizResponse = await call("GET", `/api/quiz?ids=${q!.id}`, { token: student });
    expect(quizResponse.status).toBe(200);
    const quiz = await json<{ quizId: number }>(quizResponse);
    const typed = `${key.replace(",", ".")} ${q!.measure}`;
    const submit = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: student,
      json: { answers: [{ question_id: q!.id, answer_text: typed }], timeTaken: 30 },
    });
    expect(submit.status, await submit.clone().text()).toBe(200);
    const { attemptId } = await json<{ attemptId: number }>(submit);
    const summary = await json<{ correct: number; questions: { correct: boolean; sheetForm: string | null }[] }>(
      await call("GET", `/api/attempts/${attemptId}/summary`, { token: student }),
    );
    expect(summary.correct).toBe(1);
    expect(summary.questions[0]).toMatchObject({ correct: true, sheetForm: key });
  });
});
