// Compiti (issue 32): a teacher assigns a practice set to their own class; members start it with one button and it is
// graded like practice (keys sealed until each pupil submits); the teacher sees done / late / not done, score, time and
// the per-question table, of accepted members only. Bad input is a 4xx with an Italian message and writes nothing.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { assignmentCsv, type AssignmentReport } from "~/lib/assignments";
import { parseCsv } from "~/lib/csv";
import { insertUser } from "./analytics-fixtures";
import { call, count, json, login, seed } from "./helpers";

const DAY = 86_400_000;
const PUPIL_A = 9801;
const PUPIL_B = 9802;
const PUPIL_C = 9803; // a member who never starts
const INVITED = 9804; // invited, has not accepted
const STRANGER = 9805; // in no class
let teacher: string;
let otherTeacher: string;
let pupilA: string;
let pupilB: string;
let invited: string;
let stranger: string;
let classId: number;
let run = 0;

beforeAll(async () => {
  await seed();
  await env.DB.prepare(
    "INSERT OR IGNORE INTO users (id, email, name, username, role, status, share_code) VALUES (9800, 'docente.compiti@example.com', 'Dora Compiti', 'dora.compiti', 'docente', 'attivo', 'U09800')",
  ).run();
  await insertUser(PUPIL_A, "compiti.anna@example.com", "compiti.anna", "Anna Puntuale");
  await insertUser(PUPIL_B, "compiti.bruno@example.com", "compiti.bruno", "Bruno Ritardo");
  await insertUser(PUPIL_C, "compiti.carlo@example.com", "compiti.carlo", "Carlo Assente");
  await insertUser(INVITED, "compiti.invitata@example.com", "compiti.invitata", "Ines Invitata");
  await insertUser(STRANGER, "compiti.estraneo@example.com", "compiti.estraneo", "Elio Estraneo");
  [teacher, otherTeacher, pupilA, pupilB, invited, stranger] = await Promise.all([
    login("docente@example.com"),
    login("docente.compiti@example.com"),
    login("compiti.anna@example.com"),
    login("compiti.bruno@example.com"),
    login("compiti.invitata@example.com"),
    login("compiti.estraneo@example.com"),
  ]);
  const created = await call("POST", "/api/classes", { token: teacher, json: { name: "Classe compiti" } });
  const cls = await json<{ id: number; code: string }>(created);
  classId = cls.id;
  for (const token of [pupilA, pupilB, await login("compiti.carlo@example.com")]) {
    expect((await call("POST", "/api/classes/join", { token, json: { code: cls.code } })).status).toBe(200);
  }
  await call("POST", `/api/classes/${classId}/members`, {
    token: teacher,
    json: { emails: "compiti.invitata@example.com" },
  });
});

const errorOf = async (response: Response) => ((await response.json()) as { error?: string }).error ?? "";

function body(extra: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    title: `Compito ${++run}`,
    subjectId: 1,
    count: 5,
    timer: "nessuno",
    opensAt: now - 60_000,
    dueAt: now + DAY,
    ...extra,
  };
}

async function createAssignment(extra: Record<string, unknown> = {}, token = teacher, cls = classId) {
  const response = await call("POST", `/api/classes/${cls}/assignments`, { token, json: body(extra) });
  expect(response.status, await response.clone().text()).toBe(201);
  return json<{ id: number; questionCount: number }>(response);
}

type Started = { quizId: number; attemptId: number | null; completed: boolean };
const start = (token: string, id: number) => call("POST", `/api/assignments/${id}/start`, { token, json: {} });

/** Submits the pupil's quiz answering every question right (or all wrong), through practice's own door. */
async function submit(token: string, quizId: number, right: boolean) {
  const quiz = await json<{ questions: { id: number; type: string; options: unknown[] }[] }>(
    await call("GET", `/api/quiz/${quizId}`, { token }),
  );
  const answers = [];
  for (const q of quiz.questions) {
    const key = await env.DB.prepare("SELECT correct_index, accepted_answers FROM questions WHERE id = ?")
      .bind(q.id)
      .first<{ correct_index: number | null; accepted_answers: string | null }>();
    if (q.type === "mc") {
      const correct = key!.correct_index!;
      answers.push({ question_id: q.id, option_id: right ? correct : (correct + 1) % q.options.length });
    } else {
      const accepted = JSON.parse(key!.accepted_answers ?? "[]") as string[];
      answers.push({ question_id: q.id, answer_text: right ? accepted[0] : "sbagliato" });
    }
  }
  const response = await call("POST", `/api/quiz/${quizId}/attempt`, { token, json: { answers, timeTaken: 42 } });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<{ attemptId: number }>(response);
}

