// The learning engine against the real D1: memory written by every grading path (once), the review of
// the day, the forecast, the targeted draw and the peer difficulty.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { REVIEW_COOLDOWN_MS } from "~/lib/constants";
import { gradeSimulation } from "~/lib/simulation";
import { getDb } from "~/server/db/client.server";
import { rebuildLearningMemory } from "~/server/learning.server";
import { answerKeysOf, loadSimulation } from "../../app/server/simulation/plan.server";
import { saveSimulation } from "../../app/server/simulation/admin.server";
import { writeGradedAttempts } from "../../app/server/simulation/grading.server";
import { call, count, json, login, seed } from "./helpers";

type Quiz = { quizId: number; questions: { id: number; type: "mc" | "gap"; difficulty: number }[] };
type Due = {
  count: number;
  due: {
    questionId: number;
    subjectId: number;
    topicId: number | null;
    dueAt: string;
    lastAnswerCorrect: boolean | null;
  }[];
};
type Forecast = {
  subjects: {
    subjectId: number;
    name: string;
    predicted: number | null;
    low: number | null;
    high: number | null;
    answers: number;
    passProbability: number | null;
  }[];
  section: { section: number; probability: number } | null;
};
type Memory = {
  user_id: number;
  question_id: number;
  due: number;
  reps: number;
  last_review: number;
  last_correct: number | null;
  stability: number;
};
type BankRow = { id: number; type: string; correct_index: number | null; accepted_answers: string | null };

const DAY = 24 * 60 * 60 * 1000;
let admin: string;
let nextUser = 9000;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
});

/** A new student with no history, so each test starts from a clean slate (and a retry too). */
async function freshStudent(): Promise<{ id: number; token: string }> {
  const id = nextUser++ + Math.floor(Math.random() * 1_000_000);
  const email = `learner${id}@example.com`;
  await env.DB.prepare("INSERT INTO users (id, email, name, role, status) VALUES (?, ?, ?, 'studente', 'attivo')")
    .bind(id, email, `Learner ${id}`)
    .run();
  return { id, token: await login(email) };
}

