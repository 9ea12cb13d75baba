// Issue 44, assignments: one rule for "is this attempt open" (attemptOpen in app/lib/timer.ts) decides when an
// assignment's quiz is resumed and when a new one is drawn, and an open assignment seals its questions for its pupils
// (app/server/simulation/seal.server.ts). Each test below but the last (a guard for two sets sharing a question)
// fails on ab539bd, whose assignment, timer and seal code is 16714b5's (the seal module moved, no behaviour change).
// - A restart inside the submit grace resumes the quiz (no second quiz with the same set: submit the first blank,
//   read its keys, ace the second); a restart after it expired abandons the older attempt in the batch of the new one.
// - A submitted attempt is the pupil's result for good, even when it lands between a restart's read and its write.
// - An untimed attempt open for more than 3 hours is expired everywhere (it used to be resumed and refused for ever).
// - A common set is sealed for each member of the class from its creation until they submit it or it is due; a Test
//   mirato's quiz is sealed for its pupil until submitted or expired; the pupil's own assignment quiz stays
//   submittable.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { UNTIMED_ABANDON_MS } from "~/lib/constants";
import { SUBMIT_GRACE_MS } from "~/lib/timer";
import { startAssignment } from "~/server/assignments.server";
import { getDb } from "~/server/db/client.server";
import { SEALED_TEXT } from "~/server/simulation/seal.server";
import { call, count, json, login, seed } from "./helpers";

const DAY = 86_400_000;
type Started = { quizId: number; attemptId: number | null; completed: boolean };
type Quiz = { quizId: number; attemptId: number; questions: { id: number; type: "mc" | "gap" }[] };
type User = { id: number; token: string };

let teacher: string;
type Class = { id: number; code: string };
/** The class of the first tests; each seal test makes its own, so that no other test's open set seals its questions. */
let shared: Class;
let run = 0;
/** A leaf topic of Fisica with few enough questions that a topic draw of 31 returns all of them. */
let smallTopic: { id: number; subjectId: number; questions: number[] };

