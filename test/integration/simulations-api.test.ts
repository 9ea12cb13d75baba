// The simulation calls (student and admin): roles, validation with nothing written, the student view
// without answer keys, the attempt merged with autosave and idempotent, the ranking, delete.
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";
import { call, count, json, login, seed } from "./helpers";

let admin: string;
let student: string;
let friend: string;
let moderator: string;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  student = await login("studente@example.com");
  friend = await login("amico@example.com");
  moderator = await login("moderatore@example.com");
});

const valid = (id: string) => ({
  id,
  title: "Semestre filtro - appello di prova",
  subjects: [
    { subjectId: 2, timeMin: 45, questionCount: 31, breakAfterMin: 15 },
    { subjectId: 4, timeMin: 45, questionCount: 31, breakAfterMin: 15 },
    { subjectId: 1, timeMin: 45, questionCount: 31 },
  ],
  allowedUsers: [1],
});

describe("admin simulation calls", () => {
  it("are for admins only (401 signed out, 403 student and moderator)", async () => {
    expect((await call("GET", "/api/admin/simulations")).status).toBe(401);
    expect((await call("GET", "/api/admin/simulations", { token: student })).status).toBe(403);
    expect((await call("GET", "/api/admin/simulations", { token: moderator })).status).toBe(403);
    expect((await call("POST", "/api/admin/simulations", { token: student, json: valid("sim-x") })).status).toBe(403);
    expect((await call("POST", "/api/admin/simulations/sim-x/start", { token: student })).status).toBe(403);
    expect((await call("DELETE", "/api/admin/simulations/sim-x", { token: moderator })).status).toBe(403);
    expect((await call("GET", "/api/admin/simulations/sim-x/attempts", { token: student })).status).toBe(403);
    expect(await count("simulations", "id = 'sim-x'")).toBe(0);
  });

  it("refuse incomplete forms and invalid question files with the spec's messages, writing nothing", async () => {
    const before = await count("simulations");
    const missingTitle = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { ...valid("sim-bad"), title: "" },
    });
    expect(missingTitle.status).toBe(400);
    expect((await json(missingTitle)).error).toMatch(/^Compila tutti i campi/);
    const noRows = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { ...valid("sim-bad"), subjects: [] },
    });
    expect((await json(noRows)).error).toMatch(/^Compila tutti i campi/);
    const badFile = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { ...valid("sim-bad"), subjects: [{ subjectId: 2, timeMin: 5, questions: ["abc"] }] },
    });
    expect(badFile.status).toBe(400);
    expect((await json(badFile)).error).toMatch(/^File domande non valido/);
    const otherSubject = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { ...valid("sim-bad"), subjects: [{ subjectId: 2, timeMin: 5, questions: [1001] }] },
    });
    expect((await json(otherSubject)).error).toMatch(/^File domande non valido/);
    const badJson = await call("POST", "/api/admin/simulations", {
      token: admin,
      body: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(badJson.status).toBe(400);
    expect(await count("simulations")).toBe(before);
    expect(await count("simulation_subjects", "simulation_id = 'sim-bad'")).toBe(0);
  });

  it("create the semestre filtro day (the default edition: 21 mc + 10 gap per subject), update it, list it, start once, delete", async () => {
    const created = await call("POST", "/api/admin/simulations", { token: admin, json: valid("sim-sf") });
    expect(created.status).toBe(201);
    const mix = await env.DB.prepare(
      `SELECT sq.subject_position AS pos, q.subject_id AS subject, sum(q.type = 'mc') AS mc, sum(q.type = 'gap') AS gap FROM simulation_questions sq
       JOIN questions q ON q.id = sq.question_id WHERE simulation_id = 'sim-sf' GROUP BY sq.subject_position ORDER BY pos`,
    ).all();
    expect(mix.results).toEqual([
      { pos: 0, subject: 2, mc: 21, gap: 10 },
      { pos: 1, subject: 4, mc: 21, gap: 10 },
      { pos: 2, subject: 1, mc: 21, gap: 10 },
    ]);
    // Update with an imported question file: its ids fix the count.
    const update = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: {
        ...valid("sim-sf"),
        title: "Aggiornata",
        subjects: [{ subjectId: 2, timeMin: 10, questions: [2001, { id: 2002 }, 2003] }],
      },
    });
    expect(update.status).toBe(200);
    const list = await json<
      { id: string; title: string; started: boolean; subjects: { questionCount: number; questions: number[] }[] }[]
    >(await call("GET", "/api/admin/simulations", { token: admin }));
    const sim = list.find((s) => s.id === "sim-sf")!;
    expect(sim).toMatchObject({
      title: "Aggiornata",
      started: false,
      subjects: [{ questionCount: 3, questions: [2001, 2002, 2003] }],
    });

    expect((await call("POST", "/api/admin/simulations/sim-nessuna/start", { token: admin })).status).toBe(404);
    const start = await call("POST", "/api/admin/simulations/sim-sf/start", { token: admin });
    expect(start.status).toBe(200);
    expect((await call("POST", "/api/admin/simulations/sim-sf/start", { token: admin })).status).toBe(409);
    const locked = await call("POST", "/api/admin/simulations", { token: admin, json: valid("sim-sf") });
    expect(locked.status).toBe(409);

    expect((await call("DELETE", "/api/admin/simulations/sim-sf", { token: admin })).status).toBe(200);
    expect(await count("simulations", "id = 'sim-sf'")).toBe(0);
    expect(await count("simulation_questions", "simulation_id = 'sim-sf'")).toBe(0);
    expect((await call("DELETE", "/api/admin/simulations/sim-sf", { token: admin })).status).toBe(404);
  });

  it("accept a class of 150 allowed users (more than D1's 100 variables per query) and refuse an unknown one", async () => {
    const values = Array.from({ length: 150 }, (_, i) => `('classe-${i}@example.com', 'Classe ${i}')`).join(",");
    await env.DB.prepare(`INSERT OR IGNORE INTO users (email, name) VALUES ${values}`).run();
    const ids = (
      await env.DB.prepare("SELECT id FROM users WHERE email LIKE 'classe-%'").all<{ id: number }>()
    ).results.map((r) => r.id);
    expect(ids).toHaveLength(150);
    const response = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { ...valid("sim-class"), allowedUsers: ids },
    });
    expect(response.status).toBe(201);
    expect(await count("simulation_allowed_users", "simulation_id = 'sim-class'")).toBe(150);
    const unknown = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { ...valid("sim-class-2"), allowedUsers: [...ids, 99_999_999] },
    });
    expect(unknown.status).toBe(400);
    expect(await count("simulations", "id = 'sim-class-2'")).toBe(0);
  });
});