async function draw(token: string, query: string): Promise<Quiz> {
  const response = await call("GET", `/api/quiz?${query}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Quiz>(response);
}

/**
 * A quiz the server serves this student with exactly these questions, as a practice draw does (quiz, its
 * questions, the attempt in progress). A redo of ids needs answered history (simulation/seal.server.ts), which a
 * fresh student does not have, and a random draw would not pick these ids.
 */
async function serve(userId: number, token: string, ids: number[]): Promise<Quiz> {
  const now = Date.now();
  const quiz = await env.DB.prepare(
    "INSERT INTO quizzes (user_id, kind, created_at) VALUES (?, 'random', ?) RETURNING id",
  )
    .bind(userId, now)
    .first<{ id: number }>();
  await env.DB.batch([
    ...ids.map((id, position) =>
      env.DB.prepare("INSERT INTO quiz_questions (quiz_id, position, question_id) VALUES (?, ?, ?)").bind(
        quiz!.id,
        position,
        id,
      ),
    ),
    env.DB.prepare(
      "INSERT INTO attempts (user_id, quiz_id, status, started_at, total) VALUES (?, ?, 'in_progress', ?, ?)",
    ).bind(userId, quiz!.id, now, ids.length),
  ]);
  const response = await call("GET", `/api/quiz/${quiz!.id}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Quiz>(response);
}

async function bank(ids: number[]): Promise<Map<number, BankRow>> {
  const { results } = await env.DB.prepare(
    `SELECT id, type, correct_index, accepted_answers FROM questions WHERE id IN (${ids.join(",")})`,
  ).all<BankRow>();
  return new Map(results.map((r) => [r.id, r]));
}

async function answer(id: number, right: boolean, timeSec = 5) {
  const row = (await bank([id])).get(id)!;
  if (row.type === "mc")
    return { question_id: id, option_id: right ? row.correct_index : (row.correct_index! + 1) % 5, time_sec: timeSec };
  return {
    question_id: id,
    answer_text: right ? (JSON.parse(row.accepted_answers!) as string[])[0] : "sbagliato",
    time_sec: timeSec,
  };
}

async function memory(userId: number): Promise<Map<number, Memory>> {
  const { results } = await env.DB.prepare("SELECT * FROM question_memory WHERE user_id = ?")
    .bind(userId)
    .all<Memory>();
  return new Map(results.map((m) => [m.question_id, m]));
}

async function peerAnswered(questionId: number): Promise<number> {
  return (
    (
      await env.DB.prepare("SELECT answered FROM stat_question_accuracy WHERE question_id = ?")
        .bind(questionId)
        .first<{ answered: number }>()
    )?.answered ?? 0
  );
}

const KEY_FIELDS = /answerIndex|correct_index|correctIndex|accepted|explanation|correctText/;

describe("GET /api/review/due", () => {
  it("a wrong answer is due 24 h later, a right one days later; no answer keys; bad horizon → 400 in Italian", async () => {
    const { id, token } = await freshStudent();
    const quiz = await serve(id, token, [2001, 2002]);
    const started = Date.now();
    const submit = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token,
      json: { answers: [await answer(2001, false), await answer(2002, true)], timeTaken: 10 },
    });
    expect(submit.status).toBe(200);
    const m = await memory(id);
    expect(m.get(2001)!.last_correct).toBe(0);
    expect(m.get(2001)!.due - m.get(2001)!.last_review).toBe(REVIEW_COOLDOWN_MS);
    expect(m.get(2002)!.last_correct).toBe(1);
    expect(m.get(2002)!.due - m.get(2002)!.last_review).toBeGreaterThanOrEqual(2 * DAY);
    expect(m.get(2001)!.last_review).toBeGreaterThanOrEqual(started);

    // Due now: nothing yet (the 24 h pause). Within a day: the wrong one. Within 30 days: both.
    expect(await json<Due>(await call("GET", "/api/review/due", { token }))).toEqual({ count: 0, due: [] });
    const day = await call("GET", "/api/review/due?horizon=1d", { token });
    const dayText = await day.clone().text();
    expect(dayText).not.toMatch(KEY_FIELDS);
    const dayBody = await json<Due>(day);
    expect(dayBody.count).toBe(1);
    expect(dayBody.due[0]).toEqual({
      questionId: 2001,
      subjectId: 2,
      topicId: expect.any(Number),
      dueAt: new Date(m.get(2001)!.due).toISOString(),
      lastAnswerCorrect: false,
    });
    const month = await json<Due>(await call("GET", "/api/review/due?horizon=30d", { token }));
    expect(month.due.map((d) => d.questionId)).toEqual([2001, 2002]);
    expect((await json<Due>(await call("GET", "/api/review/due?horizon=24h", { token }))).count).toBe(1);

    for (const bad of ["1w", "31d", "721h", "-1d", "abc", "1.5d", "d"]) {
      const response = await call("GET", `/api/review/due?horizon=${encodeURIComponent(bad)}`, { token });
      expect(response.status, bad).toBe(400);
      expect((await json<{ error: string }>(response)).error).toMatch(/^Orizzonte non valido/);
    }
    expect((await call("GET", "/api/review/due")).status).toBe(401);
    expect((await call("GET", "/api/me/forecast")).status).toBe(401);
  });

  it("the demo student has questions due from the seeded history", async () => {
    const token = await login("studente@example.com");
    const body = await json<Due>(await call("GET", "/api/review/due", { token }));
    expect(body.count).toBeGreaterThan(0);
    expect(body.count).toBe(body.due.length);
    const times = body.due.map((d) => Date.parse(d.dueAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.every((t) => t <= Date.now())).toBe(true);
  });
});

