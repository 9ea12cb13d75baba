// The exam day alone (issue 46, point 2, "Done when"): a student's own run of the default edition's whole day through
// the live simulation's machinery (workerd, real D1 and Durable Objects). Its papers in the edition's order with its
// minutes and breaks and the student's extra time, THE stored timeline; a reload (a new socket, the page read again)
// in the first break resumes where it was and grades what was answered; cutting the break short moves the next opening
// (and the stored end and seal) earlier by what was left of it; refusals in Italian that change nothing; other
// accounts reach nothing of it. Its standing among other students' days: solo-day-standing.test.ts.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { italianDay, italianMidnight } from "~/lib/days";
import { gradeSimulation } from "~/lib/simulation";
import { sittingTimeline } from "~/lib/sitting-timeline";
import { SOLO_TEXT } from "~/lib/solo-day";
import { getDb } from "~/server/db/client.server";
import { editionOrDefault } from "~/server/editions.server";
import { answerKeysOf, loadSimulation } from "~/server/simulation/plan.server";
import { readPlanRows } from "~/server/study-plan-reads.server";
import { dayWork } from "~/server/study-plan.server";
import { call, json, login, seed } from "./helpers";
import { connectRoom } from "./room-socket";
import {
  defaultEditionRow,
  type Edition,
  MIN,
  newStudent,
  passTo as passToAs,
  type Started,
  startDay,
  stored,
} from "./solo-day-fixtures";

type View = { solo: boolean; flow: { id: number; questions: { id: number; type: string; options?: string[] }[] }[] };

let admin: string;
let edition: Edition;

const start = (token: string, body: unknown = { editionId: edition.id }) => startDay(token, body);
const passTo = (id: string, at: number) => passToAs(admin, id, at);
const view = async (id: string, token: string) => json<View>(await call("GET", `/api/simulations/${id}`, { token }));

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  edition = await defaultEditionRow();
});