const report = async (id: number, token = teacher) =>
  json<AssignmentReport>(await call("GET", `/api/assignments/${id}`, { token }));

describe("compiti: creating", () => {
  it("a teacher assigns a common set to their own class; the same questions are stored once for every pupil", async () => {
    const { id, questionCount } = await createAssignment({ count: 7, timer: "edizione" });
    expect(questionCount).toBe(7);
    expect(await count("assignment_questions", `assignment_id = ${id}`)).toBe(7);
    const row = await env.DB.prepare("SELECT time_limit_sec FROM assignments WHERE id = ?")
      .bind(id)
      .first<{ time_limit_sec: number }>();
    expect(row!.time_limit_sec).toBeGreaterThan(0);
    const list = await json<{ id: number; counts: Record<string, number> }[]>(
      await call("GET", `/api/classes/${classId}/assignments`, { token: teacher }),
    );
    expect(list.find((a) => a.id === id)?.counts).toEqual({ fatto: 0, in_ritardo: 0, non_fatto: 3 });
  });

  it("another teacher cannot assign to, list or read this class's work (403), and nothing is written", async () => {
    const before = await count("assignments");
    const refused = await call("POST", `/api/classes/${classId}/assignments`, { token: otherTeacher, json: body() });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatch(/classe/);
    expect(await count("assignments")).toBe(before);
    expect((await call("GET", `/api/classes/${classId}/assignments`, { token: otherTeacher })).status).toBe(403);
    const { id } = await createAssignment();
    for (const [method, extra] of [
      ["GET", {}],
      ["PATCH", { json: { dueNow: true } }],
      ["DELETE", {}],
    ] as const) {
      const response = await call(method, `/api/assignments/${id}`, { token: otherTeacher, ...extra });
      expect(response.status, method).toBe(403);
    }
    expect(await count("assignments", `id = ${id}`)).toBe(1);
    // A pupil is not a teacher: the role check refuses before anything else.
    expect((await call("GET", `/api/assignments/${id}`, { token: pupilA })).status).toBe(403);
  });

  it("bad input is a 400 with an Italian message naming the field, and writes nothing", async () => {
    const before = await count("assignments");
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ count: 0 }, /Numero di domande/],
      [{ count: 99 }, /Numero di domande/],
      [{ title: "   " }, /titolo/i],
      [{ timer: "lento" }, /Timer/],
      [{ mode: "casuale" }, /Domande/],
      [{ opensAt: "ieri" }, /Apertura/],
      // Issue 44: a day that does not exist is refused, not rolled over (2030-02-31 → 3 March).
      [{ dueAt: "2030-02-31T10:00:00Z" }, /Scadenza: data e ora non valide/],
      [{ opensAt: "2030-04-31T08:00" }, /Apertura: data e ora non valide/],
      [{ opensAt: Date.now(), dueAt: Date.now() - DAY }, /scadenza deve venire dopo/],
      [{ units: [29] }, /Unità non presenti/],
      [{ subjectId: 99_999 }, /Materia non trovata/],
    ];
    for (const [extra, message] of cases) {
      const response = await call("POST", `/api/classes/${classId}/assignments`, { token: teacher, json: body(extra) });
      expect(response.status, JSON.stringify(extra)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(extra)).toBeLessThan(500);
      expect(await errorOf(response), JSON.stringify(extra)).toMatch(message);
    }
    const malformed = await call("POST", `/api/classes/${classId}/assignments`, {
      token: teacher,
      body: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(await errorOf(malformed)).toMatch(/JSON/);
    expect((await call("POST", "/api/classes/abc/assignments", { token: teacher, json: body() })).status).toBe(400);
    expect((await call("PATCH", "/api/assignments/1", { token: teacher, json: {} })).status).toBe(400);
    expect(await count("assignments")).toBe(before);
  });

  it("units restrict the common set to those syllabus units of the default edition", async () => {
    const { id } = await createAssignment({ count: 4, units: [1] });
    const outside = await env.DB.prepare(
      `SELECT count(*) AS n FROM assignment_questions aq
       WHERE aq.assignment_id = ? AND aq.question_id NOT IN (
         SELECT question_id FROM question_edition_units WHERE unit = 1
           AND edition_id = (SELECT edition_id FROM assignments WHERE id = ?))`,
    )
      .bind(id, id)
      .first<{ n: number }>();
    expect(await count("assignment_questions", `assignment_id = ${id}`)).toBeGreaterThan(0);
    expect(outside!.n).toBe(0);
  });
});

