// Issue 47, point 3: quizzes downloaded for offline use. Drawn by POST /api/quiz with `offline` (the same draw and
// the same draw limit), without keys, open a week from the download (attemptDeadline), their questions sealed for
// their owner until submitted, submitted once (POST /api/quiz/{id}/attempt is idempotent per quiz), refused after an
// edit of what was downloaded, and labelled as taken offline wherever attempts are listed.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { OFFLINE_QUIZ_TTL_MS } from "~/lib/constants";
import { OFFLINE_TEXT } from "~/server/offline-quizzes.server";
import { insertUser } from "./analytics-fixtures";
import { answeredBefore, call, callGuarded, count, json, login, seed } from "./helpers";

type Quiz = {
  quizId: number;
  attemptId: number;
  offline: boolean;
  expiresAt: string;
  startedAt: string;
  status: string;
  questions: { id: number; type: "mc" | "gap"; question_text: string; options: { option_text: string }[] }[];
};

const DAY = 86_400_000;
let student: string;

beforeAll(async () => {
  await seed();
  await insertUser(9471, "offline.uno@example.com", "offline.uno");
  await insertUser(9472, "offline.limite@example.com", "offline.limite");
  student = await login("offline.uno@example.com");
});

async function download(token: string, fields: Record<string, unknown> = {}): Promise<Quiz> {
  const response = await call("POST", "/api/quiz", {
    token,
    json: { subjectId: 1, count: 5, offline: true, ...fields },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Quiz>(response);
}

/** Every answer left blank: what matters here is whether and how often the server takes it. */
function blankSheet(quiz: Quiz, extra: Record<string, unknown> = {}) {
  return {
    answers: quiz.questions.map((q) => ({
      question_id: q.id,
      option_id: null as number | null,
      answer_text: null,
      time_sec: 3,
    })),
    timeTaken: 90,
    ...extra,
  };
}

const submit = (quiz: Quiz, body = blankSheet(quiz)) =>
  call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: student, json: body });

/** Moves a quiz's download (its attempt's start and the quiz's creation) `ms` into the past. */
async function age(quiz: Quiz, ms: number) {
  await env.DB.batch([
    env.DB.prepare("UPDATE attempts SET started_at = started_at - ? WHERE quiz_id = ?").bind(ms, quiz.quizId),
    env.DB.prepare("UPDATE quizzes SET created_at = created_at - ? WHERE id = ?").bind(ms, quiz.quizId),
  ]);
}

async function attemptRow(quizId: number) {
  return env.DB.prepare("SELECT * FROM attempts WHERE quiz_id = ?")
    .bind(quizId)
    .first<{ id: number; status: string; offline: number; started_at: number; time_taken: number | null }>();
}

describe("downloading a quiz", () => {
  it("is a normal stored quiz with its ids, marked offline, open a week, fingerprinted, and without keys", async () => {
    const before = Date.now();
    const quiz = await download(student, { time: 200 });
    expect(quiz.offline).toBe(true);
    expect(quiz.status).toBe("in_progress");
    expect(quiz.questions).toHaveLength(5);
    expect(Date.parse(quiz.expiresAt) - Date.parse(quiz.startedAt)).toBe(OFFLINE_QUIZ_TTL_MS);
    expect(Date.parse(quiz.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await attemptRow(quiz.quizId))?.offline).toBe(1);
    const hash = await env.DB.prepare("SELECT offline_hash FROM quizzes WHERE id = ?").bind(quiz.quizId).first();
    expect(hash?.offline_hash).toMatch(/^[0-9a-f]{64}$/);
    // No key in the download: no field of one, and no gap's accepted answer anywhere in the text.
    const text = JSON.stringify(quiz);
    expect(text).not.toMatch(/correct|accepted|explanation|answerIndex|answerText/i);
    const { results } = await env.DB.prepare(
      `SELECT accepted_answers FROM questions WHERE type = 'gap' AND id IN (${quiz.questions.map((q) => q.id).join(",")})`,
    ).all<{ accepted_answers: string }>();
    for (const row of results)
      for (const answer of JSON.parse(row.accepted_answers) as string[])
        expect(text.toLowerCase()).not.toContain(`"${answer.toLowerCase()}"`);
  });

  it("opens in the device's runner, never in the server's timed one", async () => {
    const quiz = await download(student, { time: 60 });
    const page = await call("GET", `/test?id=${quiz.quizId}`, { token: student });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(`/test/offline/${quiz.quizId}`);
  });

  it("is a subject's quiz only: a Rush quiz and a redo are refused in Italian, nothing drawn", async () => {
    const before = await count("quizzes");
    const rush = await call("POST", "/api/quiz", {
      token: student,
      json: { subjectId: 1, rushEventId: 1, offline: true },
    });
    expect(rush.status).toBe(400);
    expect((await json(rush)).error).toBe(OFFLINE_TEXT.rush);
    const redo = await call("POST", "/api/quiz", { token: student, json: { ids: [1001], offline: true } });
    expect(redo.status).toBe(400);
    expect((await json(redo)).error).toBe(OFFLINE_TEXT.redo);
    expect(await count("quizzes")).toBe(before);
  });
});