describe("memory is written once per graded answer, on every path", () => {
  it("a retried or concurrent quiz submission (practice, redo) counts once", async () => {
    const { id, token } = await freshStudent();
    const before = await peerAnswered(4001);
    const quiz = await serve(id, token, [4001, 4002, 4003]);
    const body = { answers: [await answer(4001, true), await answer(4002, false)], timeTaken: 20 };
    const results = await Promise.all(
      [1, 2, 3].map(() => call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token, json: body })),
    );
    for (const r of results) expect(r.status).toBe(200);
    await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token, json: body });
    const m = await memory(id);
    expect([...m.keys()].sort()).toEqual([4001, 4002, 4003]);
    for (const row of m.values()) expect(row.reps).toBe(1);
    expect(m.get(4003)!.last_correct).toBeNull(); // blank → Again
    expect(await peerAnswered(4001)).toBe(before + 1);

    // A later redo of the same question is one more review.
    const redo = await draw(token, "ids=4001");
    await call("POST", `/api/quiz/${redo.quizId}/attempt`, {
      token,
      json: { answers: [await answer(4001, true)], timeTaken: 5 },
    });
    expect((await memory(id)).get(4001)!.reps).toBe(2);
  });

  it("POST /api/grade with the same idempotency key counts once", async () => {
    const { id, token } = await freshStudent();
    await serve(id, token, [1001, 1002]); // /api/grade submits the open quiz that served these questions
    const body = {
      answers: [await answer(1001, false), await answer(1002, true, 200)],
      timeTaken: 30,
      idempotencyKey: `learn-${id}`,
    };
    const [a, b] = await Promise.all([
      call("POST", "/api/grade", { token, json: body }),
      call("POST", "/api/grade", { token, json: body }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await call("POST", "/api/grade", { token, json: body });
    const m = await memory(id);
    expect(m.get(1001)!.reps).toBe(1);
    expect(m.get(1002)!.reps).toBe(1);
    // A right answer slower than the exam's pace (Hard) comes back sooner than a quick one (Good).
    const quick = await freshStudent();
    await serve(quick.id, quick.token, [1002]);
    await call("POST", "/api/grade", {
      token: quick.token,
      json: { answers: [await answer(1002, true, 10)], timeTaken: 10 },
    });
    expect((await memory(quick.id)).get(1002)!.due - (await memory(quick.id)).get(1002)!.last_review).toBeGreaterThan(
      m.get(1002)!.due - m.get(1002)!.last_review,
    );
  });

  it("a simulation's grading write updates the memories once, even when it runs again", async () => {
    const { id } = await freshStudent();
    const other = await freshStudent();
    const db = getDb(env.DB);
    const simId = `learn-sim-${id}`;
    await saveSimulation(
      db,
      {
        id: simId,
        title: "Ripasso",
        subjects: [{ subjectId: 2, timeMin: 5, questions: [2001, 2002, 2003] }],
        allowedUsers: [id, other.id],
      } as never,
      { id: 1, effectiveRole: "admin" } as never,
    );
    const config = (await loadSimulation(db, simId))!;
    const keys = answerKeysOf(config);
    const rows = await bank([2001]);
    const mcRight =
      rows.get(2001)!.type === "mc"
        ? config.subjects[0]!.questions.find((q) => q.id === 2001)!.options![rows.get(2001)!.correct_index!]!
        : JSON.parse(rows.get(2001)!.accepted_answers!)[0];
    const answers = { "2": { "2001": mcRight } };
    const graded = [{ userId: id, answers, result: gradeSimulation(keys, answers), timeSec: 100 }];
    await writeGradedAttempts(env.DB, simId, 0, graded, Date.now(), keys);
    await writeGradedAttempts(env.DB, simId, 0, graded, Date.now() + 5, keys); // a rerun: nothing new
    const m = await memory(id);
    expect(m.get(2001)).toMatchObject({ reps: 1, last_correct: 1 });
    expect(m.get(2002)).toMatchObject({ reps: 1, last_correct: null });
    expect(m.size).toBe(3);
    expect(await count("simulation_attempts", `simulation_id = '${simId}'`)).toBe(1);

    // recalc-stats rebuilds the same memories from history.
    const rebuilt = await call("POST", "/api/admin/recalc-stats", { token: admin });
    expect(rebuilt.status).toBe(200);
    const after = await memory(id);
    for (const [q, row] of m)
      expect(after.get(q)).toMatchObject({ due: row.due, reps: row.reps, last_correct: row.last_correct });
  });

  it("recalc-stats keeps a simulation's typed answer right when it is right only with the unit or the tolerance", async () => {
    const { id } = await freshStudent();
    const db = getDb(env.DB);
    // Two Fisica gap questions of our own (kept out of every draw): 12 m/s, with a tolerance of 0.5 on the second.
    for (const [qid, tolerance] of [
      [94001, null],
      [94002, 0.5],
    ] as const) {
      await env.DB.prepare(
        `INSERT OR REPLACE INTO questions (id, subject_id, type, stem, accepted_answers, measure, tolerance, active)
         VALUES (?, 4, 'gap', 'Velocità finale: ___ m/s', '["12"]', 'm/s', ?, 0)`,
      )
        .bind(qid, tolerance)
        .run();
    }
    const simId = `learn-units-${id}`;
    await saveSimulation(
      db,
      {
        id: simId,
        title: "Unità",
        subjects: [{ subjectId: 4, timeMin: 5, questions: [94001, 94002] }],
        allowedUsers: [id],
      } as never,
      { id: 1, effectiveRole: "admin" } as never,
    );
    const keys = answerKeysOf((await loadSimulation(db, simId))!);
    // "12 m/s" is right only because the unit is the question's; "12,3" only within the tolerance.
    const answers = { "4": { "94001": "12 m/s", "94002": "12,3" } };
    const result = gradeSimulation(keys, answers);
    expect(result.subjects[0]).toMatchObject({ correct: 2, wrong: 0 });
    await writeGradedAttempts(env.DB, simId, 0, [{ userId: id, answers, result, timeSec: 60 }], Date.now(), keys);
    const graded = await memory(id);
    expect(graded.get(94001)).toMatchObject({ reps: 1, last_correct: 1 });
    expect(graded.get(94002)).toMatchObject({ reps: 1, last_correct: 1 });

    expect((await call("POST", "/api/admin/recalc-stats", { token: admin })).status).toBe(200);
    const rebuilt = await memory(id);
    for (const q of [94001, 94002]) {
      expect(rebuilt.get(q), String(q)).toMatchObject({ reps: 1, last_correct: 1, due: graded.get(q)!.due });
    }
  });

  it("recalc-stats replays practice history into the same state the grading write built", async () => {
    const { id, token } = await freshStudent();
    for (const right of [false, true, true]) {
      const quiz = await serve(id, token, [5001, 5002]);
      await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
        token,
        json: { answers: [await answer(5001, right), await answer(5002, !right)], timeTaken: 10 },
      });
    }
    const live = await memory(id);
    await rebuildLearningMemory(getDb(env.DB));
    const rebuilt = await memory(id);
    for (const q of [5001, 5002]) {
      expect(rebuilt.get(q)).toMatchObject({ due: live.get(q)!.due, reps: 3, last_correct: live.get(q)!.last_correct });
      expect(rebuilt.get(q)!.stability).toBeCloseTo(live.get(q)!.stability, 6);
    }
  });
});

