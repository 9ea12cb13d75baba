// Class progress (issue 32, point 2) on seeded history: accuracy per unit of the default edition over 8 weeks, the
// weakest units, each pupil's trend and forecast band (the same as the pupil's own GET /api/me/forecast), who is
// inactive; only the class's teacher and admins; only pupils who accepted; at most 2 sequential D1 round trips.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { tracedD1 } from "~/server/d1-trace.server";
import { getDb } from "~/server/db/client.server";
import { scoreForecast } from "~/server/learning-advice.server";
import type { ClassProgress } from "~/server/class-progress.server";
import { call, json, login, seed } from "./helpers";

const DAY = 86_400_000;
const base = 7_100_000 + Math.floor(Math.random() * 100_000);
const ids = {
  teacher: base,
  other: base + 1,
  a: base + 2,
  b: base + 3,
  c: base + 4,
  invited: base + 5,
  left: base + 6,
};
let tokens: { teacher: string; other: string; pupil: string; admin: string };
let classId: number;
/** Two units of Chimica in the default edition, each with a few questions. */
let unitX: { unit: number; questions: number[] };
let unitY: { unit: number; questions: number[] };
let chimica: number;

async function user(id: number, role: string, name: string) {
  await env.DB.prepare("INSERT INTO users (id, email, name, role, status) VALUES (?, ?, ?, ?, 'attivo')")
    .bind(id, `prog-${id}@example.com`, name, role)
    .run();
}