describe("before its submission, its keys are in no response", () => {
  it("seals its questions for their owner: not drawn again, no redo, hidden in an older summary", async () => {
    const quiz = await download(student, { count: 3 });
    const ids = quiz.questions.map((q) => q.id);
    // An older attempt of the student with the first of them: its summary would show the key.
    await answeredBefore("offline.uno@example.com", [ids[0]!]);
    const older = await env.DB.prepare(
      "SELECT a.id FROM attempts a JOIN attempt_answers aa ON aa.attempt_id = a.id WHERE a.user_id = 9471 AND aa.question_id = ? ORDER BY a.id DESC",
    )
      .bind(ids[0])
      .first<{ id: number }>();
    const summary = await json<{ questions: { id: number; correctText: string; sealed: boolean }[] }>(
      await call("GET", `/api/attempts/${older!.id}/summary`, { token: student }),
    );
    expect(summary.questions.find((q) => q.id === ids[0])).toMatchObject({ sealed: true, correctText: "" });
    const redo = await call("GET", `/api/quiz?ids=${ids[0]}`, { token: student });
    expect(redo.status).toBe(409);
    // A whole-subject draw never takes them while the download is open.
    const other = await json<Quiz>(await call("GET", "/api/quiz?subjectId=1&count=31", { token: student }));
    expect(other.questions.map((q) => q.id).filter((id) => ids.includes(id))).toEqual([]);

    // Submitted: the seal lifts and the older summary shows the key again.
    expect((await submit(quiz)).status).toBe(200);
    const after = await json<{ questions: { id: number; sealed: boolean }[] }>(
      await call("GET", `/api/attempts/${older!.id}/summary`, { token: student }),
    );
    expect(after.questions.find((q) => q.id === ids[0])?.sealed).toBe(false);
  });
});

describe("submitting a downloaded quiz", () => {
  it("is taken once however often the device sends it (two reconnects): one attempt, one set of answers", async () => {
    const quiz = await download(student);
    const first = await json<{ attemptId: number; alreadySubmitted: boolean }>(await submit(quiz));
    const second = await json<{ attemptId: number; alreadySubmitted: boolean }>(await submit(quiz));
    const third = await json<{ attemptId: number; alreadySubmitted: boolean }>(await submit(quiz));
    expect(first.alreadySubmitted).toBe(false);
    expect(second).toEqual({ attemptId: first.attemptId, alreadySubmitted: true });
    expect(third).toEqual({ attemptId: first.attemptId, alreadySubmitted: true });
    expect(await count("attempt_answers", `attempt_id = ${first.attemptId}`)).toBe(quiz.questions.length);
    expect((await attemptRow(quiz.quizId))?.status).toBe("completed");
  });

  it("stays open days after its timer and the untimed 3 hours, and closes a week after the download", async () => {
    const open = await download(student, { time: 100 });
    await age(open, 3 * DAY);
    expect((await submit(open)).status).toBe(200);

    const late = await download(student);
    await age(late, OFFLINE_QUIZ_TTL_MS + 60_000);
    const refused = await submit(late);
    expect(refused.status).toBe(409);
    expect((await json(refused)).error).toMatch(/Tempo scaduto/);
    // The list marks it abandoned, labelled offline.
    const list = await json<{ id: number; status: string; offline: boolean }[]>(
      await call("GET", "/api/attempts", { token: student }),
    );
    const row = await attemptRow(late.quizId);
    expect(list.find((a) => a.id === row!.id)).toMatchObject({ status: "abandoned", offline: true });
  });

  it("keeps the device's start and time, within what the server saw pass", async () => {
    const quiz = await download(student);
    await age(quiz, 2 * DAY);
    const downloadedAt = Date.parse(quiz.startedAt) - 2 * DAY;
    const startedOnDevice = downloadedAt + DAY;
    expect((await submit(quiz, blankSheet(quiz, { deviceStartedAt: startedOnDevice, timeTaken: 300 }))).status).toBe(
      200,
    );
    const row = await attemptRow(quiz.quizId);
    expect(row).toMatchObject({ started_at: startedOnDevice, time_taken: 300 });

    // A device start before the download counts from the download; a time longer than what passed is cut.
    const early = await download(student);
    await age(early, 60_000);
    const drawnAt = Date.parse(early.startedAt) - 60_000;
    await submit(early, blankSheet(early, { deviceStartedAt: drawnAt - DAY, timeTaken: 5000 }));
    const earlyRow = await attemptRow(early.quizId);
    expect(earlyRow!.started_at).toBe(drawnAt);
    expect(earlyRow!.time_taken).toBeLessThanOrEqual(62);
  });

  it("is refused after an edit of a question's text or options, with nothing written; a new difficulty is no edit", async () => {
    const quiz = await download(student, { count: 2 });
    const [first, second] = quiz.questions;
    await env.DB.prepare("UPDATE questions SET difficulty = 5 WHERE id = ?").bind(second!.id).run();
    await env.DB.prepare("UPDATE questions SET stem = stem || ' (testo corretto)' WHERE id = ?").bind(first!.id).run();
    const refused = await submit(quiz);
    expect(refused.status).toBe(409);
    expect((await json(refused)).error).toBe(OFFLINE_TEXT.edited);
    expect((await attemptRow(quiz.quizId))?.status).toBe("in_progress");

    const untouched = await download(student, { count: 2 });
    await env.DB.prepare("UPDATE questions SET difficulty = 1 WHERE id = ?").bind(untouched.questions[0]!.id).run();
    expect((await submit(untouched)).status).toBe(200);
  });
});