describe("compiti: pupils", () => {
  it("a member sees it and starts it with one call; the quiz reaches the browser without keys until they submit", async () => {
    const { id } = await createAssignment({ count: 5 });
    const mine = await json<{ id: number; status: string }[]>(await call("GET", "/api/assignments", { token: pupilA }));
    expect(mine.find((a) => a.id === id)?.status).toBe("non_fatto");
    const started = await json<Started>(await start(pupilA, id));
    expect(started.completed).toBe(false);
    // Starting again resumes the same quiz (a double click draws nothing new).
    expect((await json<Started>(await start(pupilA, id))).quizId).toBe(started.quizId);
    const served = await (await call("GET", `/api/quiz/${started.quizId}`, { token: pupilA })).text();
    expect(served).not.toMatch(/correct_?index|correctIndex|accepted_?answers|acceptedAnswers|explanation/i);
    const set = await env.DB.prepare(
      "SELECT group_concat(question_id) AS ids FROM (SELECT question_id FROM assignment_questions WHERE assignment_id = ? ORDER BY position)",
    )
      .bind(id)
      .first<{ ids: string }>();
    const quiz = JSON.parse(served) as { questions: { id: number }[] };
    expect(quiz.questions.map((q) => q.id).join(",")).toBe(set!.ids);
    // Before submitting, no summary (with its keys) of that attempt is served.
    const attempt = await env.DB.prepare("SELECT id FROM attempts WHERE quiz_id = ?")
      .bind(started.quizId)
      .first<{ id: number }>();
    const early = await call("GET", `/api/attempts/${attempt!.id}/summary`, { token: pupilA });
    expect(early.status).toBeGreaterThanOrEqual(400);
    expect(await early.text()).not.toMatch(/correct_?index|correctIndex|explanation/i);
    // After submitting, the summary is practice's own, keys included.
    const { attemptId } = await submit(pupilA, started.quizId, true);
    const summary = await call("GET", `/api/attempts/${attemptId}/summary`, { token: pupilA });
    expect(summary.status).toBe(200);
    const again = await json<Started>(await start(pupilA, id));
    expect(again).toMatchObject({ completed: true, attemptId });
  });

  it("an invited pupil who has not accepted, and a stranger, neither see nor start it (404), and the teacher does not see them", async () => {
    const { id } = await createAssignment();
    for (const token of [invited, stranger]) {
      const list = await json<{ id: number }[]>(await call("GET", "/api/assignments", { token }));
      expect(list.some((a) => a.id === id)).toBe(false);
      const refused = await start(token, id);
      expect(refused.status).toBe(404);
      expect(await errorOf(refused)).toMatch(/Compito non trovato/);
    }
    expect(await count("assignment_quizzes", `assignment_id = ${id}`)).toBe(0);
    const pupils = (await report(id)).pupils.map((p) => p.userId);
    expect(pupils).toEqual(expect.arrayContaining([PUPIL_A, PUPIL_B, PUPIL_C]));
    expect(pupils).not.toContain(INVITED);
    expect(pupils).not.toContain(STRANGER);
  });

  it("does not start before it opens (409, Italian), and an unknown one is a 404", async () => {
    const { id } = await createAssignment({ opensAt: Date.now() + DAY, dueAt: Date.now() + 2 * DAY });
    const early = await start(pupilA, id);
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatch(/non è ancora aperto/);
    expect((await start(pupilA, 999_999)).status).toBe(404);
    expect((await start(pupilA, Number.NaN)).status).toBe(400);
  });
});