/** One completed attempt of `userId` at `at` whose answers are right or wrong as given. */
async function attempt(userId: number, at: number, answers: { questionId: number; right: boolean }[]) {
  const row = await env.DB.prepare(
    `INSERT INTO attempts (user_id, subject_id, status, started_at, finished_at, total, correct, wrong)
     VALUES (?, ?, 'completed', ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      userId,
      chimica,
      at,
      at + 60_000,
      answers.length,
      answers.filter((a) => a.right).length,
      answers.filter((a) => !a.right).length,
    )
    .first<{ id: number }>();
  await env.DB.batch(
    answers.map((a, position) =>
      env.DB.prepare(
        "INSERT INTO attempt_answers (attempt_id, position, question_id, option_id, correct, answered_at) VALUES (?, ?, ?, 0, ?, ?)",
      ).bind(row!.id, position, a.questionId, a.right ? 1 : 0, at + position * 1000),
    ),
  );
}

/** `n` answers cycling over `questions`, the first `right` of them right. */
const answers = (questions: number[], n: number, right: number) =>
  Array.from({ length: n }, (_, i) => ({ questionId: questions[i % questions.length]!, right: i < right }));

async function progress(token: string, id = classId) {
  return call("GET", `/api/classes/${id}/progress`, { token });
}

beforeAll(async () => {
  await seed();
  const now = Date.now();
  await user(ids.teacher, "docente", "Prof Progressi");
  await user(ids.other, "docente", "Prof Altra");
  await user(ids.a, "studente", "Anna Progressi");
  await user(ids.b, "studente", "Bruno Progressi");
  await user(ids.c, "studente", "Carla Progressi");
  await user(ids.invited, "studente", "Dario Invitato");
  await user(ids.left, "studente", "Elena Uscita");
  tokens = {
    teacher: await login(`prog-${ids.teacher}@example.com`),
    other: await login(`prog-${ids.other}@example.com`),
    pupil: await login(`prog-${ids.a}@example.com`),
    admin: await login("admin@example.com"),
  };
  const created = await call("POST", "/api/classes", { token: tokens.teacher, json: { name: "5ªA Progressi" } });
  expect(created.status).toBe(201);
  classId = (await json<{ id: number }>(created)).id;
  await env.DB.batch(
    [ids.a, ids.b, ids.c].map((id) =>
      env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, ?)").bind(classId, id),
    ),
  );
  // Invited but not accepted: not counted, whatever their history.
  await env.DB.prepare("INSERT INTO class_invitations (class_id, email) VALUES (?, ?)")
    .bind(classId, `prog-${ids.invited}@example.com`)
    .run();

  chimica = (await env.DB.prepare("SELECT id FROM subjects WHERE name = 'Chimica'").first<{ id: number }>())!.id;
  const rows = await env.DB.prepare(
    `SELECT qeu.unit, q.id FROM question_edition_units qeu JOIN questions q ON q.id = qeu.question_id
     WHERE qeu.edition_id = (SELECT id FROM exam_editions WHERE is_default = 1) AND q.subject_id = ? AND q.active = 1
     ORDER BY qeu.unit, q.id`,
  )
    .bind(chimica)
    .all<{ unit: number; id: number }>();
  const byUnit = new Map<number, number[]>();
  for (const r of rows.results) byUnit.set(r.unit, [...(byUnit.get(r.unit) ?? []), r.id]);
  const [x, y] = [...byUnit.entries()].filter(([, qs]) => qs.length >= 4);
  unitX = { unit: x![0], questions: x![1].slice(0, 4) };
  unitY = { unit: y![0], questions: y![1].slice(0, 4) };

  // Anna: 50 days ago (the oldest week) 10 answers in unit X, 2 right; yesterday 10 in unit X, 8 right; 10 weeks ago (outside the
  // window, still in her forecast) 20 in unit Y, 10 right.
  await attempt(ids.a, now - 50 * DAY, answers(unitX.questions, 10, 2));
  await attempt(ids.a, now - DAY, answers(unitX.questions, 10, 8));
  await attempt(ids.a, now - 70 * DAY, answers(unitY.questions, 20, 10));
  // Bruno: 10 days ago 10 answers in unit Y, 9 right; silent since.
  await attempt(ids.b, now - 10 * DAY, answers(unitY.questions, 10, 9));
  // Not members: their answers must not count.
  await attempt(ids.invited, now - DAY, answers(unitX.questions, 10, 0));
  await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, ?)").bind(classId, ids.left).run();
  await attempt(ids.left, now - DAY, answers(unitY.questions, 10, 0));
  const left = await call("DELETE", `/api/classes/${classId}/members/${ids.left}`, { token: tokens.teacher });
  expect(left.status).toBe(200);
});

describe("class progress", () => {
  it("gives accuracy per unit of the default edition over 8 weeks, the weakest units, trends and who is inactive", async () => {
    const response = await progress(tokens.teacher);
    expect(response.status, await response.clone().text()).toBe(200);
    const body = await json<ClassProgress>(response);
    expect(body.pupils.map((p) => p.name)).toEqual(["Anna Progressi", "Bruno Progressi", "Carla Progressi"]);

    const unit = (n: number) => body.units.find((u) => u.subjectId === chimica && u.unit === n)!;
    // Unit X: Anna's 20 answers in the window (10 right); the invited pupil's 10 wrong ones are not counted.
    expect(unit(unitX.unit)).toMatchObject({ answered: 20, correct: 10, accuracy: 0.5 });
    // Unit Y: Bruno's 10 (9 right); Anna's 20 are 10 weeks old, the pupil who left is gone.
    expect(unit(unitY.unit)).toMatchObject({ answered: 10, correct: 9, accuracy: 0.9 });
    expect(body.weakest.map((u) => u.unit)).toEqual([unitX.unit, unitY.unit]);
    // Every unit of the edition is listed, answered or not.
    const edition = (await env.DB.prepare("SELECT format FROM exam_editions WHERE is_default = 1").first<{
      format: string;
    }>())!;
    expect(body.units).toHaveLength((JSON.parse(edition.format) as { units: unknown[] }).units.length);

    const anna = body.pupils.find((p) => p.userId === ids.a)!;
    expect(anna.trend.weekly).toHaveLength(8);
    expect(anna.trend.weekly[0]).toBeCloseTo(0.2);
    expect(anna.trend.weekly[7]).toBeCloseTo(0.8);
    expect(anna.trend).toMatchObject({ deltaPp: 60, direction: "su" });
    expect(anna).toMatchObject({ answered: 20, inactive: false, inactiveDays: 1 });
    const bruno = body.pupils.find((p) => p.userId === ids.b)!;
    expect(bruno.trend.deltaPp).toBeNull();
    expect(body.inactive).toEqual([
      { userId: ids.c, name: "Carla Progressi", inactiveDays: null },
      { userId: ids.b, name: "Bruno Progressi", inactiveDays: 10 },
    ]);
  });

  it("gives each pupil the forecast band the learning engine gives them", async () => {
    const body = await json<ClassProgress>(await progress(tokens.teacher));
    const anna = body.pupils.find((p) => p.userId === ids.a)!;
    const own = await scoreForecast(getDb(env.DB), ids.a, body.now);
    const chem = anna.forecast.find((f) => f.subjectId === chimica)!;
    expect(chem.answers).toBe(40);
    const ownChem = own.subjects.find((s) => s.subjectId === chimica)!;
    expect(ownChem.answers).toBe(40);
    // The pupil's own call weighs answers by their exact age (D1 binds `now` as a real number), the class by whole
    // days (groupAnswers' rule): the band agrees to a rounding step.
    for (const key of ["predicted", "low", "high"] as const) {
      expect(chem[key]).not.toBeNull();
      expect(Math.abs(chem[key]! - ownChem[key]!)).toBeLessThanOrEqual(0.11);
    }
    // Bruno has 10 answers: under the engine's minimum, no band.
    const bruno = body.pupils.find((p) => p.userId === ids.b)!;
    expect(bruno.forecast.find((f) => f.subjectId === chimica)).toMatchObject({ predicted: null, answers: 10 });
  });

  it("takes at most 2 sequential D1 round trips (Server-Timing), whatever the class", async () => {
    const response = await progress(tokens.teacher);
    const timing = response.headers.get("Server-Timing") ?? "";
    const sequential = Number(/d1;desc="(\d+) sequential/.exec(timing)?.[1]);
    expect(sequential).toBeGreaterThanOrEqual(1);
    expect(sequential).toBeLessThanOrEqual(2);
  });

  it("is for the class's teacher and admins only; bad ids are a 400, unknown classes a 404", async () => {
    expect((await progress(tokens.admin)).status).toBe(200);
    const other = await progress(tokens.other);
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ error: "Non gestisci questa classe." });
    expect((await progress(tokens.pupil)).status).toBe(403);
    expect((await call("GET", `/api/classes/${classId}/progress`)).status).toBe(401);
    const bad = await call("GET", "/api/classes/abc/progress", { token: tokens.teacher });
    expect(bad.status).toBe(400);
    expect((await json<{ error: string }>(bad)).error).toMatch(/Identificativo non valido/);
    expect((await progress(tokens.teacher, 99_999_999)).status).toBe(404);
  });
});

describe("tracedD1", () => {
  it("counts calls in flight together as one step and calls one after the other as two", async () => {
    const { d1, trace } = tracedD1(env.DB);
    await Promise.all([d1.prepare("SELECT 1").first(), d1.batch([d1.prepare("SELECT 2"), d1.prepare("SELECT 3")])]);
    expect(trace.sequential()).toBe(1);
    await d1.prepare("SELECT ?").bind(4).all();
    expect(trace.sequential()).toBe(2);
    expect(trace.calls).toHaveLength(3);
  });
});

describe("a class of more than 33 pupils", () => {
  it("is invited in one paste (each statement stays under D1's 100 bound values)", async () => {
    const emails = Array.from({ length: 40 }, (_, i) => `incolla-${base}-${i}@example.com`).join("\n");
    const response = await call("POST", `/api/classes/${classId}/members`, { token: tokens.teacher, json: { emails } });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ invited: 40, alreadyMembers: 0, malformed: [] });
  });
});