describe("student simulation calls", () => {
  it("GET shows the flow without questions before the start, and only opened subjects' questions (never a key) after", async () => {
    await call("POST", "/api/admin/simulations", {
      token: admin,
      json: {
        ...valid("sim-view"),
        subjects: [
          { subjectId: 2, timeMin: 1, questionCount: 3 },
          { subjectId: 4, timeMin: 1, questionCount: 3 },
        ],
      },
    });
    const before = await json<{
      started: boolean;
      startTime: null;
      flow: { id: number; name: string; timeMin: number; questions: unknown[]; questionCount: number }[];
    }>(await call("GET", "/api/simulations/sim-view", { token: student }));
    expect(before).toMatchObject({
      started: false,
      startTime: null,
      flow: [
        { id: 2, name: "Chimica", timeMin: 1, questions: [], questionCount: 3 },
        { id: 4, name: "Fisica" },
      ],
    });
    await call("POST", "/api/admin/simulations/sim-view/start", { token: admin });
    await env.DB.prepare(
      "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id = 'sim-view'",
    )
      .bind(Date.now() - 1000)
      .run();
    const after = await json<{ started: boolean; flow: { questions: Record<string, unknown>[] }[] }>(
      await call("GET", "/api/simulations/sim-view", { token: student }),
    );
    expect(after.started).toBe(true);
    expect(after.flow[0]!.questions).toHaveLength(3);
    expect(after.flow[1]!.questions).toHaveLength(0);
    for (const q of after.flow[0]!.questions)
      expect(Object.keys(q).sort()).toEqual(expect.arrayContaining(["id", "text", "type"]));
    expect(JSON.stringify(after)).not.toMatch(/correct|accepted|explanation|answerIndex|answerText/i);
    expect((await call("GET", "/api/simulations/sim-view", { token: friend })).status).toBe(403);
    expect((await call("GET", "/api/simulations/nessuna", { token: student })).status).toBe(404);
    expect((await call("GET", "/api/simulations/bad%20id", { token: student })).status).toBe(400);
  });

  it("POST attempt: bad payload is a 400 and writes nothing; near the end it merges with autosave and is idempotent", async () => {
    await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { ...valid("sim-att"), subjects: [{ subjectId: 2, timeMin: 1, questions: [2001, 2002] }] },
    });
    const notStarted = await call("POST", "/api/simulations/sim-att/attempt", {
      token: student,
      json: { answers: {}, timeTaken: 1 },
    });
    expect(notStarted.status).toBe(409);
    await call("POST", "/api/admin/simulations/sim-att/start", { token: admin });
    const bad = await call("POST", "/api/simulations/sim-att/attempt", {
      token: student,
      json: { answers: { "2": { "2001": 5 } }, timeTaken: 10 },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toBeTruthy();
    const negative = await call("POST", "/api/simulations/sim-att/attempt", {
      token: student,
      json: { answers: {}, timeTaken: -1 },
    });
    expect(negative.status).toBe(400);
    expect(
      (await call("POST", "/api/simulations/sim-att/attempt", { token: friend, json: { answers: {}, timeTaken: 1 } }))
        .status,
    ).toBe(403);

    // 1 s before the end (of a 1-minute subject): the submission is merged, graded after the grace.
    const startTime = Date.now() - 59_000;
    await env.DB.prepare(
      "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id = 'sim-att'",
    )
      .bind(startTime)
      .run();
    const room = env.SIMULATION_ROOM.get(env.SIMULATION_ROOM.idFromName("sim-att:0"));
    await runInDurableObject(room, async (r: SimulationRoom) => r.shiftStartForTest(startTime));
    const q1 = await env.DB.prepare("SELECT options, correct_index FROM questions WHERE id = 2001").first<{
      options: string;
      correct_index: number;
    }>();
    const right = JSON.parse(q1!.options)[q1!.correct_index];
    const first = await call("POST", "/api/simulations/sim-att/attempt", {
      token: student,
      json: { answers: { "2": { "2001": right } }, timeTaken: 59 },
    });
    expect(first.status).toBe(200);
    const body = await json<{ attemptId: number; result: { totale: number; percTot: number; subjects: unknown[] } }>(
      first,
    );
    expect(body.result).toMatchObject({
      totale: 16,
      percTot: 50,
      subjects: [{ id: 2, name: "Chimica", score31: 16, perc: 50, correct: 1, total: 2 }],
    });
    const again = await call("POST", "/api/simulations/sim-att/attempt", {
      token: student,
      json: { answers: { "2": { "2002": "x" } }, timeTaken: 60 },
    });
    expect((await json(again)).attemptId).toBe(body.attemptId);
    expect(await count("simulation_attempts", "simulation_id = 'sim-att'")).toBe(1);

    const ranking = await json(await call("GET", "/api/simulations/sim-att/ranking", { token: student }));
    expect(ranking).toMatchObject({
      pos: 1,
      position: 1,
      percentile: 100,
      ranking: [{ userId: 1, pos: 1, score: 16 }],
    });
    const attempts = await json<unknown[]>(
      await call("GET", "/api/admin/simulations/sim-att/attempts", { token: admin }),
    );
    expect(attempts).toMatchObject([{ id: body.attemptId, userId: 1, score: 16, pos: 1 }]);
  });
});