describe("memories go with their user or question (issue 31: no foreign keys, triggers)", () => {
  const remember = async (userId: number, questionIds: number[]) => {
    for (const q of questionIds)
      await env.DB.prepare(
        `INSERT INTO question_memory (user_id, question_id, due, stability, difficulty, last_review, last_correct)
         VALUES (?, ?, ?, 1, 5, ?, 1)`,
      )
        .bind(userId, q, Date.now() + DAY, Date.now())
        .run();
  };
  const memories = (where: string) => count("question_memory", where);

  it("account deletion, an admin's deletion and a question's deletion delete the memories, nobody else's", async () => {
    const kept = await freshStudent();
    const self = await freshStudent();
    const removed = await freshStudent();
    await env.DB.prepare(
      `INSERT OR REPLACE INTO questions (id, subject_id, type, stem, accepted_answers, active)
       VALUES (94101, 4, 'gap', 'Quanto fa 2 + 2? ___', '["4"]', 0)`,
    ).run();
    for (const user of [kept, self, removed]) await remember(user.id, [2001, 2002, 94101]);

    const own = await call("DELETE", "/api/profile", { token: self.token, json: { confirm: "ELIMINA" } });
    expect(own.status).toBe(200);
    expect(await memories(`user_id = ${self.id}`)).toBe(0);

    expect((await call("DELETE", `/api/admin/users/${removed.id}`, { token: admin })).status).toBe(200);
    expect(await memories(`user_id = ${removed.id}`)).toBe(0);

    await env.DB.prepare("DELETE FROM questions WHERE id = 94101").run();
    expect(await memories("question_id = 94101")).toBe(0);
    // The one left keeps the memories of questions that still exist.
    expect(await memories(`user_id = ${kept.id}`)).toBe(2);
  });
});