describe("where an offline attempt is listed", () => {
  it("is labelled in Tentativi, in the dashboard's attempts and in the review of mistakes; an online one is not", async () => {
    const offline = await download(student, { count: 3 });
    const online = await json<Quiz>(await call("GET", "/api/quiz?subjectId=1&count=3", { token: student }));
    // One wrong answer in the offline quiz: a multiple choice answered with an option that is not the key.
    const mc = offline.questions.find((q) => q.type === "mc")!;
    const key = await env.DB.prepare("SELECT correct_index FROM questions WHERE id = ?")
      .bind(mc.id)
      .first<{ correct_index: number }>();
    const sheet = blankSheet(offline);
    sheet.answers = sheet.answers.map((a) =>
      a.question_id === mc.id ? { ...a, option_id: (key!.correct_index + 1) % 2 } : a,
    );
    const { attemptId } = await json<{ attemptId: number }>(await submit(offline, sheet));
    const { attemptId: onlineId } = await json<{ attemptId: number }>(await submit(online, blankSheet(online)));

    const list = await json<{ id: number; offline: boolean }[]>(await call("GET", "/api/attempts", { token: student }));
    expect(list.find((a) => a.id === attemptId)?.offline).toBe(true);
    expect(list.find((a) => a.id === onlineId)?.offline).toBe(false);

    const analytics = await json<{ subjects: { studentAttempts: { id: number; offline?: boolean }[] }[] }>(
      await call("GET", "/api/me/analytics", { token: student }),
    );
    const mine = analytics.subjects.flatMap((s) => s.studentAttempts);
    expect(mine.find((a) => a.id === attemptId)?.offline).toBe(true);
    expect(mine.find((a) => a.id === onlineId)?.offline).toBe(false);

    const wrong = await json<{ items?: { id: number; offline: boolean }[] } | { id: number; offline: boolean }[]>(
      await call("GET", "/api/me/wrong-questions", { token: student }),
    );
    const items = Array.isArray(wrong) ? wrong : (wrong.items ?? []);
    expect(items.find((i) => i.id === mc.id)?.offline).toBe(true);
  });
});

describe("the draw limit", () => {
  it("counts downloads like any other draw: the Worker's 429 comes within the limit's worth of downloads", async () => {
    const token = await login("offline.limite@example.com");
    let refusal: Response | null = null;
    // 30 a minute in fixed windows: a run straddling the edge of one may pass up to twice the limit.
    for (let n = 0; n <= 60 && !refusal; n++) {
      const response = await callGuarded("POST", "/api/quiz", {
        token,
        json: { subjectId: 1, count: 1, offline: true },
      });
      if (response.status === 429) refusal = response;
      else expect(response.status, `download ${n + 1}`).toBe(200);
    }
    expect(refusal?.status).toBe(429);
    expect((await json(refusal!)).error).toMatch(/troppi quiz/);
    // A plain draw is refused too: one count for both.
    expect((await callGuarded("GET", "/api/quiz?subjectId=1&count=1", { token })).status).toBe(429);
  });
});
