// The quiz screen's writes go through its route action (issue 19): POST /test with the draw form creates the quiz
// and redirects to /test?id=, and POST /test with the runner's JSON submits it, through the same services (and
// the same rules) as GET /api/quiz and POST /api/quiz/{id}/attempt.
import { beforeAll, describe, expect, it } from "vitest";
import { call, count, json, login, seed, send } from "./helpers";

let student: string;
let other: string;

beforeAll(async () => {
  await seed();
  student = await login("studente@example.com");
  other = await login("amico@example.com");
});

function postForm(fields: Record<string, string>, token: string, path = "/test") {
  return send(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

function postJson(body: unknown, token: string, path = "/test") {
  return call("POST", path, { token, json: body });
}

/** The reply of an action (React Router's data() in the static handler). */
async function reply(response: Response) {
  const body = await json<{
    data?: { result: { error?: Record<string, string[]> } };
    result?: { error?: Record<string, string[]> };
  }>(response);
  return body.data ?? body;
}

describe("POST /test (a new quiz)", () => {
  it("draws and stores the quiz, then redirects to the runner with its id", async () => {
    const before = await count("quizzes");
    const response = await postForm({ subjectId: "5", count: "4", time: "120" }, student);
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^\/test\?id=\d+$/);
    expect(await count("quizzes")).toBe(before + 1);
    const quizId = Number(location.split("=")[1]);
    const quiz = await env_quiz(quizId);
    expect(quiz).toMatchObject({ subject_id: 5, time_limit_sec: 120, n: 4 });
  });

  it("refuses a bad request with the Italian message of GET /api/quiz, and stores nothing", async () => {
    const before = await count("quizzes");
    const bad = await postForm({ subjectId: "abc" }, student);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await reply(bad))).toContain("Id della materia non valido");
    const api = await call("GET", "/api/quiz?subjectId=abc", { token: student });
    expect((await json<{ error: string }>(api)).error).toContain("Id della materia non valido");
    const none = await postForm({ count: "5" }, student);
    expect(none.status).toBe(400);
    expect(JSON.stringify(await reply(none))).toContain("Scegli una materia");
    expect(await count("quizzes")).toBe(before);
  });

  it("sends a signed-out visitor to /login and stores nothing", async () => {
    const before = await count("quizzes");
    const response = await send(
      new Request("http://localhost/test", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "subjectId=5&count=3",
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?next=/);
    expect(await count("quizzes")).toBe(before);
  });
});

describe("POST /test (the runner's submission)", () => {
  async function drawn(token: string) {
    const response = await postForm({ subjectId: "5", count: "3" }, token);
    return Number(response.headers.get("Location")!.split("=")[1]);
  }

  it("grades the attempt once and redirects to its summary; a second submission changes nothing", async () => {
    const quizId = await drawn(student);
    const first = await postJson({ quizId, answers: [], timeTaken: 30 }, student);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toMatch(/^\/test\/riepilogo\/\d+$/);
    const completed = await count("attempts", `quiz_id = ${quizId} AND status = 'completed'`);
    expect(completed).toBe(1);
    const again = await postJson({ quizId, answers: [], timeTaken: 31 }, student);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await count("attempts", `quiz_id = ${quizId} AND status = 'completed'`)).toBe(1);
  });

  it("refuses someone else's quiz and a malformed body with Italian messages, writing nothing", async () => {
    const quizId = await drawn(student);
    const foreign = await postJson({ quizId, answers: [], timeTaken: 30 }, other);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(await reply(foreign))).toContain("Quiz non trovato.");
    const malformed = await postJson({ quizId, answers: "tutte", timeTaken: -1 }, student);
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(await reply(malformed))).toContain("Le risposte devono essere un elenco");
    expect(await count("attempts", `quiz_id = ${quizId} AND status = 'completed'`)).toBe(0);
  });
});

async function env_quiz(id: number) {
  const { env } = await import("cloudflare:test");
  return env.DB.prepare(
    "SELECT subject_id, time_limit_sec, (SELECT count(*) FROM quiz_questions WHERE quiz_id = quizzes.id) AS n FROM quizzes WHERE id = ?",
  )
    .bind(id)
    .first();
}

describe("POST /segnalato (a report from the dialog)", () => {
  it("stores the report like POST /api/report-question; a bad one gets the same Italian message and stores nothing", async () => {
    const before = await count("reports");
    const ok = await postForm({ questionId: "5001", message: "Il testo ha un refuso." }, student, "/segnalato");
    expect(ok.status).toBe(200);
    expect(await count("reports")).toBe(before + 1);
    const long = "x".repeat(2001);
    const bad = await postForm({ questionId: "5001", message: long }, student, "/segnalato");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await reply(bad))).toContain("Il messaggio supera i 2000 caratteri");
    const api = await call("POST", "/api/report-question", {
      token: student,
      json: { questionId: 5001, message: long },
    });
    expect((await json<{ error: string }>(api)).error).toContain("Il messaggio supera i 2000 caratteri");
    const missing = await postForm({ questionId: "999999", message: "?" }, student, "/segnalato");
    expect(missing.status).toBe(404);
    expect(JSON.stringify(await reply(missing))).toContain("Domanda non trovata.");
    expect(await count("reports")).toBe(before + 1);
  });
});