async function newUser(label: string): Promise<User> {
  const email = `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const row = await env.DB.prepare("INSERT INTO users (email, name, created_at) VALUES (?, ?, ?) RETURNING id")
    .bind(email, label, Date.now())
    .first<{ id: number }>();
  return { id: row!.id, token: await login(email) };
}

async function newClass(): Promise<Class> {
  const made = await call("POST", "/api/classes", { token: teacher, json: { name: `Classe del sigillo ${++run}` } });
  expect(made.status).toBe(201);
  return json<Class>(made);
}

async function pupil(label: string, cls = shared): Promise<User> {
  const user = await newUser(label);
  expect((await call("POST", "/api/classes/join", { token: user.token, json: { code: cls.code } })).status).toBe(200);
  return user;
}

/** History written on the server (like the seed): every question of the subject answered, half right. */
async function history(userId: number, subjectId: number): Promise<number> {
  const at = Date.now() - 2 * DAY;
  const attempt = await env.DB.prepare(
    `INSERT INTO attempts (user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score)
     VALUES (?, ?, 'completed', ?, ?, 600, 0, 0, 0, 0, 0) RETURNING id`,
  )
    .bind(userId, subjectId, at, at + 600_000)
    .first<{ id: number }>();
  await env.DB.prepare(
    `INSERT INTO attempt_answers (attempt_id, position, question_id, option_id, answer_text, correct, time_sec, answered_at)
     SELECT ?, ROW_NUMBER() OVER (ORDER BY id) - 1, id,
       CASE WHEN type = 'mc' THEN CASE WHEN id % 2 = 1 THEN correct_index ELSE (correct_index + 1) % 5 END END,
       CASE WHEN type = 'gap' THEN CASE WHEN id % 2 = 1 THEN json_extract(accepted_answers, '$[0]') ELSE 'zzz' END END,
       id % 2, 5, ?
     FROM questions WHERE subject_id = ?`,
  )
    .bind(attempt!.id, at, subjectId)
    .run();
  await env.DB.prepare(
    `UPDATE attempts SET total = (SELECT count(*) FROM attempt_answers WHERE attempt_id = ?1),
       correct = (SELECT count(*) FROM attempt_answers WHERE attempt_id = ?1 AND correct = 1),
       wrong = (SELECT count(*) FROM attempt_answers WHERE attempt_id = ?1 AND correct = 0) WHERE id = ?1`,
  )
    .bind(attempt!.id)
    .run();
  return attempt!.id;
}

async function createAssignment(extra: Record<string, unknown> = {}, cls = shared) {
  const now = Date.now();
  const response = await call("POST", `/api/classes/${cls.id}/assignments`, {
    token: teacher,
    json: {
      title: `Compito sigillato ${++run}`,
      subjectId: smallTopic.subjectId,
      count: 5,
      timer: "nessuno",
      opensAt: now - 60_000,
      dueAt: now + DAY,
      ...extra,
    },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await json<{ id: number }>(response)).id;
}

/** The common set made of these questions (the teacher's draw is random: the tests need a set they can draw around). */
async function useSet(assignmentId: number, ids: number[]) {
  await env.DB.prepare("DELETE FROM assignment_questions WHERE assignment_id = ?").bind(assignmentId).run();
  for (const [position, id] of ids.entries())
    await env.DB.prepare("INSERT INTO assignment_questions (assignment_id, position, question_id) VALUES (?, ?, ?)")
      .bind(assignmentId, position, id)
      .run();
  await env.DB.prepare("UPDATE assignments SET question_count = ? WHERE id = ?").bind(ids.length, assignmentId).run();
}

async function start(token: string, id: number): Promise<Started> {
  const response = await call("POST", `/api/assignments/${id}/start`, { token, json: {} });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Started>(response);
}

/** Moves an attempt's start back by `ms` (the clock of the test is the real one). */
async function age(quizId: number, ms: number) {
  await env.DB.prepare("UPDATE attempts SET started_at = started_at - ? WHERE quiz_id = ?").bind(ms, quizId).run();
}

const attemptOf = (quizId: number) =>
  env.DB.prepare("SELECT id, status FROM attempts WHERE quiz_id = ?")
    .bind(quizId)
    .first<{ id: number; status: string }>();

const submitBlank = (token: string, quizId: number) =>
  call("POST", `/api/quiz/${quizId}/attempt`, { token, json: { answers: [], timeTaken: 5 } });

async function drawIds(token: string, query: Record<string, string>, method: "GET" | "POST" = "GET") {
  const response =
    method === "GET"
      ? await call("GET", `/api/quiz?${new URLSearchParams(query)}`, { token })
      : await call("POST", "/api/quiz", { token, json: query });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await json<Quiz>(response)).questions.map((q) => q.id);
}

const redoStatus = async (token: string, ids: number[]) =>
  (await call("GET", `/api/quiz?ids=${ids.join(",")}`, { token })).status;

type SummaryQuestion = { id: number; sealed: boolean; answerIndex: number | null; explanation: string };
const summary = async (token: string, attemptId: number) =>
  json<{ partial: string | null; hidden: number; questions: SummaryQuestion[] }>(
    await call("GET", `/api/attempts/${attemptId}/summary`, { token }),
  );

/** What the summary and the profile export show of these questions: [id, key shown, own answer shown]. */
async function keysShown(token: string, attemptId: number, ids: number[]) {
  const s = await summary(token, attemptId);
  const exported = await json<{
    attempts: { id: number; answers: { questionId: number; optionId: number | null; correct: boolean | null }[] }[];
  }>(await call("GET", "/api/profile/export", { token }));
  const answers = exported.attempts.find((a) => a.id === attemptId)!.answers;
  return ids.map((id) => {
    const q = s.questions.find((x) => x.id === id)!;
    const a = answers.find((x) => x.questionId === id)!;
    return [id, !q.sealed && q.explanation.length > 0, a.correct != null];
  });
}

beforeAll(async () => {
  await seed();
  teacher = await login("docente@example.com");
  shared = await newClass();
  const topic = await env.DB.prepare(
    `SELECT t.id, t.subject_id, count(q.id) AS n FROM topics t JOIN questions q ON q.topic_id = t.id AND q.active = 1
     WHERE t.subject_id = 4 AND NOT EXISTS (SELECT 1 FROM topics c WHERE c.parent_id = t.id)
     GROUP BY t.id HAVING n BETWEEN 8 AND 31 ORDER BY n, t.id LIMIT 1`,
  ).first<{ id: number; subject_id: number }>();
  const { results } = await env.DB.prepare("SELECT id FROM questions WHERE topic_id = ? AND active = 1 ORDER BY id")
    .bind(topic!.id)
    .all<{ id: number }>();
  smallTopic = { id: topic!.id, subjectId: topic!.subject_id, questions: results.map((r) => r.id) };
});

describe("issue 44: an assignment attempt is open by practice's one rule", () => {
  it("a timed assignment restarted inside the submit grace resumes the same quiz: no second quiz beside the first", async () => {
    const p = await pupil("grazia");
    const id = await createAssignment({ timer: "edizione" });
    const first = await start(p.token, id);
    const limit = (await env.DB.prepare("SELECT time_limit_sec FROM quizzes WHERE id = ?")
      .bind(first.quizId)
      .first<{ time_limit_sec: number }>())!.time_limit_sec;
    expect(limit).toBeGreaterThan(0);
    // The countdown has run out, the grace has not: the first quiz can still be submitted.
    await age(first.quizId, limit * 1000 + SUBMIT_GRACE_MS / 2);
    const quizzes = await count("quizzes", `user_id = ${p.id}`);
    const again = await start(p.token, id);
    expect(again).toEqual({ quizId: first.quizId, attemptId: null, completed: false });
    expect(await count("quizzes", `user_id = ${p.id}`)).toBe(quizzes);
    const listed = await json<{ id: number; inProgress: boolean; quizId: number }[]>(
      await call("GET", "/api/assignments", { token: p.token }),
    );
    expect(listed.find((a) => a.id === id)).toMatchObject({ inProgress: true, quizId: first.quizId });
    // Submitted blank, it is the pupil's result: starting again answers it, never a fresh try at the same set.
    const submitted = await submitBlank(p.token, first.quizId);
    expect(submitted.status, await submitted.clone().text()).toBe(200);
    const { attemptId } = await json<{ attemptId: number }>(submitted);
    expect(await start(p.token, id)).toEqual({ quizId: first.quizId, attemptId, completed: true });
    expect(await count("quizzes", `user_id = ${p.id}`)).toBe(quizzes);
  });

  it("a restart after the attempt expired draws a new quiz and abandons the older attempt in the same batch", async () => {
    const p = await pupil("scaduto");
    const id = await createAssignment({ timer: "edizione" });
    const first = await start(p.token, id);
    const limit = (await env.DB.prepare("SELECT time_limit_sec FROM quizzes WHERE id = ?")
      .bind(first.quizId)
      .first<{ time_limit_sec: number }>())!.time_limit_sec;
    await age(first.quizId, limit * 1000 + SUBMIT_GRACE_MS + 1000);
    const second = await start(p.token, id);
    expect(second.quizId).not.toBe(first.quizId);
    expect(second.completed).toBe(false);
    // Nothing but the start ran in between: the abandon was written with the new quiz.
    expect((await attemptOf(first.quizId))!.status).toBe("abandoned");
    expect((await attemptOf(second.quizId))!.status).toBe("in_progress");
    expect(await count("attempts", `user_id = ${p.id} AND status = 'in_progress'`)).toBe(1);
    const late = await submitBlank(p.token, first.quizId);
    expect(late.status).toBe(409);
    expect((await json<{ error: string }>(late)).error).toMatch(/Tempo scaduto/);
    expect((await submitBlank(p.token, second.quizId)).status).toBe(200);
  });

  it("an untimed attempt open more than 3 hours is not stuck on 'Tempo scaduto': expired by the one rule, the list offers a new start, which draws a quiz that can be submitted", async () => {
    const p = await pupil("senza-timer");
    const id = await createAssignment();
    const first = await start(p.token, id);
    // Just inside the 3 hours: resumed.
    await age(first.quizId, UNTIMED_ABANDON_MS - 60_000);
    expect((await start(p.token, id)).quizId).toBe(first.quizId);
    // Past them: the runner and the submission say the attempt is over...
    await age(first.quizId, 120_000);
    const page = await json<{ quiz: unknown; error: string | null }>(
      await call("GET", `/test?id=${first.quizId}`, { token: p.token }),
    );
    expect(page.error).toMatch(/Tempo scaduto/);
    const served = await json<{ status: string }>(await call("GET", `/api/quiz/${first.quizId}`, { token: p.token }));
    expect(served.status).toBe("abandoned");
    expect((await submitBlank(p.token, first.quizId)).status).toBe(409);
    // ...and so do the list and the start: "Inizia", a new quiz, the old attempt abandoned.
    const listed = await json<{ id: number; inProgress: boolean; status: string }[]>(
      await call("GET", "/api/assignments", { token: p.token }),
    );
    expect(listed.find((a) => a.id === id)).toMatchObject({ inProgress: false, status: "non_fatto" });
    const second = await start(p.token, id);
    expect(second.quizId).not.toBe(first.quizId);
    expect((await attemptOf(first.quizId))!.status).toBe("abandoned");
    const runner = await json<{ quiz: { quizId: number } | null; error: string | null }>(
      await call("GET", `/test?id=${second.quizId}`, { token: p.token }),
    );
    expect(runner).toMatchObject({ error: null, quiz: { quizId: second.quizId } });
    expect((await submitBlank(p.token, second.quizId)).status).toBe(200);
    const done = await json<{ id: number; status: string }[]>(
      await call("GET", "/api/assignments", { token: p.token }),
    );
    expect(done.find((a) => a.id === id)?.status).toBe("fatto");
  });
});

/** The D1 binding with `before` run ahead of the first batch: what lands between a start's reads and its write. */
function racing(before: () => Promise<unknown>): D1Database {
  let fired = false;
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          if (!fired) {
            fired = true;
            await before();
          }
          return target.batch(statements);
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("issue 44: a restart racing a submission or another restart", () => {
  // Timed (the edition's timer), and the restart's clock a day later: past any deadline.
  const later = () => Date.now() + DAY;

  it("a submission landing between the restart's read and its write stays the pupil's result: the restart writes nothing and answers it", async () => {
    const p = await pupil("gara-consegna");
    const id = await createAssignment({ timer: "edizione" });
    const first = await start(p.token, id);
    const attempt = (await attemptOf(first.quizId))!;
    const quizzes = await count("quizzes", `user_id = ${p.id}`);
    // The submission read the clock before the deadline; its write lands after the restart read the attempt as open.
    const submission = () =>
      env.DB.prepare("UPDATE attempts SET status = 'completed', finished_at = ?, time_taken = 5 WHERE quiz_id = ?")
        .bind(Date.now(), first.quizId)
        .run();
    const answer = await startAssignment(getDb(racing(submission)), { id: p.id }, id, later());
    expect(answer).toEqual({ quizId: first.quizId, attemptId: attempt.id, completed: true });
    expect(await count("quizzes", `user_id = ${p.id}`)).toBe(quizzes);
    expect((await attemptOf(first.quizId))!.status).toBe("completed");
    expect(await count("assignment_quizzes", `assignment_id = ${id} AND quiz_id = ${first.quizId}`)).toBe(1);
  });

  it("two restarts at once draw one quiz: the second resumes the first one's", async () => {
    const p = await pupil("gara-doppia");
    const id = await createAssignment({ timer: "edizione" });
    const first = await start(p.token, id);
    const quizzes = await count("quizzes", `user_id = ${p.id}`);
    const at = later();
    let other: Started | null = null;
    const answer = await startAssignment(
      getDb(
        racing(async () => {
          other = await startAssignment(getDb(env.DB), { id: p.id }, id, at);
        }),
      ),
      { id: p.id },
      id,
      at,
    );
    expect(other).toMatchObject({ completed: false });
    expect(other!.quizId).not.toBe(first.quizId);
    expect(answer).toEqual(other);
    expect(await count("quizzes", `user_id = ${p.id}`)).toBe(quizzes + 1);
    expect(await count("attempts", `user_id = ${p.id} AND status = 'in_progress'`)).toBe(1);
  });
});

describe("issue 44: an open assignment seals its questions for its pupils", () => {
  it("an open common set is sealed for each member who has not submitted it: no topic draw (GET or POST), no redo, no summary or export shows its keys", async () => {
    const cls = await newClass();
    const p = await pupil("sigillo-comune", cls);
    const past = await history(p.id, smallTopic.subjectId);
    const set = smallTopic.questions.slice(0, 4);
    const id = await createAssignment({}, cls);
    await useSet(id, set);
    const topic = { subjectId: String(smallTopic.subjectId), topicId: String(smallTopic.id), count: "31" };
    const check = async () => {
      for (const method of ["GET", "POST"] as const) {
        const drawn = await drawIds(p.token, topic, method);
        expect(drawn.length, method).toBe(smallTopic.questions.length - set.length);
        expect(
          drawn.filter((q) => set.includes(q)),
          method,
        ).toEqual([]);
      }
      expect(
        (await drawIds(p.token, { ...topic, mode: "mirato" })).filter((q) => set.includes(q)),
        "mirato",
      ).toEqual([]);
      const redo = await call("GET", `/api/quiz?ids=${set.join(",")}`, { token: p.token });
      expect(redo.status).toBe(409);
      expect((await json<{ error: string }>(redo)).error).toBe(SEALED_TEXT.redoSealed);
      expect(await keysShown(p.token, past, set)).toEqual(set.map((q) => [q, false, false]));
      expect(await summary(p.token, past)).toMatchObject({ partial: "assignment", hidden: set.length });
    };
    // Before the pupil starts it, and while their quiz of it is open.
    await check();
    const started = await start(p.token, id);
    await check();
    // Their own quiz of the set is theirs to submit (by either door).
    const graded = await call("POST", "/api/grade", {
      token: p.token,
      json: { answers: set.map((q) => ({ question_id: q })), timeTaken: 5 },
    });
    expect(graded.status, await graded.clone().text()).toBe(200);
    expect((await json<{ attemptId: number }>(graded)).attemptId).toBe((await attemptOf(started.quizId))!.id);
  });

  it("once a pupil submits, the set is unsealed for them; a classmate who has not submitted still has it sealed, until the due date", async () => {
    const cls = await newClass();
    const [a, b] = [await pupil("consegna-a", cls), await pupil("consegna-b", cls)];
    const [pastA, pastB] = [await history(a.id, smallTopic.subjectId), await history(b.id, smallTopic.subjectId)];
    const set = smallTopic.questions.slice(0, 4);
    const id = await createAssignment({}, cls);
    await useSet(id, set);
    const topic = { subjectId: String(smallTopic.subjectId), topicId: String(smallTopic.id), count: "31" };
    await start(b.token, id); // B is in the middle of it
    const quiz = await start(a.token, id);
    expect((await submitBlank(a.token, quiz.quizId)).status).toBe(200);

    expect(await redoStatus(a.token, set)).toBe(200);
    expect((await drawIds(a.token, topic)).filter((q) => set.includes(q)).sort()).toEqual([...set].sort());
    expect(await keysShown(a.token, pastA, set)).toEqual(set.map((q) => [q, true, true]));

    expect(await redoStatus(b.token, set)).toBe(409);
    expect((await drawIds(b.token, topic)).filter((q) => set.includes(q))).toEqual([]);
    expect(await keysShown(b.token, pastB, set)).toEqual(set.map((q) => [q, false, false]));

    // Closed now by the teacher: the set is no longer sealed for B, but B's own quiz of it, still open, is.
    expect((await call("PATCH", `/api/assignments/${id}`, { token: teacher, json: { dueNow: true } })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 5)); // past the due date's millisecond
    expect(await redoStatus(b.token, set)).toBe(409);
    const other = await pupil("consegna-c", cls);
    await history(other.id, smallTopic.subjectId);
    expect(await redoStatus(other.token, set)).toBe(200);
  });

  it("a common set is sealed from its creation, before it opens: the set exists, so practice must not give its keys away", async () => {
    const cls = await newClass();
    const p = await pupil("non-ancora", cls);
    await history(p.id, smallTopic.subjectId);
    const set = smallTopic.questions.slice(0, 3);
    const id = await createAssignment({ opensAt: Date.now() + DAY, dueAt: Date.now() + 2 * DAY }, cls);
    await useSet(id, set);
    expect(await redoStatus(p.token, set)).toBe(409);
    expect((await call("POST", `/api/assignments/${id}/start`, { token: p.token, json: {} })).status).toBe(409);
  });

  it("a Test mirato's quiz is sealed for its pupil until they submit it", async () => {
    const cls = await newClass();
    const p = await pupil("sigillo-mirato", cls);
    const past = await history(p.id, smallTopic.subjectId);
    const id = await createAssignment({ mode: "mirato", count: 6 }, cls);
    const started = await start(p.token, id);
    const drawn = (
      await json<Quiz>(await call("GET", `/api/quiz/${started.quizId}`, { token: p.token }))
    ).questions.map((q) => q.id);
    expect(drawn.length).toBe(6);
    expect(await redoStatus(p.token, drawn)).toBe(409);
    const subject = { subjectId: String(smallTopic.subjectId), count: "31" };
    expect((await drawIds(p.token, subject)).filter((q) => drawn.includes(q))).toEqual([]);
    expect((await summary(p.token, past)).questions.filter((q) => drawn.includes(q.id) && !q.sealed)).toEqual([]);
    expect((await submitBlank(p.token, started.quizId)).status).toBe(200);
    expect(await redoStatus(p.token, drawn)).toBe(200);
  });

  it("a question in two open sets: each assignment still starts and submits", async () => {
    const cls = await newClass();
    const p = await pupil("due-compiti", cls);
    const set = smallTopic.questions.slice(2, 6);
    const [first, second] = [await createAssignment({}, cls), await createAssignment({}, cls)];
    await useSet(first, set);
    await useSet(second, [...set.slice(0, 2), ...smallTopic.questions.slice(6, 8)]);
    const q1 = await start(p.token, first);
    const q2 = await start(p.token, second);
    expect((await submitBlank(p.token, q2.quizId)).status).toBe(200);
    expect((await submitBlank(p.token, q1.quizId)).status).toBe(200);
  });
});
