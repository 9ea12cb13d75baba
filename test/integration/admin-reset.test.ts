// reset-db with the server's opt-in (its own file: it empties this file's database).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, count, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
});

afterAll(async () => {
  await seed();
});

describe("POST /api/admin/reset-db with ALLOW_DB_RESET=1", () => {
  it("empties the bank and the activity, keeps only the admin doing it (still signed in), and records it", async () => {
    const admin = await login("admin@example.com");
    const student = await login("studente@example.com");
    const optIn = { ALLOW_DB_RESET: "1" } as never;
    const response = await call("POST", "/api/admin/reset-db", {
      token: admin,
      json: { confirm: "RESET" },
      env: optIn,
    });
    expect(response.status).toBe(200);
    const body = await json<{ ok: boolean; deleted: Record<string, number> }>(response);
    expect(body.ok).toBe(true);
    expect(body.deleted.questions).toBeGreaterThan(100);
    for (const table of ["questions", "attempts", "attempt_answers", "reports", "subjects", "topics", "login_events"]) {
      expect(await count(table), table).toBe(0);
    }
    expect(await count("users")).toBe(1);
    expect(await count("users", "email = 'admin@example.com'")).toBe(1);
    expect((await call("GET", "/api/me", { token: admin })).status).toBe(200);
    expect((await call("GET", "/api/me", { token: student })).status).toBe(401);
    expect(await count("audit_log", "action = 'reset.db' AND actor_email = 'admin@example.com'")).toBe(1);
  });
});
