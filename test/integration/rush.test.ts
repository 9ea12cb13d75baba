import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/server/db/client.server";
import { SESSION_COOKIE } from "~/lib/constants";
import { attempts } from "~/server/db/schema";
import { HttpError } from "~/server/errors.server";
import { RUSH_NEEDS_POST_MESSAGE } from "~/server/quiz.server";
import {
  activeRushEvent,
  claimRushStart,
  recordRushResultStatement,
  RUSH_DUPLICATE_MESSAGE,
  RUSH_INACTIVE_MESSAGE,
  rushLeaderboard,
} from "~/server/rush.server";
import { call, callGuarded, count, json, login, seed, send } from "./helpers";

const HOUR = 3_600_000;
const db = () => getDb(env.DB);

let admin: string;
let student: string;
let friend: string;
let moderator: string;

beforeAll(async () => {
  await seed();
  [admin, student, friend, moderator] = await Promise.all([
    login("admin@example.com"),
    login("studente@example.com"),
    login("amico@example.com"),
    login("moderatore@example.com"),
  ]);
});

beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM rush_progress"), env.DB.prepare("DELETE FROM rush_events")]);
});

type EventBody = { title?: unknown; startsAt?: unknown; endsAt?: unknown; published?: unknown };

async function createEvent(
  body: EventBody,
): Promise<{ id: number; title: string; startsAt: string; endsAt: string; published: boolean }> {
  const response = await call("POST", "/api/admin/rush-events", { token: admin, json: body });
  expect(response.status, await response.clone().text()).toBe(201);
  return json(response);
}

/** A published event whose window holds now. */
const activeEvent = () =>
  createEvent({
    title: "Rush di prova",
    startsAt: new Date(Date.now() - HOUR).toISOString(),
    endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
    published: true,
  });

/** What the grading of a rush attempt does: insert the attempt and record the rush result in one batch. */
async function gradeRushAttempt(args: {
  userId: number;
  eventId: number;
  subjectId: number;
  score: number;
  timeSec: number;
  finishedAt?: Date;
}) {
  const finishedAt = args.finishedAt ?? new Date();
  const attempt = await db()
    .insert(attempts)
    .values({
      userId: args.userId,
      subjectId: args.subjectId,
      status: "completed",
      startedAt: new Date(finishedAt.getTime() - args.timeSec * 1000),
      finishedAt,
      timeTaken: args.timeSec,
      total: 31,
      correct: 20,
      wrong: 5,
      blank: 6,
      score: args.score,
      rushEventId: args.eventId,
    })
    .returning({ id: attempts.id })
    .get();
  await db().batch([recordRushResultStatement(db(), { ...args, attemptId: attempt.id, finishedAt })]);
  return attempt.id;
}

