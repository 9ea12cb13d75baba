// The plan to a sitting (issue 46, point 1) through the real routes and D1: a plan saved and read, today's work
// marked done from real attempts (the day's card unchanged by it), bad input refused in Italian with nothing changed,
// and the dashboard's card within its two round trips. The grades after a sitting: sitting-grades.test.ts.
import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { D1_ROUNDS_HEADER } from "~/lib/d1-rounds";
import { addDays, italianDay, italianMidnight } from "~/lib/days";
import type { PlanItem } from "~/lib/study-plan";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { d1RoundsFor } from "~/server/d1-rounds.server";
import { getDb } from "~/server/db/client.server";
import { forgetSharedStats, sharedStats } from "~/server/shared-stats.server";
import { provideRequestContext } from "~/server/request-context.server";
import { readPlanRows } from "~/server/study-plan-reads.server";
import { answeredBefore, call, json, makeContext } from "./helpers";
import {
  type Active,
  activePlan,
  DAY,
  freshStudent,
  NEXT,
  PAST,
  page,
  plan,
  planRow,
  seedWithSittings,
  today,
} from "./plan-fixtures";

beforeAll(seedWithSittings);

/** A real practice quiz of `count` questions of a subject, answered (every answer given, right or not). */
async function practise(token: string, query: string) {
  const drawn = await json<{ quizId: number; questions: { id: number; type: string; options?: unknown[] }[] }>(
    await call("GET", `/api/quiz?${query}`, { token }),
  );
  const answers = drawn.questions.map((q) =>
    q.type === "gap"
      ? { question_id: q.id, answer_text: "prova", time_sec: 20 }
      : { question_id: q.id, option_id: 0, time_sec: 20 },
  );
  const submitted = await call("POST", `/api/quiz/${drawn.quizId}/attempt`, {
    token,
    json: { answers, timeTaken: 300 },
  });
  expect(submitted.status, await submitted.clone().text()).toBe(200);
  return drawn.questions.length;
}

const practiceItem = (items: PlanItem[]) =>
  items.find((i) => i.kind === "practice") as Extract<PlanItem, { kind: "practice" }>;