describe("GET /api/me/forecast", () => {
  it("Chimica, Fisica, Biologia always; null under 30 answers; an interval around the prediction after", async () => {
    const { token } = await freshStudent();
    const empty = await json<Forecast>(await call("GET", "/api/me/forecast", { token }));
    expect(empty.subjects.map((s) => s.name)).toEqual(["Chimica", "Fisica", "Biologia"]);
    expect(empty.subjects.every((s) => s.predicted === null && s.answers === 0)).toBe(true);

    // 31 answers in Fisica, 29 right: a high forecast with an interval.
    const quiz = await draw(token, "subjectId=4&count=31");
    const answers = await Promise.all(quiz.questions.map((q, i) => answer(q.id, i >= 2)));
    await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token, json: { answers, timeTaken: 300 } });
    const body = await json<Forecast>(await call("GET", "/api/me/forecast", { token }));
    const fisica = body.subjects.find((s) => s.subjectId === 4)!;
    expect(fisica.answers).toBe(31);
    expect(fisica.predicted!).toBeGreaterThan(20);
    expect(fisica.low!).toBeLessThan(fisica.predicted!);
    expect(fisica.high!).toBeGreaterThan(fisica.predicted!);
    expect(fisica.high!).toBeLessThanOrEqual(31);
    expect(body.subjects.find((s) => s.subjectId === 2)!.predicted).toBeNull();
  });

  it("the demo student gets a forecast for the exam subjects, P(≥ 18) for each and the expected ranking section", async () => {
    const token = await login("studente@example.com");
    const body = await json<Forecast>(await call("GET", "/api/me/forecast", { token }));
    expect(body.subjects.slice(0, 3).map((s) => s.name)).toEqual(["Chimica", "Fisica", "Biologia"]);
    expect(body.subjects.filter((s) => s.predicted != null).length).toBeGreaterThan(0);
    const exams = body.subjects.slice(0, 3);
    expect(exams.every((s) => s.passProbability != null && s.passProbability >= 0 && s.passProbability <= 1)).toBe(
      true,
    );
    // A better forecast never has a smaller chance of 18.
    const sorted = [...exams].sort((a, b) => a.predicted! - b.predicted!);
    expect(sorted[0]!.passProbability!).toBeLessThanOrEqual(sorted[2]!.passProbability! + 1e-9);
    expect([300, 200, 100, 0]).toContain(body.section!.section);
    expect(body.section!.probability).toBeGreaterThan(0.25);
  });
});

describe("Test mirato and peer difficulty", () => {
  it("draws due questions far more often than a random draw would", async () => {
    const { id, token } = await freshStudent();
    // Every Fisica question seen and scheduled later, five of them due now.
    const { results } = await env.DB.prepare(
      "SELECT id FROM questions WHERE subject_id = 4 AND active = 1 ORDER BY id",
    ).all<{ id: number }>();
    const ids = results.map((r) => r.id);
    const dueIds = ids.filter((_, i) => i % 10 === 0); // a tenth of the bank due now
    const now = Date.now();
    const stmt = env.DB.prepare(
      "INSERT INTO question_memory (user_id, question_id, due, stability, difficulty, reps, state, last_review, last_correct) VALUES (?, ?, ?, 5, 5, 1, 2, ?, 1)",
    );
    await env.DB.batch(
      ids.map((q) => stmt.bind(id, q, dueIds.includes(q) ? now - DAY : now + 10 * DAY, now - 5 * DAY)),
    );
    let dueDrawn = 0;
    for (let i = 0; i < 10; i++) {
      const quiz = await draw(token, "subjectId=4&count=10&mode=mirato");
      expect(quiz.questions).toHaveLength(10);
      expect(new Set(quiz.questions.map((q) => q.id)).size).toBe(10);
      expect(JSON.stringify(quiz)).not.toMatch(KEY_FIELDS);
      dueDrawn += quiz.questions.filter((q) => dueIds.includes(q.id)).length;
    }
    // A random draw expects 10 × 10 × 1/10 = 10 of them; the due weight (×3 against ×0.5) makes it about 40.
    expect(dueDrawn).toBeGreaterThanOrEqual(25);
    const bad = await call("GET", "/api/quiz?subjectId=4&count=10&mode=furbo", { token });
    expect(bad.status).toBe(400);
    expect((await json<{ error: string }>(bad)).error).toMatch(/Modalità non valida/);
  });

  it("shows the peers' difficulty after 20 answers instead of the author's", async () => {
    const { id, token } = await freshStudent();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT OR REPLACE INTO stat_question_accuracy (question_id, answered, correct) VALUES (3001, 40, 4)",
      ),
      env.DB.prepare(
        "INSERT OR REPLACE INTO stat_question_accuracy (question_id, answered, correct) VALUES (3002, 19, 0)",
      ),
      env.DB.prepare("UPDATE questions SET difficulty = 2 WHERE id IN (3001, 3002)"),
    ]);
    const quiz = await serve(id, token, [3001, 3002]);
    expect(quiz.questions.find((q) => q.id === 3001)!.difficulty).toBe(5); // 10 % right: Difficile
    expect(quiz.questions.find((q) => q.id === 3002)!.difficulty).toBe(2); // too few answers: the author's
  });
});