describe("the event window", () => {
  it("is active from startsAt inclusive to endsAt exclusive, and only when published", async () => {
    const startsAt = Date.UTC(2031, 4, 10, 8, 0);
    const endsAt = Date.UTC(2031, 4, 10, 20, 0);
    const published = await createEvent({
      title: "Maggio",
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      published: true,
    });
    expect((await activeRushEvent(db(), startsAt - 1))?.id).toBeUndefined();
    expect((await activeRushEvent(db(), startsAt))?.id).toBe(published.id);
    expect((await activeRushEvent(db(), endsAt - 1))?.id).toBe(published.id);
    expect((await activeRushEvent(db(), endsAt))?.id).toBeUndefined();

    const hidden = await createEvent({
      title: "Bozza",
      startsAt: new Date(Date.UTC(2031, 5, 1)).toISOString(),
      endsAt: new Date(Date.UTC(2031, 5, 2)).toISOString(),
      published: false,
    });
    expect(await activeRushEvent(db(), Date.UTC(2031, 5, 1, 12))).toBeUndefined();
    // Starting is refused outside the window and for an unpublished event, and nothing is claimed.
    for (const [eventId, now] of [
      [published.id, endsAt],
      [published.id, startsAt - 1],
      [hidden.id, Date.UTC(2031, 5, 1, 12)],
    ] as const) {
      await expect(claimRushStart(db(), { userId: 1, eventId, subjectId: 1, now })).rejects.toMatchObject({
        status: 409,
        message: RUSH_INACTIVE_MESSAGE,
      });
    }
    expect(await count("rush_progress")).toBe(0);
    await claimRushStart(db(), { userId: 1, eventId: published.id, subjectId: 1, now: startsAt });
    expect(await count("rush_progress", `event_id = ${published.id} AND user_id = 1 AND subject_id = 1`)).toBe(1);
  });

  it("GET /api/rush/event answers the active published event, or an empty object", async () => {
    expect(await json(await call("GET", "/api/rush/event", { token: student }))).toEqual({});
    const draft = await createEvent({
      title: "Non pubblicato",
      startsAt: new Date(Date.now() - HOUR).toISOString(),
      endsAt: new Date(Date.now() + HOUR).toISOString(),
      published: false,
    });
    expect(await json(await call("GET", "/api/rush/event", { token: student }))).toEqual({});
    const event = await activeEvent();
    const body = await json(await call("GET", "/api/rush/event", { token: student }));
    expect(body).toEqual({ id: event.id, title: "Rush di prova", startsAt: event.startsAt, endsAt: event.endsAt });
    expect(body.id).not.toBe(draft.id);
    expect((await call("GET", "/api/rush/event")).status).toBe(401);
  });

  it("/quiz-rush/start sends to /test with the event id inside the window and back to /rush otherwise", async () => {
    // No event: back to /rush.
    let response = await call("GET", "/quiz-rush/start?subject=1", { token: student });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/rush");
    const event = await activeEvent();
    response = await call("GET", "/quiz-rush/start?subject=1", { token: student });
    expect(response.status).toBe(200);
    expect((await json(response)).target).toBe(`/test?subject=1&q=31&rushEventId=${event.id}`);
    response = await call("GET", "/quiz-rush/start?subject=2&topic=7&q=50&time=600", { token: student });
    expect((await json(response)).target).toBe(`/test?subject=2&topic=7&q=31&time=600&rushEventId=${event.id}`);
    for (const bad of ["", "?subject=abc", "?subject=0", "?subject=99", "?subject=1&topic=x", "?subject=1&time=-5"]) {
      const r = await call("GET", `/quiz-rush/start${bad}`, { token: student });
      expect(r.status, bad).toBe(302);
      expect(r.headers.get("Location"), bad).toBe("/rush");
    }
    // Checking never claims: the slot is taken only when the quiz is drawn.
    expect(await count("rush_progress")).toBe(0);
  });
});