describe("the plan, saved and read", () => {
  it("PUT saves a sitting of the default edition; GET gives every day to its eve, today first", async () => {
    const s = await freshStudent();
    expect((await page(s.token)).plan.state).toBe("none");
    const saved = await call("PUT", "/api/me/plan", {
      token: s.token,
      json: { ...plan, weekdays: [null, null, null, null, null, 180, 0] },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(await planRow(s.id)).toMatchObject({ sitting_date: NEXT, minutes_per_day: 60 });
    const p = await activePlan(s.token);
    expect(p.days[0]!.date).toBe(today);
    expect(p.days.at(-1)!.date).toBe(addDays(NEXT, -1));
    expect(p.days).toHaveLength(p.daysLeft);
    // Sundays are a day off, Saturdays have three hours; every other day fits its hour.
    for (const d of p.days) {
      const weekday = (new Date(`${d.date}T12:00:00Z`).getUTCDay() + 6) % 7;
      expect(d.budget).toBe(weekday === 6 ? 0 : weekday === 5 ? 180 : 60);
      if (!d.overBudget) expect(d.minutes).toBeLessThanOrEqual(d.budget);
    }
    expect(p.days.filter((d) => d.items.some((i) => i.kind === "exam-day"))).toHaveLength(2);
    // DELETE removes it.
    expect((await call("DELETE", "/api/me/plan", { token: s.token })).status).toBe(200);
    expect(await planRow(s.id)).toBeNull();
  });

  it("refuses bad input with a 4xx in Italian and changes nothing", async () => {
    const s = await freshStudent();
    await call("PUT", "/api/me/plan", { token: s.token, json: plan });
    const before = await planRow(s.id);
    const bad: [unknown, number, RegExp][] = [
      [{ ...plan, minutesPerDay: 0 }, 400, /Minuti al giorno/],
      [{ ...plan, minutesPerDay: 10_000 }, 400, /Minuti al giorno/],
      [{ ...plan, minutesPerDay: 45.5 }, 400, /Minuti al giorno/],
      [{ ...plan, editionId: 1 }, 400, /edizione in corso/],
      [{ ...plan, sittingDate: addDays(NEXT, 1) }, 400, /Appello non trovato/],
      [{ ...plan, sittingDate: "2026-02-31" }, 400, /Appello non trovato/],
      [{ ...plan, sittingDate: PAST }, 409, /già iniziato/],
      [{ ...plan, weekdays: [60, 60] }, 400, /7 valori/],
      [{ ...plan, weekdays: [60, 60, 60, 60, 60, 60, -5] }, 400, /Minuti di un giorno/],
      [{ ...plan, userId: 1 }, 400, /.+/],
    ];
    for (const [body, status, message] of bad) {
      const response = await call("PUT", "/api/me/plan", { token: s.token, json: body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await json<{ error: string }>(response)).error).toMatch(message);
    }
    expect(await planRow(s.id)).toEqual(before);
  });
});

describe("work done, from real attempts", () => {
  it("a practice quiz marks today's block of its subject; the day's items stay what they were", async () => {
    const s = await freshStudent();
    await call("PUT", "/api/me/plan", { token: s.token, json: { ...plan, minutesPerDay: 120 } });
    const first = await activePlan(s.token);
    const item = practiceItem(first.today!.items);
    expect(item).toBeDefined();
    expect(first.today!.items.every((i) => i.done === 0)).toBe(true);
    const answered = await practise(
      s.token,
      `subjectId=${item.subjectId}&count=${Math.min(10, item.count)}&mode=mirato`,
    );
    const after = await activePlan(s.token);
    const marked = after.today!.items.find((i) => i.kind === "practice" && i.subjectId === item.subjectId)!;
    expect(marked.done).toBe(Math.min(answered, item.count));
    // Today's plan was computed from the state at the start of the day: the same items, only the progress moved.
    const strip = (items: NonNullable<Active["today"]>["items"]) => items.map(({ done: _d, complete: _c, ...i }) => i);
    expect(strip(after.today!.items)).toEqual(strip(first!.today!.items));
  });

  it("the review of the day: due questions are today's reviews, and a redo of them marks them done", async () => {
    const s = await freshStudent();
    const due = [2001, 2002, 2003, 2004, 2005];
    await answeredBefore(s.email, due, Date.now() - 3 * DAY);
    const now = Date.now();
    await env.DB.batch(
      due.map((q) =>
        env.DB.prepare(
          `INSERT INTO question_memory (user_id, question_id, due, stability, difficulty, reps, state, last_review, last_correct)
           VALUES (?, ?, ?, 1, 5, 1, 2, ?, 0)`,
        ).bind(s.id, q, now - DAY, now - 3 * DAY),
      ),
    );
    await call("PUT", "/api/me/plan", { token: s.token, json: plan });
    const before = await activePlan(s.token);
    expect(before.today!.items[0]).toMatchObject({ kind: "review", count: 5, done: 0 });
    const redo = await json<{ quizId: number }>(
      await call("GET", `/api/quiz?ids=${due.join(",")}`, { token: s.token }),
    );
    const answers = due.map((q) => ({ question_id: q, option_id: 0, answer_text: "x", time_sec: 10 }));
    expect(
      (await call("POST", `/api/quiz/${redo.quizId}/attempt`, { token: s.token, json: { answers, timeTaken: 60 } }))
        .status,
    ).toBe(200);
    const after = await activePlan(s.token);
    expect(after.today!.items[0]).toMatchObject({ kind: "review", count: 5, done: 5, complete: true });
  });

  it("the dashboard's reads of a student without a plan read next to nothing, however long their history", async () => {
    // The demo student: 60 days of answers and reviews, no plan.
    const demo = (await env.DB.prepare("SELECT id FROM users WHERE email = 'studente@example.com'").first<{
      id: number;
    }>())!;
    const now = Date.now();
    const args = { userId: demo.id, now, dayStart: italianMidnight(italianDay(now)) };
    const gated = await readPlanRows(getDb(env.DB), { ...args, gated: true });
    const open = await readPlanRows(getDb(env.DB), { ...args, gated: false });
    expect(gated.plan).toBeNull();
    expect(open.groups.length).toBeGreaterThan(10);
    // A few rows of the editions and the seal's small tables, against the thousands of the history.
    expect(gated.rowsRead).toBeLessThan(50);
    expect(open.rowsRead).toBeGreaterThan(1000);
  });

  it("the dashboard shows today's card within its two round trips", async () => {
    const s = await freshStudent();
    await call("PUT", "/api/me/plan", { token: s.token, json: plan });
    // As in d1-rounds.test.ts: the shared stats' snapshot stored for the current version (a first dashboard stores it).
    await sharedStats(getDb(env.DB));
    forgetSharedStats();
    const rounds = d1RoundsFor(
      new Request("http://localhost/", { headers: { [D1_ROUNDS_HEADER]: "1" } }),
      env as unknown as Env,
    )!;
    const request = new Request("http://localhost/dashboard", { headers: { Authorization: `Bearer ${s.token}` } });
    const context = makeContext({ DB: rounds.env.DB }, createExecutionContext());
    provideRequestContext(request, context);
    const data = await dashboardLoader({ request, context, params: {} } as unknown as Parameters<
      typeof dashboardLoader
    >[0]);
    const [card] = await Promise.all([data.plan, data.data, data.happening, data.grades, data.assignmentsDue]);
    expect(card).toMatchObject({ state: "active", settings: { sittingDate: NEXT } });
    expect((card as Active).today!.items.length).toBeGreaterThan(0);
    const figures = (await rounds.report(new Response(""))).headers.get(D1_ROUNDS_HEADER)!;
    expect(Number(/sequential=(\d+)/.exec(figures)![1])).toBeLessThanOrEqual(2);
  });
});
