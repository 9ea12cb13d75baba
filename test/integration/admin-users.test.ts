import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { streaks } from "~/server/admin/users.server";
import { call, count, json, login, seed } from "./helpers";

let admin: string;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
});

type U = {
  id: number;
  name: string;
  email: string;
  role: string;
  status: string;
  year: number | null;
  attempts: number;
};

describe("admin users", () => {
  it("lists users with the status and role filters", async () => {
    const all = await json<U[]>(await call("GET", "/api/admin/users", { token: admin }));
    expect(all.length).toBeGreaterThanOrEqual(55);
    const suspended = await json<U[]>(await call("GET", "/api/admin/users?status=sospeso", { token: admin }));
    expect(suspended.map((u) => u.email)).toContain("sospeso@example.com");
    expect(suspended.every((u) => u.status === "sospeso")).toBe(true);
    const mods = await json<U[]>(await call("GET", "/api/admin/users?role=moderator", { token: admin }));
    expect(mods.map((u) => u.email)).toEqual(["moderatore@example.com"]);
    const bad = await call("GET", "/api/admin/users?role=re", { token: admin });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatch(/ruolo/i);
  });

  it("pages the list on the server: X-Total-Count, the filters across pages, attempt counts as in the full list; bad paging is a 400", async () => {
    const all = await json<U[]>(await call("GET", "/api/admin/users", { token: admin }));
    const first = await call("GET", "/api/admin/users?page=1&pageSize=20", { token: admin });
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Total-Count")).toBe(String(all.length));
    const page1 = await json<U[]>(first);
    const page3 = await json<U[]>(await call("GET", "/api/admin/users?page=3&pageSize=20", { token: admin }));
    expect(page1.map((u) => u.id)).toEqual(all.slice(0, 20).map((u) => u.id));
    expect(page3.map((u) => u.id)).toEqual(all.slice(40, 60).map((u) => u.id));
    // Attempt counts on a page are the same as in the full list (and the demo student has some).
    expect(page1).toEqual(all.slice(0, 20));
    expect(page1.find((u) => u.email === "studente@example.com")!.attempts).toBeGreaterThanOrEqual(20);
    // Filters and search apply before paging; the total counts the matches.
    const students = await call("GET", "/api/admin/users?role=studente&q=example.com&page=1&pageSize=2", {
      token: admin,
    });
    const matching = all.filter((u) => u.role === "studente" && u.email.includes("example.com"));
    expect(students.headers.get("X-Total-Count")).toBe(String(matching.length));
    expect((await json<U[]>(students)).map((u) => u.id)).toEqual(matching.slice(0, 2).map((u) => u.id));
    // Past the end: an empty page, still with the total.
    const past = await call("GET", "/api/admin/users?page=999&pageSize=50", { token: admin });
    expect(await json(past)).toEqual([]);
    expect(past.headers.get("X-Total-Count")).toBe(String(all.length));
    for (const bad of [
      "page=0",
      "page=abc",
      "page=1&pageSize=101",
      "page=1&pageSize=0",
      `page=1&q=${"a".repeat(101)}`,
    ]) {
      const response = await call("GET", `/api/admin/users?${bad}`, { token: admin });
      expect(response.status, bad).toBe(400);
      expect((await json(response)).error, bad).toMatch(
        /Pagina non valida|Dimensione pagina da 1 a 100|Ricerca troppo lunga/,
      );
    }
  });

  it("creates a user, and refuses one without name or email with 'Compila nome ed email'", async () => {
    const before = await count("users");
    for (const body of [{ name: "Solo Nome" }, { email: "solo@example.com" }, { name: "  ", email: "x@example.com" }]) {
      const response = await call("POST", "/api/admin/users", { token: admin, json: body });
      expect(response.status).toBe(400);
      expect((await json(response)).error).toBe("Compila nome ed email");
    }
    const badEmail = await call("POST", "/api/admin/users", {
      token: admin,
      json: { name: "A", email: "non-una-email" },
    });
    expect(badEmail.status).toBe(400);
    expect(await count("users")).toBe(before);

    const created = await call("POST", "/api/admin/users", {
      token: admin,
      json: { name: "Anna Verdi", email: "Anna.Verdi@example.com", year: 3, role: "studente", city: "Pisa" },
    });
    expect(created.status).toBe(200);
    const user = await json<U>(created);
    expect(user).toMatchObject({
      name: "Anna Verdi",
      email: "anna.verdi@example.com",
      year: 3,
      status: "attivo",
      role: "studente",
    });
    expect(await count("users")).toBe(before + 1);
    const dup = await call("POST", "/api/admin/users", {
      token: admin,
      json: { name: "Anna", email: "anna.verdi@example.com" },
    });
    expect(dup.status).toBe(409);
    expect(await count("audit_log", `action = 'user.create' AND target_id = '${user.id}'`)).toBe(1);
  });

  it("edits a user (role change audited) and deletes one", async () => {
    const created = await json<U>(
      await call("POST", "/api/admin/users", {
        token: admin,
        json: { name: "Bruno Neri", email: "bruno.neri@example.com" },
      }),
    );
    const edited = await call("PUT", `/api/admin/users/${created.id}`, {
      token: admin,
      json: { name: "Bruno Neri Jr", role: "moderator", year: null },
    });
    expect(edited.status).toBe(200);
    expect(await json(edited)).toMatchObject({ name: "Bruno Neri Jr", role: "moderator", year: null });
    const audit = await env.DB.prepare(
      `SELECT actor_email, details FROM audit_log WHERE action = 'user.role' AND target_id = '${created.id}'`,
    ).first<{ actor_email: string; details: string }>();
    expect(audit?.actor_email).toBe("admin@example.com");
    expect(JSON.parse(audit!.details)).toMatchObject({ from: "studente", to: "moderator" });

    const badYear = await call("PUT", `/api/admin/users/${created.id}`, { token: admin, json: { year: "terzo" } });
    expect(badYear.status).toBe(400);
    expect((await call("PUT", "/api/admin/users/999999", { token: admin, json: { name: "X" } })).status).toBe(404);

    const deleted = await call("DELETE", `/api/admin/users/${created.id}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(await count("users", `id = ${created.id}`)).toBe(0);
    expect(await count("audit_log", `action = 'user.delete' AND target_id = '${created.id}'`)).toBe(1);
    expect((await call("DELETE", `/api/admin/users/${created.id}`, { token: admin })).status).toBe(404);
  });

  it("an admin cannot suspend, delete or demote themselves", async () => {
    const me = await json<{ id: number }>(await call("GET", "/api/me", { token: admin }));
    expect(
      (await call("POST", `/api/admin/users/${me.id}/ban`, { token: admin, json: { reason: "prova" } })).status,
    ).toBe(400);
    expect((await call("DELETE", `/api/admin/users/${me.id}`, { token: admin })).status).toBe(400);
    expect((await call("PUT", `/api/admin/users/${me.id}`, { token: admin, json: { role: "studente" } })).status).toBe(
      400,
    );
    expect(await count("users", `id = ${me.id} AND role = 'admin' AND status = 'attivo'`)).toBe(1);
  });

  it("suspends with a reason (the user is stopped at the next call with 423) and reactivates without one", async () => {
    const created = await json<U>(
      await call("POST", "/api/admin/users", {
        token: admin,
        json: { name: "Carla Blu", email: "carla.blu@example.com" },
      }),
    );
    const token = await login("carla.blu@example.com");
    expect((await call("GET", "/api/me", { token })).status).toBe(200);

    const noReason = await call("POST", `/api/admin/users/${created.id}/ban`, { token: admin, json: {} });
    expect(noReason.status).toBe(400);
    expect((await json(noReason)).error).toBe("Indica il motivo della sospensione.");
    expect((await call("GET", "/api/me", { token })).status).toBe(200);

    const ban = await call("POST", `/api/admin/users/${created.id}/ban`, {
      token: admin,
      json: { reason: "Linguaggio offensivo nel gruppo" },
    });
    expect(ban.status).toBe(200);
    expect(await json(ban)).toMatchObject({ status: "sospeso" });
    const stopped = await call("GET", "/api/me", { token });
    expect(stopped.status).toBe(423);
    expect(await json(stopped)).toMatchObject({ error: "Account sospeso", reason: "Linguaggio offensivo nel gruppo" });

    const unban = await call("POST", `/api/admin/users/${created.id}/ban`, { token: admin });
    expect(unban.status).toBe(200);
    expect(await json(unban)).toMatchObject({ status: "attivo" });
    // The suspension ended the session: the user signs in again.
    expect((await call("GET", "/api/me", { token })).status).toBe(401);
    expect((await call("GET", "/api/me", { token: await login("carla.blu@example.com") })).status).toBe(200);
    expect(await count("audit_log", `target_id = '${created.id}' AND action IN ('user.ban', 'user.unban')`)).toBe(2);
  });

  it("shows the detail view with every stat, floored at 0 and the percentile within 0-100", async () => {
    const response = await call("GET", "/api/admin/users/1", { token: admin });
    expect(response.status).toBe(200);
    const detail = await json<{ email: string; stats: Record<string, number | string | null> }>(response);
    expect(detail.email).toBe("studente@example.com");
    const keys = [
      "attempts",
      "avgScore",
      "percentile",
      "lastLogin",
      "totalTimeMin",
      "correct",
      "wrong",
      "unanswered",
      "avgTimeSec",
      "streak",
      "bestStreak",
    ];
    expect(Object.keys(detail.stats).sort()).toEqual(keys.sort());
    const completed = await count("attempts", "user_id = 1 AND status = 'completed'");
    expect(detail.stats.attempts).toBe(completed);
    // The answer counts are the student's completed attempts added up, as the console says.
    const sums = await env.DB.prepare(
      "SELECT sum(correct) AS correct, sum(wrong) AS wrong, sum(blank) AS unanswered FROM attempts WHERE user_id = 1 AND status = 'completed'",
    ).first<{ correct: number; wrong: number; unanswered: number }>();
    expect(sums!.correct).toBeGreaterThan(0);
    expect({ correct: detail.stats.correct, wrong: detail.stats.wrong, unanswered: detail.stats.unanswered }).toEqual(
      sums,
    );
    expect(detail.stats.totalTimeMin as number).toBeGreaterThan(0);
    expect(detail.stats.percentile as number).toBeLessThanOrEqual(100);
    expect(detail.stats.bestStreak as number).toBeGreaterThanOrEqual(1);

    // A user with no attempts: zeros, not NaN or negatives.
    const fresh = await json<U>(
      await call("POST", "/api/admin/users", {
        token: admin,
        json: { name: "Dario Zero", email: "dario.zero@example.com" },
      }),
    );
    const empty = await json<{ stats: Record<string, number> }>(
      await call("GET", `/api/admin/users/${fresh.id}`, { token: admin }),
    );
    expect(empty.stats).toMatchObject({
      attempts: 0,
      avgScore: 0,
      percentile: 0,
      totalTimeMin: 0,
      correct: 0,
      wrong: 0,
      unanswered: 0,
      avgTimeSec: 0,
      streak: 0,
      bestStreak: 0,
    });
  });

  it("computes streaks over consecutive days", () => {
    expect(streaks(["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-07", "2025-01-08"], "2025-01-09")).toEqual({
      streak: 2,
      bestStreak: 3,
    });
    expect(streaks(["2025-01-01", "2025-01-02"], "2025-01-09")).toEqual({ streak: 0, bestStreak: 2 });
    expect(streaks([], "2025-01-09")).toEqual({ streak: 0, bestStreak: 0 });
  });
});