describe("compiti: the teacher's report", () => {
  it("done / late / not done, score and time per pupil; share right and the most chosen wrong option per question; the CSV says the same", async () => {
    const { id } = await createAssignment({ count: 4 });
    // Anna submits on time, all right.
    const a = await json<Started>(await start(pupilA, id));
    await submit(pupilA, a.quizId, true);
    // The teacher closes it now ("Chiudi ora"): the due date is the present moment.
    const closed = await call("PATCH", `/api/assignments/${id}`, { token: teacher, json: { dueNow: true } });
    expect(closed.status).toBe(200);
    // Bruno starts and submits after the due date, all wrong: late, still graded.
    const b = await json<Started>(await start(pupilB, id));
    await submit(pupilB, b.quizId, false);

    const r = await report(id);
    const byId = new Map(r.pupils.map((p) => [p.userId, p]));
    expect(byId.get(PUPIL_A)).toMatchObject({ status: "fatto", correct: 4, total: 4, timeSec: expect.any(Number) });
    expect(byId.get(PUPIL_A)!.score).toBeGreaterThan(0);
    expect(byId.get(PUPIL_B)).toMatchObject({ status: "in_ritardo", correct: 0 });
    expect(byId.get(PUPIL_C)).toMatchObject({ status: "non_fatto", score: null, timeSec: null });
    expect(r.questions).toHaveLength(4);
    for (const q of r.questions) {
      expect(q.answered).toBe(2);
      expect(q.rightPct).toBe(50);
      expect(q.topWrong?.count).toBe(1);
      expect(q.sealed).toBe(false);
    }
    // The most chosen wrong option is Bruno's choice: for an mc question, the option after the right one.
    const first = r.questions[0]!;
    const key = await env.DB.prepare("SELECT type, options, correct_index FROM questions WHERE id = ?")
      .bind(first.questionId)
      .first<{ type: string; options: string; correct_index: number }>();
    if (key!.type === "mc") {
      const options = JSON.parse(key!.options) as string[];
      expect(first.topWrong!.answer).toBe(options[(key!.correct_index + 1) % options.length]);
    } else expect(first.topWrong!.answer).toBe("sbagliato");

    const { rows } = parseCsv(assignmentCsv(r));
    const status = new Map(rows.map((row) => [row.Email, row.Stato]));
    expect(status.get("compiti.anna@example.com")).toBe("Fatto");
    expect(status.get("compiti.bruno@example.com")).toBe("In ritardo");
    expect(status.get("compiti.carlo@example.com")).toBe("Non fatto");

    const list = await json<{ id: number; counts: Record<string, number> }[]>(
      await call("GET", `/api/classes/${classId}/assignments`, { token: teacher }),
    );
    expect(list.find((x) => x.id === id)?.counts).toEqual({ fatto: 1, in_ritardo: 1, non_fatto: 1 });
  });

  it("a pupil who leaves the class drops out of the report (only members' results are the teacher's)", async () => {
    const leaver = 9806;
    await insertUser(leaver, "compiti.lascia@example.com", "compiti.lascia", "Lia Lascia");
    const token = await login("compiti.lascia@example.com");
    const code = (await env.DB.prepare("SELECT code FROM classes WHERE id = ?")
      .bind(classId)
      .first<{ code: string }>())!.code;
    expect((await call("POST", "/api/classes/join", { token, json: { code } })).status).toBe(200);
    const { id } = await createAssignment({ count: 3 });
    const started = await json<Started>(await start(token, id));
    await submit(token, started.quizId, true);
    expect((await report(id)).pupils.some((p) => p.userId === leaver)).toBe(true);
    expect((await call("DELETE", `/api/classes/${classId}/members/${leaver}`, { token })).status).toBe(200);
    const after = await report(id);
    expect(after.pupils.some((p) => p.userId === leaver)).toBe(false);
    expect(after.questions.every((q) => q.answered === 0)).toBe(true);
  });

  it("the console's tab shows and writes the same, for the class's teacher only", async () => {
    const { id } = await createAssignment();
    const page = await call("GET", `/admin/compiti?classe=${classId}&compito=${id}`, { token: teacher });
    expect(page.status).toBe(200);
    const data = await json<{ report: AssignmentReport | null }>(page);
    expect(data.report?.assignment.id).toBe(id);
    // Another teacher's console never opens it, and their write is refused.
    const theirs = await json<{ report: unknown }>(
      await call("GET", `/admin/compiti?classe=${classId}&compito=${id}`, { token: otherTeacher }),
    );
    expect(theirs.report).toBeNull();
    const refused = await call("POST", "/admin/compiti", {
      token: otherTeacher,
      json: { intent: "delete", assignmentId: id },
    });
    expect(refused.status).toBe(403);
    expect(await count("assignments", `id = ${id}`)).toBe(1);
    const deleted = await call("POST", "/admin/compiti", {
      token: teacher,
      json: { intent: "delete", assignmentId: id },
    });
    expect(deleted.status).toBe(200);
    expect(await count("assignments", `id = ${id}`)).toBe(0);
  });
});
