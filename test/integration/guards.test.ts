import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
});

describe("server-side guards", () => {
  it("answers 401 to any /api/admin path when signed out, 403 to a student and a moderator", async () => {
    const student = await login("studente@example.com");
    const moderator = await login("moderatore@example.com");
    for (const path of [
      "/api/admin/users",
      "/api/admin/analytics",
      "/api/admin/does-not-exist",
      "/api/admin/users/1/ban",
    ]) {
      const anonymous = await call("GET", path);
      expect(anonymous.status, path).toBe(401);
      expect((await json(anonymous)).error).toMatch(/accedi/);
      const asStudent = await call("GET", path, { token: student });
      expect(asStudent.status, path).toBe(403);
      expect((await json(asStudent)).error).toMatch(/permessi/);
      expect((await call("POST", path, { token: moderator, json: {} })).status, path).toBe(403);
    }
  });

  it("answers 401 to GET /api/me without a session, or with a garbage token", async () => {
    expect((await call("GET", "/api/me")).status).toBe(401);
    expect((await call("GET", "/api/me", { token: "garbage" })).status).toBe(401);
    expect((await call("GET", "/api/me", { cookie: "unicum_session=garbage" })).status).toBe(401);
  });

  it("stops a user suspended mid-session at the very next call with 423 and the reason", async () => {
    const token = await login("amico@example.com");
    expect((await call("GET", "/api/me", { token })).status).toBe(200);
    await env.DB.prepare(
      "UPDATE users SET status = 'sospeso', suspension_reason = 'Spam nei commenti' WHERE email = 'amico@example.com'",
    ).run();
    try {
      const response = await call("GET", "/api/me", { token });
      expect(response.status).toBe(423);
      expect(await json(response)).toMatchObject({ error: "Account sospeso", reason: "Spam nei commenti" });
      // Screens: the page guard answers the same 423 for the error boundary's overlay.
      const page = await call("GET", "/dashboard", { token });
      expect(page.status).toBe(423);
    } finally {
      await env.DB.prepare(
        "UPDATE users SET status = 'attivo', suspension_reason = NULL WHERE email = 'amico@example.com'",
      ).run();
    }
    expect((await call("GET", "/api/me", { token })).status).toBe(200);
  });

  it("redirects a signed-out visitor of a screen to /login, keeping the way back", async () => {
    const response = await call("GET", "/tentativi?x=1");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?next=%2Ftentativi%3Fx%3D1");
  });

  it("sends a student away from /admin and lets a moderator in", async () => {
    const student = await login("studente@example.com");
    const asStudent = await call("GET", "/admin", { token: student });
    expect(asStudent.status).toBe(302);
    expect(asStudent.headers.get("Location")).toBe("/");
    const moderator = await login("moderatore@example.com");
    expect((await call("GET", "/admin", { token: moderator })).status).toBe(200);
  });

  it("answers JSON 404 for unknown API paths", async () => {
    const response = await call("GET", "/api/non-esiste");
    expect(response.status).toBe(404);
    expect((await json(response)).error).toBe("Indirizzo API inesistente.");
  });
});
