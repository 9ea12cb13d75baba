import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { usersWithAtLeast } from "~/server/admin/analytics.server";
import { call, json, login, seed } from "./helpers";

let admin: string;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
});

describe("GET /api/admin/analytics", () => {
  it("answers the spec's shape with numbers that match the attempts", async () => {
    const response = await call("GET", "/api/admin/analytics", { token: admin });
    expect(response.status).toBe(200);
    const a = await json<Record<string, any>>(response);
    for (const key of [
      "userCount",
      "attempts",
      "avgScore",
      "avgTimeAttempt",
      "avgTimeQuestion",
      "avgAttemptsPerUser",
      "topUsers",
      "attemptsDistribution",
      "attemptsPerDay",
      "loginsPerDay",
    ]) {
      expect(a, key).toHaveProperty(key);
    }
    const db = await env.DB.prepare(
      "SELECT count(*) AS n, count(DISTINCT user_id) AS u FROM attempts WHERE status = 'completed'",
    ).first<{ n: number; u: number }>();
    expect(a.attempts).toBe(db!.n);
    expect(a.userCount).toBe(db!.u);
    expect(a.avgScore).toBeGreaterThan(0);
    expect(a.avgScore).toBeLessThanOrEqual(100);
    expect(a.avgAttemptsPerUser).toBe(Math.round((db!.n / db!.u) * 10) / 10);
    expect(a.topUsers[0]).toEqual(
      expect.objectContaining({
        name: expect.any(String),
        attempts: expect.any(Number),
        avgScore: expect.any(Number),
        avgTimeQuestion: expect.any(Number),
      }),
    );
    expect(a.topUsers[0].attempts).toBeGreaterThanOrEqual(a.topUsers.at(-1).attempts);
    expect(a.attemptsPerDay).toHaveLength(60);
    expect(a.attemptsPerDay.reduce((s: number, d: { count: number }) => s + d.count, 0)).toBeGreaterThan(0);
    expect(a.loginsPerDay[0]).toEqual(
      expect.objectContaining({ date: expect.any(String), existing: expect.any(Number), new: expect.any(Number) }),
    );
    expect(usersWithAtLeast(a.attemptsDistribution, 1)).toBe(a.userCount);
    expect(usersWithAtLeast(a.attemptsDistribution, 5)).toBeLessThanOrEqual(a.userCount);
    expect((await call("GET", "/api/admin/analytics?days=3", { token: admin })).status).toBe(400);
  });
});

describe("GET /api/admin/attempts", () => {
  it("is paginated on the server: a JSON array, newest first, the total in X-Total-Count", async () => {
    const first = await call("GET", "/api/admin/attempts?page=1&pageSize=10", { token: admin });
    expect(first.status).toBe(200);
    const total = Number(first.headers.get("X-Total-Count"));
    const db = await env.DB.prepare("SELECT count(*) AS n FROM attempts").first<{ n: number }>();
    expect(total).toBe(db!.n);
    const items =
      await json<{ id: number; date: string; userName: string; subjectName: string; score: number | null }[]>(first);
    expect(items).toHaveLength(10);
    expect(items[0]).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        date: expect.any(String),
        userName: expect.any(String),
        subjectName: expect.any(String),
      }),
    );
    expect(items.map((i) => i.date)).toEqual([...items.map((i) => i.date)].sort().reverse());
    const second = await json<{ id: number }[]>(
      await call("GET", "/api/admin/attempts?page=2&pageSize=10", { token: admin }),
    );
    expect(second).toHaveLength(10);
    expect(second.some((s) => items.some((i) => i.id === s.id))).toBe(false);
    const beyond = await json<unknown[]>(
      await call("GET", `/api/admin/attempts?page=${Math.ceil(total / 10) + 1}&pageSize=10`, { token: admin }),
    );
    expect(beyond).toEqual([]);
    expect((await call("GET", "/api/admin/attempts?page=0", { token: admin })).status).toBe(400);
  });
});

describe("GET /api/admin/search", () => {
  it("finds users by name or email, questions by text or id, attempts by id", async () => {
    const byName = await json<{ users: { email: string }[] }>(
      await call("GET", "/api/admin/search?q=giulia", { token: admin }),
    );
    expect(byName.users.map((u) => u.email)).toContain("studente@example.com");
    const byEmail = await json<{ users: { email: string }[] }>(
      await call("GET", "/api/admin/search?q=moderatore@", { token: admin }),
    );
    expect(byEmail.users.map((u) => u.email)).toEqual(["moderatore@example.com"]);
    const byId = await json<{ questions: { id: number }[]; attempts: { id: number }[] }>(
      await call("GET", "/api/admin/search?q=1001", { token: admin }),
    );
    expect(byId.questions.map((q) => q.id)).toContain(1001);
    const stem = await env.DB.prepare("SELECT stem FROM questions WHERE id = 2001").first<{ stem: string }>();
    const words = stem!.stem.split(" ").slice(0, 3).join(" ");
    const byText = await json<{ questions: { id: number }[] }>(
      await call("GET", `/api/admin/search?q=${encodeURIComponent(words)}`, { token: admin }),
    );
    expect(byText.questions.map((q) => q.id)).toContain(2001);
    const attempt = await json<{ attempts: { id: number }[] }>(
      await call("GET", "/api/admin/search?q=7", { token: admin }),
    );
    expect(attempt.attempts.map((a) => a.id)).toEqual([7]);
    expect((await call("GET", "/api/admin/search?q=", { token: admin })).status).toBe(400);
  });
});

describe("GET /api/admin/audit", () => {
  it("records who did what and when, newest first", async () => {
    const target = await env.DB.prepare("SELECT id FROM users WHERE email = 'amico@example.com'").first<{
      id: number;
    }>();
    await call("POST", `/api/admin/users/${target!.id}/ban`, { token: admin, json: { reason: "Prova audit" } });
    await call("POST", `/api/admin/users/${target!.id}/ban`, { token: admin });
    const log = await json<
      { action: string; actorEmail: string; at: string; targetId: string; details: Record<string, unknown> }[]
    >(await call("GET", "/api/admin/audit", { token: admin }));
    expect(log[0]).toMatchObject({
      action: "user.unban",
      actorEmail: "admin@example.com",
      targetId: String(target!.id),
    });
    expect(log[1]).toMatchObject({ action: "user.ban", details: expect.objectContaining({ reason: "Prova audit" }) });
    expect(Date.now() - Date.parse(log[0]!.at)).toBeLessThan(60_000);
  });
});