/** A form posted by one of our screens (a route action), as the browser's fetch sends it. */
function postForm(path: string, fields: Record<string, string>, token: string, headers: Record<string, string> = {}) {
  return send(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** A route action's reply as the static handler answers it. */
async function replyError(response: Response): Promise<string | undefined> {
  type Reply = { result: { error?: Record<string, string[]> } };
  const body = await json<Reply & { data?: Reply }>(response);
  return (body.data ?? body).result.error?.[""]?.[0];
}

type Arrival = { autoStart: boolean; subject: string | null; topic: string | null };
const arrival = async (path: string, headers: Record<string, string>) =>
  (await json<{ arrival: Arrival }>(await call("GET", path, { token: student, headers }))).arrival;

describe("a Rush quiz starts only with a POST from our own pages (issue 28)", () => {
  it("GET /api/quiz with rushEventId answers 400 in Italian pointing to the POST, and draws and claims nothing", async () => {
    const event = await activeEvent();
    const [quizzes, claimed] = [await count("quizzes"), await count("rush_progress")];
    const response = await call("GET", `/api/quiz?subjectId=4&count=1&time=1&rushEventId=${event.id}`, {
      token: student,
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toBe(RUSH_NEEDS_POST_MESSAGE);
    expect(RUSH_NEEDS_POST_MESSAGE).toMatch(/POST/);
    expect(await count("quizzes")).toBe(quizzes);
    expect(await count("rush_progress")).toBe(claimed);
    // A practice draw through GET still works (the spec's contract).
    expect((await call("GET", "/api/quiz?subjectId=4&count=1", { token: student })).status).toBe(200);
  });

  it("POST /api/quiz draws the Rush quiz and claims the slot; from another site the same-origin rule refuses it", async () => {
    const event = await activeEvent();
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(student)}`;
    const body = { subjectId: 4, count: 1, time: 1, rushEventId: event.id };
    const foreign = await callGuarded("POST", "/api/quiz", {
      cookie,
      headers: { Origin: "https://evil.example" },
      json: body,
    });
    expect(foreign.status).toBe(403);
    expect(await count("rush_progress")).toBe(0);

    const own = await callGuarded("POST", "/api/quiz", {
      cookie,
      headers: { Origin: "http://localhost" },
      json: { subjectId: "4", count: "5", rushEventId: String(event.id) },
    });
    expect(own.status, await own.clone().text()).toBe(200);
    const quiz = await json<{ kind: string; rushEventId: number; questions: unknown[] }>(own);
    expect(quiz).toMatchObject({ kind: "rush", rushEventId: event.id });
    expect(quiz.questions).toHaveLength(5);
    expect(await count("rush_progress", `event_id = ${event.id} AND user_id = 1 AND subject_id = 4`)).toBe(1);
    // Bad bodies are 400 in Italian, not 500.
    const bad = await call("POST", "/api/quiz", { token: student, json: { subjectId: "Fisica" } });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatch(/materia/i);
  });

  it("/test?…&rushEventId= waits for 'Avvia' even from our own pages; a practice link posts itself only from our pages or the address bar", async () => {
    const event = await activeEvent();
    const rushLink = `/test?subject=4&q=1&time=1&rushEventId=${event.id}`;
    for (const site of ["cross-site", "same-origin", "none"]) {
      expect(await arrival(rushLink, { "Sec-Fetch-Site": site }), site).toEqual({
        autoStart: false,
        subject: "Fisica",
        topic: null,
      });
    }
    expect(await count("rush_progress")).toBe(0);
    const practice = "/test?subject=4&q=3";
    expect((await arrival(practice, { "Sec-Fetch-Site": "same-origin" })).autoStart).toBe(true);
    expect((await arrival(practice, { "Sec-Fetch-Site": "none" })).autoStart).toBe(true);
    expect(await arrival(practice, { "Sec-Fetch-Site": "cross-site" })).toMatchObject({
      autoStart: false,
      subject: "Fisica",
    });
    expect((await arrival(practice, { "Sec-Fetch-Site": "same-site" })).autoStart).toBe(false);
    expect((await arrival(practice, {})).autoStart).toBe(false);
    // "Avvia" posts the draw to /test (same-origin only): it is what claims the slot.
    const started = await postForm(
      "/test",
      { subjectId: "4", count: "1", time: "1", rushEventId: String(event.id) },
      student,
    );
    expect(started.status).toBe(302);
    expect(await count("rush_progress", `event_id = ${event.id} AND user_id = 1 AND subject_id = 4`)).toBe(1);
  });

  it("/rush's 'Avvia quiz' posts to /rush: the 31-question quiz of the active event, the slot claimed, then the runner", async () => {
    // No event: refused with the reason, nothing drawn.
    const quizzes = await count("quizzes");
    const closed = await postForm("/rush", { subjectId: "2" }, student);
    expect(closed.status).toBe(409);
    expect(await replyError(closed)).toBe(RUSH_INACTIVE_MESSAGE);
    expect(await count("quizzes")).toBe(quizzes);

    const event = await activeEvent();
    const started = await postForm("/rush", { subjectId: "2" }, student);
    expect(started.status).toBe(302);
    const quizId = Number(started.headers.get("Location")!.match(/^\/test\?id=(\d+)$/)![1]);
    const quiz = await env.DB.prepare(
      "SELECT kind, rush_event_id, time_limit_sec, (SELECT count(*) FROM quiz_questions WHERE quiz_id = quizzes.id) AS n FROM quizzes WHERE id = ?",
    )
      .bind(quizId)
      .first();
    expect(quiz).toEqual({ kind: "rush", rush_event_id: event.id, time_limit_sec: null, n: 31 });
    expect(await count("rush_progress", `event_id = ${event.id} AND user_id = 1 AND subject_id = 2`)).toBe(1);

    const again = await postForm("/rush", { subjectId: "2" }, student);
    expect(again.status).toBe(409);
    expect(await replyError(again)).toBe(RUSH_DUPLICATE_MESSAGE);
    expect((await postForm("/rush", { subjectId: "abc" }, student)).status).toBe(400);
    // From another site: the Worker's same-origin rule, before the action.
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(student)}`;
    const foreign = await callGuarded("POST", "/rush", {
      cookie,
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "subjectId=3",
    });
    expect(foreign.status).toBe(403);
    expect(await count("rush_progress", `event_id = ${event.id} AND subject_id = 3`)).toBe(0);
  });
});

describe("one attempt per subject per event", () => {
  it("refuses a second start of the same subject, on the server, with the duplicate message", async () => {
    const event = await activeEvent();
    await claimRushStart(db(), { userId: 1, eventId: event.id, subjectId: 1 });
    const second = claimRushStart(db(), { userId: 1, eventId: event.id, subjectId: 1 });
    await expect(second).rejects.toBeInstanceOf(HttpError);
    await expect(claimRushStart(db(), { userId: 1, eventId: event.id, subjectId: 1 })).rejects.toMatchObject({
      status: 409,
      message: RUSH_DUPLICATE_MESSAGE,
    });
    expect(await count("rush_progress", `event_id = ${event.id} AND user_id = 1`)).toBe(1);
    // Another subject, or another student, is still free.
    await claimRushStart(db(), { userId: 1, eventId: event.id, subjectId: 2 });
    await claimRushStart(db(), { userId: 2, eventId: event.id, subjectId: 1 });
    // Another event's id is refused while this one is active.
    await expect(claimRushStart(db(), { userId: 1, eventId: event.id + 1000, subjectId: 3 })).rejects.toMatchObject({
      status: 409,
    });

    // The start page refuses the taken subject and says why on /rush.
    const response = await call("GET", "/quiz-rush/start?subject=1", { token: student });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/rush?errore=duplicato");
    // ...also after the subject has been graded.
    await gradeRushAttempt({ userId: 1, eventId: event.id, subjectId: 2, score: 20, timeSec: 600 });
    expect((await call("GET", "/quiz-rush/start?subject=2", { token: student })).headers.get("Location")).toBe(
      "/rush?errore=duplicato",
    );
    expect((await call("GET", "/quiz-rush/start?subject=3", { token: student })).status).toBe(200);
  });
});

describe("scores come from the server", () => {
  it("records the graded attempt's score and time, shows it in progress and on /rush", async () => {
    const event = await activeEvent();
    await claimRushStart(db(), { userId: 1, eventId: event.id, subjectId: 1 });
    let progress = await json<{ items: unknown[]; pending: number[] }>(
      await call("GET", "/api/rush/progress", { token: student }),
    );
    expect(progress.items).toEqual([]);
    expect(progress.pending).toEqual([1]);

    const finishedAt = new Date(Date.now() - 60_000);
    const attemptId = await gradeRushAttempt({
      userId: 1,
      eventId: event.id,
      subjectId: 1,
      score: 24.5,
      timeSec: 900,
      finishedAt,
    });
    progress = await json(await call("GET", "/api/rush/progress", { token: student }));
    expect(progress.items).toEqual([{ subjectId: 1, score: 24.5, at: finishedAt.toISOString(), timeSec: 900 }]);
    expect(progress.pending).toEqual([]);
    const row = await env.DB.prepare(
      "SELECT attempt_id FROM rush_progress WHERE user_id = 1 AND subject_id = 1",
    ).first<{ attempt_id: number }>();
    expect(row?.attempt_id).toBe(attemptId);

    const page = await json<{
      progress: { items: { subjectId: number; score: number }[] };
      leaderboard: { overall: number };
    }>(await call("GET", "/rush", { token: student }));
    expect(page.progress.items).toMatchObject([{ subjectId: 1, score: 24.5 }]);
    expect(page.leaderboard.overall).toBe(1);
    // The friend sees none of it as their own.
    expect(
      (await json<{ items: unknown[] }>(await call("GET", "/api/rush/progress", { token: friend }))).items,
    ).toEqual([]);
  });

  it("records only the first result, only on a claimed slot, clamped to 0-31", async () => {
    const event = await activeEvent();
    // Not claimed: the statement changes nothing.
    await gradeRushAttempt({ userId: 1, eventId: event.id, subjectId: 3, score: 30, timeSec: 100 });
    expect(await count("rush_progress")).toBe(0);

    await claimRushStart(db(), { userId: 1, eventId: event.id, subjectId: 1 });
    await gradeRushAttempt({ userId: 1, eventId: event.id, subjectId: 1, score: -1.2, timeSec: 500 });
    await gradeRushAttempt({ userId: 1, eventId: event.id, subjectId: 1, score: 31, timeSec: 100 });
    const row = await env.DB.prepare(
      "SELECT score, time_sec FROM rush_progress WHERE user_id = 1 AND subject_id = 1",
    ).first<{ score: number; time_sec: number }>();
    expect(row).toEqual({ score: 0, time_sec: 500 });

    await claimRushStart(db(), { userId: 1, eventId: event.id, subjectId: 2 });
    await gradeRushAttempt({ userId: 1, eventId: event.id, subjectId: 2, score: 40, timeSec: 100 });
    expect(
      (
        await env.DB.prepare("SELECT score FROM rush_progress WHERE user_id = 1 AND subject_id = 2").first<{
          score: number;
        }>()
      )?.score,
    ).toBe(31);
  });

  it("ignores forged rushDone/score parameters and client-sent scores: nothing is recorded or shown", async () => {
    const event = await activeEvent();
    const forged = await call("GET", "/rush?rushDone=1&subject=2&score=31", { token: student });
    expect(forged.status).toBe(200);
    const page = await json<{
      progress: { items: unknown[] };
      leaderboard: { overall: number | null; items: unknown[] };
    }>(forged);
    expect(page.progress.items).toEqual([]);
    expect(page.leaderboard).toMatchObject({ overall: null, items: [] });

    const viaQuery = await json<{ items: unknown[] }>(
      await call("GET", "/api/rush/progress?rushDone=1&subject=2&score=31", { token: student }),
    );
    expect(viaQuery.items).toEqual([]);
    const posted = await call("POST", "/api/rush/progress", {
      token: student,
      json: { subjectId: 2, score: 31, eventId: event.id },
    });
    expect(posted.status).toBe(405);
    const leaderboardPost = await call("POST", "/api/rush/leaderboard", {
      token: student,
      json: { subjectId: 2, score: 31 },
    });
    expect(leaderboardPost.status).toBe(405);
    expect(await count("rush_progress")).toBe(0);
  });
});

describe("rankings", () => {
  // user id (1 and 2 are the demo student and friend, 100+ synthetic students): [subjectId, score, timeSec, finished minutes after the base][]
  const ROWS: Record<number, [number, number, number, number][]> = {
    1: [
      [1, 25, 300, 10],
      [2, 10, 100, 30],
    ], // A: 35 in 400 s
    2: [
      [1, 25, 200, 20],
      [2, 10, 100, 40],
    ], // B: 35 in 300 s
    100: [[1, 25, 200, 5]], // C: 25 in 200 s
    101: [[1, 28, 900, 50]], // D: 28, one subject only (the others count 0)
    102: [[1, 25, 300, 10]], // E: exactly A's Biologia result
    104: [
      [1, 2.7, 400, 60],
      [2, 29.6, 300, 70],
      [3, 2.7, 300, 80],
    ], // G: 35 (2.7+29.6+2.7 drifts in floating point) in 1000 s
  };

  async function load(eventId: number) {
    const base = Date.now() - 3 * 60 * 60_000;
    const statements = [];
    for (const [user, rows] of Object.entries(ROWS)) {
      for (const [subject, score, time, minutes] of rows) {
        statements.push(
          env.DB.prepare(
            "INSERT INTO rush_progress (event_id, user_id, subject_id, score, time_sec, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          ).bind(eventId, Number(user), subject, score, time, base, base + minutes * 60_000),
        );
      }
    }
    // F: claimed Biologia but never finished; not ranked.
    statements.push(
      env.DB.prepare(
        "INSERT INTO rush_progress (event_id, user_id, subject_id, started_at) VALUES (?, 103, 1, ?)",
      ).bind(eventId, base),
    );
    await env.DB.batch(statements);
  }

  it("orders each subject by score, then shorter time, then earlier finish; equal results share a position", async () => {
    const event = await activeEvent();
    await load(event.id);
    const positions = async (userId: number) =>
      (await rushLeaderboard(db(), userId, event.id)).items.map((i) => [i.subjectId, i.position, i.participants]);
    expect(await positions(101)).toEqual([[1, 1, 6]]); // D: best score
    expect(await positions(100)).toEqual([[1, 2, 6]]); // C: 25 in 200 s, finished first
    expect(await positions(2)).toEqual([
      [1, 3, 6],
      [2, 3, 3],
    ]); // B: 25 in 200 s, finished later
    expect(await positions(1)).toEqual([
      [1, 4, 6],
      [2, 2, 3],
    ]); // A: 25 in 300 s; Biologia tied with E
    expect(await positions(102)).toEqual([[1, 4, 6]]);
    expect(await positions(104)).toEqual([
      [1, 6, 6],
      [2, 1, 3],
      [3, 1, 1],
    ]);
    expect(await positions(103)).toEqual([]); // not finished
  });

  it("ranks overall by the sum over subjects (missing counts 0), then shorter total time, then earlier finish", async () => {
    const event = await activeEvent();
    await load(event.id);
    const overall = async (userId: number) => {
      const board = await rushLeaderboard(db(), userId, event.id);
      return [board.overall, board.participants];
    };
    expect(await overall(2)).toEqual([1, 6]); // B: 35 in 300 s
    expect(await overall(1)).toEqual([2, 6]); // A: 35 in 400 s
    expect(await overall(104)).toEqual([3, 6]); // G: 35 in 1000 s, not ahead because of float drift
    expect(await overall(101)).toEqual([4, 6]); // D: 28, its missing subjects count 0
    expect(await overall(100)).toEqual([5, 6]); // C: 25 in 200 s
    expect(await overall(102)).toEqual([6, 6]); // E: 25 in 300 s
    expect(await overall(103)).toEqual([null, 6]);

    // The same through the call, for the signed-in student and the friend.
    const mine = await json(await call("GET", "/api/rush/leaderboard", { token: student }));
    expect(mine).toEqual({
      eventId: event.id,
      items: [
        { subjectId: 1, position: 4, participants: 6 },
        { subjectId: 2, position: 2, participants: 3 },
      ],
      overall: 2,
      participants: 6,
      totalScore: 35,
    });
    expect((await json(await call("GET", "/api/rush/leaderboard", { token: friend }))).overall).toBe(1);
  });

  it("answers empty positions when no event is active", async () => {
    const response = await call("GET", "/api/rush/leaderboard", { token: student });
    expect(await json(response)).toEqual({ eventId: null, items: [], overall: null, participants: 0, totalScore: 0 });
  });
});

describe("admin rush events", () => {
  const valid = {
    title: "Rush di dicembre",
    startsAt: "2026-12-01T10:00",
    endsAt: "2026-12-01T22:00",
    published: true,
  };

  it("creates, lists, updates and deletes events; naive times are read in Europe/Rome", async () => {
    const created = await createEvent(valid);
    expect(created).toMatchObject({
      title: "Rush di dicembre",
      startsAt: "2026-12-01T09:00:00.000Z",
      endsAt: "2026-12-01T21:00:00.000Z",
      published: true,
    });
    const summer = await createEvent({
      ...valid,
      title: "Estate",
      startsAt: "2026-07-01T10:00",
      endsAt: "2026-07-02T10:00",
      published: false,
    });
    expect(summer.startsAt).toBe("2026-07-01T08:00:00.000Z"); // CEST, UTC+2
    const epoch = await createEvent({
      ...valid,
      title: "Epoch",
      startsAt: Date.UTC(2027, 0, 1),
      endsAt: "2027-01-02T00:00:00+01:00",
    });
    expect(epoch).toMatchObject({ startsAt: "2027-01-01T00:00:00.000Z", endsAt: "2027-01-01T23:00:00.000Z" });

    const list = await json<unknown[]>(await call("GET", "/api/admin/rush-events", { token: admin }));
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((e) => (e as { title: string }).title)).toEqual(["Epoch", "Rush di dicembre", "Estate"]);

    const updated = await call("PUT", `/api/admin/rush-events/${summer.id}`, {
      token: admin,
      json: { ...valid, title: "Estate (rinviata)", published: true },
    });
    expect(updated.status).toBe(200);
    expect(await json(updated)).toMatchObject({
      id: summer.id,
      title: "Estate (rinviata)",
      startsAt: "2026-12-01T09:00:00.000Z",
      published: true,
    });

    await env.DB.prepare("INSERT INTO rush_progress (event_id, user_id, subject_id, started_at) VALUES (?, 1, 1, 0)")
      .bind(summer.id)
      .run();
    const deleted = await call("DELETE", `/api/admin/rush-events/${summer.id}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(await count("rush_events", `id = ${summer.id}`)).toBe(0);
    expect(await count("rush_progress", `event_id = ${summer.id}`)).toBe(0);
    expect(
      await count(
        "audit_log",
        `target_type = 'rush_event' AND action = 'rush_event.delete' AND target_id = '${summer.id}'`,
      ),
    ).toBe(1);

    expect((await call("DELETE", `/api/admin/rush-events/${summer.id}`, { token: admin })).status).toBe(404);
    const missing = await call("PUT", "/api/admin/rush-events/99999", { token: admin, json: valid });
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toBe("Evento Rush inesistente.");
    expect((await call("DELETE", "/api/admin/rush-events/abc", { token: admin })).status).toBe(400);
  });

  const invalid: [string, unknown, RegExp][] = [
    ["no title", { ...valid, title: "  " }, /titolo è obbligatorio/],
    ["missing title", { startsAt: valid.startsAt, endsAt: valid.endsAt }, /titolo è obbligatorio/],
    ["end before start", { ...valid, endsAt: "2026-12-01T09:00" }, /fine deve essere successiva all'inizio/],
    ["end equal to start", { ...valid, endsAt: valid.startsAt }, /fine deve essere successiva/],
    ["malformed start", { ...valid, startsAt: "domani" }, /Inizio: data e ora non valide/],
    ["impossible date", { ...valid, startsAt: "2026-02-31T10:00" }, /Inizio: data e ora non valide/],
    ["missing end", { title: "x", startsAt: valid.startsAt }, /Fine/],
    ["published not a boolean", { ...valid, published: "sì" }, /Pubblicato/],
  ];
  for (const [label, body, message] of invalid) {
    it(`answers 400 in Italian and writes nothing for ${label}`, async () => {
      const existing = await createEvent(valid);
      const before = await count("rush_events");
      const posted = await call("POST", "/api/admin/rush-events", { token: admin, json: body });
      expect(posted.status).toBe(400);
      expect((await json(posted)).error).toMatch(message);
      const put = await call("PUT", `/api/admin/rush-events/${existing.id}`, { token: admin, json: body });
      expect(put.status).toBe(400);
      expect(await count("rush_events")).toBe(before);
      expect(await count("rush_events", `title = 'Rush di dicembre' AND id = ${existing.id}`)).toBe(1);
    });
  }

  it("answers 400 to a missing or malformed body", async () => {
    expect((await call("POST", "/api/admin/rush-events", { token: admin })).status).toBe(400);
    expect(
      (
        await call("POST", "/api/admin/rush-events", {
          token: admin,
          body: "{x",
          headers: { "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(400);
    expect(await count("rush_events")).toBe(0);
  });

  it("refuses a day or a time that does not exist (issue 44: 2026-02-31 was saved as 3 March), writing nothing", async () => {
    for (const [startsAt, endsAt] of [
      ["2030-02-31T10:00:00Z", "2030-03-10T10:00:00Z"],
      ["2030-04-31T10:00:00+02:00", "2030-05-10T10:00:00+02:00"],
      ["2030-03-01T10:00", "2030-03-01T10:75"],
      ["2030-03-01T10:00:00Z", "2030-03-01T24:00:00Z"],
    ]) {
      const response = await call("POST", "/api/admin/rush-events", {
        token: admin,
        json: { title: "Rush impossibile", startsAt, endsAt, published: true },
      });
      expect(response.status, startsAt).toBe(400);
      expect((await json(response)).error, startsAt).toMatch(/data e ora non valide/);
    }
    expect(await count("rush_events")).toBe(0);
  });

  it("refuses every admin call to students and moderators (403) and to visitors (401), writing nothing", async () => {
    const event = await createEvent(valid);
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/admin/rush-events"],
      ["POST", "/api/admin/rush-events", valid],
      ["PUT", `/api/admin/rush-events/${event.id}`, { ...valid, title: "Hack" }],
      ["DELETE", `/api/admin/rush-events/${event.id}`],
    ];
    for (const [method, path, body] of calls) {
      for (const token of [student, moderator]) {
        const response = await call(method, path, { token, json: body });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect((await json(response)).error).toMatch(/permessi/);
      }
      expect((await call(method, path, { json: body })).status, `${method} ${path}`).toBe(401);
    }
    expect(await count("rush_events")).toBe(1);
    expect(await count("rush_events", `title = 'Rush di dicembre'`)).toBe(1);
  });
});