describe("the exam day alone", () => {
  it("starts the default edition's day for its student: papers in order, the edition's minutes and breaks, their extra time, THE timeline", async () => {
    const s = await newStudent("solo-avvio", 30);
    const response = await start(s.token);
    expect(response.status, await response.clone().text()).toBe(201);
    const day = await json<Started>(response);
    const { results: rows } = await env.DB.prepare(
      "SELECT subject_id AS subjectId, time_min AS timeMin, break_after_min AS breakAfterMin, question_count AS n FROM simulation_subjects WHERE simulation_id = ? ORDER BY position",
    )
      .bind(day.id)
      .all<{ subjectId: number; timeMin: number; breakAfterMin: number; n: number }>();
    const f = edition.format;
    expect(rows).toEqual(
      f.subjects.map((x, i) => ({
        subjectId: x.subjectId,
        timeMin: x.minutes,
        breakAfterMin: i < f.subjects.length - 1 ? f.breakMin : 0,
        n: f.questionTotal,
      })),
    );
    const flow = rows.map((r) => ({ id: r.subjectId, name: "", timeMin: r.timeMin, breakAfterMin: r.breakAfterMin }));
    const timeline = sittingTimeline(flow, day.startTime, [30]);
    expect(await stored(day.id)).toEqual({ ...timeline, scope: "audience", owner: s.id });
    expect(day.endsAt).toBe(timeline.endsAt);
    // Its own questions, each of the paper's subject, none twice.
    const { results: qs } = await env.DB.prepare(
      `SELECT sq.subject_position AS p, q.subject_id AS subjectId, q.id FROM simulation_questions sq
       JOIN questions q ON q.id = sq.question_id WHERE sq.simulation_id = ?`,
    )
      .bind(day.id)
      .all<{ p: number; subjectId: number; id: number }>();
    expect(qs).toHaveLength(f.questionTotal * f.subjects.length);
    expect(new Set(qs.map((q) => q.id)).size).toBe(qs.length);
    expect(qs.every((q) => q.subjectId === f.subjects[q.p]!.subjectId)).toBe(true);
    // The student sees it as theirs, with +30 % on every paper.
    const mine = await json<{ running: Started | null; extraPct: number }>(
      await call("GET", "/api/me/exam-days", { token: s.token }),
    );
    expect(mine.running?.id).toBe(day.id);
    expect(mine.extraPct).toBe(30);
    const seen = await json<View & { extraTimePct: number }>(
      await call("GET", `/api/simulations/${day.id}`, { token: s.token }),
    );
    expect(seen).toMatchObject({ solo: true, extraTimePct: 30 });
  });

  it("refuses in Italian and changes nothing: a second day while one runs, another edition, a bad body; other accounts reach none of it", async () => {
    const s = await newStudent("solo-rifiuti");
    const other = await newStudent("solo-altro");
    const count = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM simulations WHERE solo_user_id = ?").bind(s.id).first<{
        n: number;
      }>())!.n;
    for (const [body, message] of [
      [{ editionId: edition.id + 1000 }, SOLO_TEXT.errors.edition],
      [{ editionId: "tutte" }, SOLO_TEXT.errors.edition],
      [{ editionId: edition.id, altro: 1 }, null],
    ] as const) {
      const refused = await start(s.token, body);
      expect(refused.status).toBe(400);
      const { error } = await json<{ error: string }>(refused);
      if (message) expect(error).toContain(message);
      else expect(error).toMatch(/[àèéìòù]|non|campo/i);
    }
    expect(await count()).toBe(0);
    // Two starts at once: one day.
    const both = await Promise.all([start(s.token), start(s.token)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = both.find((r) => r.status === 409)!;
    expect((await json(refused)).error).toBe(SOLO_TEXT.errors.running);
    expect(await count()).toBe(1);
    const day = await json<Started>(both.find((r) => r.status === 201)!);
    const again = await start(s.token);
    expect(again.status).toBe(409);
    expect(await count()).toBe(1);

    // Not in a break (the first paper is open): nothing moves.
    await passTo(day.id, 1000);
    const before = await stored(day.id);
    const early = await call("POST", `/api/simulations/${day.id}/skip-break`, { token: s.token, json: {} });
    expect(early.status).toBe(409);
    expect((await json(early)).error).toBe(SOLO_TEXT.errors.notInBreak);
    expect(await stored(day.id)).toEqual(before);

    // Another account: no page, no questions, no ranking, no skip, no attempt.
    expect((await call("GET", `/api/simulations/${day.id}`, { token: other.token })).status).toBe(403);
    expect((await call("GET", `/api/simulations/${day.id}/ranking`, { token: other.token })).status).toBe(403);
    expect((await call("GET", `/simulazione?id=${day.id}`, { token: other.token })).status).toBe(403);
    const attempt = await call("POST", `/api/simulations/${day.id}/attempt`, {
      token: other.token,
      json: { answers: {}, timeTaken: 0 },
    });
    expect(attempt.status).toBe(403);
    const skip = await call("POST", `/api/simulations/${day.id}/skip-break`, { token: other.token, json: {} });
    expect(skip.status).toBe(404);
    expect((await json(skip)).error).toBe(SOLO_TEXT.errors.notYours);
    expect(await stored(day.id)).toEqual(before);
    // Nor does a day alone show in the staff's list.
    const listed = await json<{ id: string }[]>(await call("GET", "/api/admin/simulations", { token: admin }));
    expect(listed.map((x) => x.id)).not.toContain(day.id);
  });

  it("reloaded in the first break it resumes where it was; cutting the break opens the next paper now; it grades what was answered", async () => {
    const s = await newStudent("solo-giornata");
    const day = await json<Started>(await start(s.token));
    const f = edition.format;
    const [m1, m2, m3] = f.subjects.map((x) => x.minutes * MIN) as [number, number, number];
    await passTo(day.id, 1000);
    let socket = await connectRoom(day.id, s.token);
    await socket.next("hello");
    const first = (await view(day.id, s.token)).flow;
    expect(first[0]!.questions).toHaveLength(f.questionTotal);
    expect(first[1]!.questions).toHaveLength(0);
    // Three answers of the first paper, each acknowledged (autosaved in the room).
    const subjectId = first[0]!.id;
    const given: Record<string, string> = {};
    for (const q of first[0]!.questions.slice(0, 3)) {
      const value = q.type === "mc" ? q.options![0]! : "42";
      given[String(q.id)] = value;
      socket.send({ type: "answer", seq: q.id, subjectId, questionId: q.id, value });
      await socket.next("ack", (m) => m.questionId === q.id);
    }

    // The first paper ends: the break.
    await passTo(day.id, m1 + 5000);
    await socket.next("subject-closed", (m) => m.closedThrough === 1);
    // The page is reloaded: a new socket and the flow read again. Where it was: one paper closed, its answers there,
    // the same order, the next paper still sealed.
    socket.ws.close();
    socket = await connectRoom(day.id, s.token);
    const hello = await socket.next("hello");
    expect(hello).toMatchObject({ started: true, closedThrough: 1, answers: { [subjectId]: given } });
    const reloaded = (await view(day.id, s.token)).flow;
    expect(reloaded[0]!.questions.map((q) => q.id)).toEqual(first[0]!.questions.map((q) => q.id));
    expect(reloaded[1]!.questions).toHaveLength(0);

    // "Salta la pausa": the rest of the day moves earlier by what was left of the break; the second paper opens now.
    const before = (await stored(day.id))!;
    const nextOpening = before.startTime + m1 + f.breakMin * MIN;
    const at = Date.now();
    const skipped = await call("POST", `/api/simulations/${day.id}/skip-break`, { token: s.token, json: {} });
    expect(skipped.status, await skipped.clone().text()).toBe(200);
    const moved = await json<Started>(skipped);
    const delta = before.startTime - moved.startTime;
    expect(delta).toBeGreaterThan(nextOpening - Date.now() - 50);
    expect(delta).toBeLessThanOrEqual(nextOpening - at);
    expect(await stored(day.id)).toEqual({
      ...before,
      startTime: before.startTime - delta,
      endsAt: before.endsAt - delta,
      sealUntil: before.sealUntil - delta,
    });
    await socket.next("simulation-start", (m) => m.startTime === moved.startTime);
    await socket.next("subject-key", (m) => m.subject === 1);
    expect((await view(day.id, s.token)).flow[1]!.questions).toHaveLength(f.questionTotal);
    // In the second paper there is no break to skip.
    expect((await call("POST", `/api/simulations/${day.id}/skip-break`, { token: s.token, json: {} })).status).toBe(
      409,
    );

    // To the end: the room grades what was answered, exactly as the answers grade.
    await passTo(day.id, m1 + m2 + m3 + 2 * f.breakMin * MIN + 5000);
    await socket.next("simulation-end");
    socket.ws.close();
    const attempt = await env.DB.prepare(
      "SELECT answers, subjects_result AS result, rank_key AS rankKey FROM simulation_attempts WHERE simulation_id = ? AND user_id = ?",
    )
      .bind(day.id, s.id)
      .first<{ answers: string; result: string; rankKey: number }>();
    expect(JSON.parse(attempt!.answers)).toEqual({ [subjectId]: given });
    const config = await loadSimulation(getDb(env.DB), day.id);
    expect(JSON.parse(attempt!.result)).toEqual(
      gradeSimulation(answerKeysOf(config!), { [subjectId]: given }).subjects,
    );
    // The plan counts the day's papers as done today (the edition's full papers, timed), in its one batch.
    const now = Date.now();
    const rows = await readPlanRows(getDb(env.DB), {
      userId: s.id,
      now,
      dayStart: italianMidnight(italianDay(now)),
      gated: false,
    });
    const defaultEdition = await editionOrDefault(getDb(env.DB), null);
    expect(dayWork(defaultEdition, rows).papers).toEqual(f.subjects.map((x) => x.subjectId));
    // Over: another day may start.
    expect((await start(s.token)).status).toBe(201);
  });
});
