import { env } from "cloudflare:test";
import { generateKeyPair } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { call, count, googleToken, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
});

describe("POST /api/auth/google", () => {
  it("signs in a new Google user: creates the user, a login event and a session usable as cookie and Bearer", async () => {
    const before = await count("login_events");
    const credential = await googleToken({
      email: "Nuovo.Utente@gmail.com",
      name: "Nuovo Utente",
      given_name: "Nuovo",
      family_name: "Utente",
      sub: "g-123",
      picture: "https://example.com/a.png",
    });
    const response = await call("POST", "/api/auth/google", { json: { credential } });
    expect(response.status).toBe(200);
    const body = await json<{ token: string; user: Record<string, unknown> }>(response);
    expect(body.user).toMatchObject({
      email: "nuovo.utente@gmail.com",
      firstName: "Nuovo",
      lastName: "Utente",
      name: "Nuovo Utente",
      avatarUrl: "https://example.com/a.png",
      role: "studente",
      isAdmin: false,
      booked: false,
    });
    const cookie = response.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^unicum_session=/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(await count("login_events")).toBe(before + 1);
    expect(await count("login_events", `user_id = ${body.user.id} AND is_new_user = 1`)).toBe(1);

    const viaBearer = await call("GET", "/api/me", { token: body.token });
    expect(viaBearer.status).toBe(200);
    expect((await json(viaBearer)).email).toBe("nuovo.utente@gmail.com");
    const viaCookie = await call("GET", "/api/me", { cookie: cookie.split(";")[0] });
    expect(viaCookie.status).toBe(200);
  });

  it("gives a new user a free username even when every four-digit name for that email is taken", async () => {
    // Someone else already holds mario1000 … mario9999: a second "mario" must still get in.
    await env.DB.prepare(
      `WITH RECURSIVE n(x) AS (SELECT 1000 UNION ALL SELECT x + 1 FROM n WHERE x < 9999)
       INSERT INTO users (email, name, username, created_at) SELECT 'mario' || x || '@altro.it', 'Mario', 'mario' || x, 0 FROM n`,
    ).run();
    const credential = await googleToken({ email: "mario@gmail.com", name: "Mario Bianchi", sub: "g-mario" });
    const response = await call("POST", "/api/auth/google", { json: { credential } });
    expect(response.status).toBe(200);
    const row = await env.DB.prepare("SELECT username FROM users WHERE email = 'mario@gmail.com'").first<{
      username: string;
    }>();
    expect(row!.username).toMatch(/^mario\d{6}$/);
  });

  it("updates an existing user on a later sign-in instead of creating another", async () => {
    const credential = await googleToken({
      email: "studente@example.com",
      name: "Giulia Rossi",
      sub: "g-giulia",
      picture: "https://example.com/g.png",
    });
    const users = await count("users");
    const response = await call("POST", "/api/auth/google", { json: { credential } });
    expect(response.status).toBe(200);
    expect(await count("users")).toBe(users);
    const row = await env.DB.prepare(
      "SELECT avatar_url, last_login FROM users WHERE email = 'studente@example.com'",
    ).first<{ avatar_url: string; last_login: number }>();
    expect(row?.avatar_url).toBe("https://example.com/g.png");
    expect(Date.now() - row!.last_login).toBeLessThan(60_000);
  });

  it("sets Secure on the cookie outside localhost only", async () => {
    const credential = await googleToken({ email: "amico@example.com", sub: "g-amico" });
    const remote = await call("POST", "/api/auth/google", { json: { credential }, origin: "https://unicum.example" });
    expect(remote.status).toBe(200);
    expect(remote.headers.get("Set-Cookie")).toContain("; Secure");
    const local = await call("POST", "/api/auth/google", { json: { credential } });
    expect(local.headers.get("Set-Cookie")).not.toContain("Secure");
  });

  const rejected: [string, () => Promise<string>][] = [
    ["wrong audience", () => googleToken({ email: "x1@gmail.com", aud: "someone-else.apps.googleusercontent.com" })],
    ["wrong issuer", () => googleToken({ email: "x2@gmail.com", iss: "https://evil.example.com" })],
    ["expired", () => googleToken({ email: "x3@gmail.com" }, { expiresIn: Math.floor(Date.now() / 1000) - 60 })],
    [
      "bad signature",
      async () => {
        const { privateKey } = await generateKeyPair("RS256");
        return googleToken({ email: "x4@gmail.com" }, { key: privateKey });
      },
    ],
    ["unverified email", () => googleToken({ email: "x5@gmail.com", email_verified: false })],
    ["not a token", async () => "x"],
  ];
  for (const [label, make] of rejected) {
    it(`answers 401 with an Italian error and writes nothing for a token with ${label}`, async () => {
      const users = await count("users");
      const events = await count("login_events");
      const sessions = await count("sessions");
      const response = await call("POST", "/api/auth/google", { json: { credential: await make() } });
      expect(response.status).toBe(401);
      const body = await json(response);
      expect(body.error).toMatch(/token|Google|email/);
      expect(String(body.error)).toMatch(/[àèéìòù]|non|accedi/i);
      expect(await count("users")).toBe(users);
      expect(await count("login_events")).toBe(events);
      expect(await count("sessions")).toBe(sessions);
      expect(response.headers.get("Set-Cookie")).toBeNull();
    });
  }

  it("answers 400 without a body or without a credential, and writes nothing", async () => {
    const users = await count("users");
    const empty = await call("POST", "/api/auth/google");
    expect(empty.status).toBe(400);
    expect((await json(empty)).error).toMatch(/JSON/);
    const missing = await call("POST", "/api/auth/google", { json: {} });
    expect(missing.status).toBe(400);
    expect((await json(missing)).error).toMatch(/credential/);
    const malformed = await call("POST", "/api/auth/google", {
      body: "{nope",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(await count("users")).toBe(users);
  });

  it("refuses a suspended account with 423 and its reason, and opens no session", async () => {
    const sessions = await count("sessions");
    const credential = await googleToken({ email: "sospeso@example.com", sub: "g-sospeso" });
    const response = await call("POST", "/api/auth/google", { json: { credential } });
    expect(response.status).toBe(423);
    expect(await json(response)).toMatchObject({ reason: "Violazione del regolamento" });
    expect(await count("sessions")).toBe(sessions);
  });

  it("makes the OWNER_EMAIL address an admin, whatever its stored role", async () => {
    const credential = await googleToken({ email: "owner@example.com", sub: "g-owner" });
    const response = await call("POST", "/api/auth/google", { json: { credential } });
    expect(response.status).toBe(200);
    const { token, user } = await json<{ token: string; user: { role: string; isAdmin: boolean } }>(response);
    expect(user).toMatchObject({ role: "admin", isAdmin: true });
    expect((await call("GET", "/api/admin/anything", { token })).status).toBe(404); // past the admin guard
    const stored = await env.DB.prepare("SELECT role FROM users WHERE email = 'owner@example.com'").first<{
      role: string;
    }>();
    expect(stored?.role).toBe("studente"); // the role comes from configuration, not from the row
  });
});

describe("development sign-in", () => {
  it("signs in an existing account when DEV_LOGIN=1, answering like the Google route", async () => {
    const response = await call("POST", "/api/auth/dev", { json: { email: "admin@example.com" } });
    expect(response.status).toBe(200);
    const body = await json<{ token: string; user: Record<string, unknown> }>(response);
    expect(body.user).toMatchObject({ email: "admin@example.com", role: "admin", isAdmin: true });
    expect(response.headers.get("Set-Cookie")).toMatch(/^unicum_session=.+HttpOnly/);
  });

  it("is a 404 when DEV_LOGIN is not set, and writes nothing", async () => {
    const sessions = await count("sessions");
    const response = await call("POST", "/api/auth/dev", {
      json: { email: "admin@example.com" },
      env: { DEV_LOGIN: undefined },
    });
    expect(response.status).toBe(404);
    expect(await count("sessions")).toBe(sessions);
  });

  it("answers 404 for an unknown email and 400 for a malformed one", async () => {
    const unknown = await call("POST", "/api/auth/dev", { json: { email: "nessuno@example.com" } });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toBe("Nessun utente con questa email.");
    const bad = await call("POST", "/api/auth/dev", { json: { email: "non-una-email" } });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatch(/email/i);
  });

  it("refuses the suspended demo account with its reason", async () => {
    const response = await call("POST", "/api/auth/dev", { json: { email: "sospeso@example.com" } });
    expect(response.status).toBe(423);
    expect(await json(response)).toMatchObject({ reason: "Violazione del regolamento" });
  });
});

describe("logout", () => {
  it("ends the session: the same token stops working as Bearer and as cookie", async () => {
    const token = await login("amico@example.com");
    expect((await call("GET", "/api/me", { token })).status).toBe(200);
    const out = await call("POST", "/api/auth/logout", { token });
    expect(out.status).toBe(200);
    expect(out.headers.get("Set-Cookie")).toContain("Max-Age=0");
    expect((await call("GET", "/api/me", { token })).status).toBe(401);
    expect((await call("GET", "/api/me", { cookie: `unicum_session=${token}` })).status).toBe(401);
  });

  it("rejects a token signed with another secret", async () => {
    const token = await login("amico@example.com");
    const response = await call("GET", "/api/me", {
      token,
      env: { SESSION_SECRET: "another-secret-another-secret-123" },
    });
    expect(response.status).toBe(401);
  });
});
