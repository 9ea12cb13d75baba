// Sessions: listed on /profilo (device, last use), "Esci da tutti i dispositivi", 30 days from the last use
// (sliding), and ended by a role change or a suspension.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { SESSION_COOKIE, SESSION_TTL_MS } from "~/lib/constants";
import { signingKey } from "~/server/keys.server";
import { insertUser } from "./analytics-fixtures";
import { call, callGuarded, count, json, login, seed } from "./helpers";

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function signIn(email: string, userAgent: string) {
  const response = await call("POST", "/api/auth/dev", { json: { email }, headers: { "User-Agent": userAgent } });
  expect(response.status).toBe(200);
  return ((await json(response)) as { token: string }).token;
}

const sessionRows = (userId: number) =>
  env.DB.prepare("SELECT id, expires_at, last_used_at FROM sessions WHERE user_id = ? ORDER BY created_at")
    .bind(userId)
    .all<{ id: string; expires_at: number; last_used_at: number }>();

type SessionView = { current: boolean; device: string; createdAt: string; lastUsedAt: string };

beforeAll(async () => {
  await seed();
  await insertUser(9501, "sessioni.uno@example.com", "sessioni.uno", "Sara Sessioni");
  await insertUser(9502, "sessioni.ruolo@example.com", "sessioni.ruolo", "Rita Ruolo");
  await insertUser(9503, "sessioni.sospesa@example.com", "sessioni.sospesa", "Susi Sospesa");
});

describe("sessions", () => {
  it("lists the user's sessions with the device and the last use, marking this one", async () => {
    const pc = await signIn("sessioni.uno@example.com", CHROME_WINDOWS);
    const phone = await signIn("sessioni.uno@example.com", SAFARI_IPHONE);
    const response = await call("GET", "/api/profile/sessions", { token: phone });
    expect(response.status).toBe(200);
    const sessions = await json<SessionView[]>(response);
    expect(sessions.map((s) => s.device).sort()).toEqual(["Chrome su Windows", "Safari su iPhone"]);
    expect(sessions.find((s) => s.current)?.device).toBe("Safari su iPhone");
    expect(Date.parse(sessions[0]!.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(sessions)).not.toMatch(/Mozilla|"id"|token/); // neither the raw agent nor a session id
    expect((await call("GET", "/api/me", { token: pc })).status).toBe(200);
  });

  it("slides: a use pushes the end to 30 days later; 30 days without use end it", async () => {
    const token = await signIn("sessioni.uno@example.com", CHROME_WINDOWS);
    const [row] = (await sessionRows(9501)).results.slice(-1);
    const old = Date.now() - 20 * 24 * 3600_000;
    await env.DB.prepare("UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE id = ?")
      .bind(old, old + SESSION_TTL_MS, row!.id)
      .run();
    expect((await call("GET", "/api/me", { token })).status).toBe(200);
    const slid = (await env.DB.prepare("SELECT expires_at, last_used_at FROM sessions WHERE id = ?")
      .bind(row!.id)
      .first<{ expires_at: number; last_used_at: number }>())!;
    expect(slid.last_used_at).toBeGreaterThan(Date.now() - 60_000);
    expect(slid.expires_at).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 60_000);

    await env.DB.prepare("UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE id = ?")
      .bind(Date.now() - SESSION_TTL_MS - 1000, Date.now() - 1000, row!.id)
      .run();
    expect((await call("GET", "/api/me", { token })).status).toBe(401);
  });

  it("a token already verified in this isolate still stops at its own expiry (issue 31: verified tokens are kept)", async () => {
    await signIn("sessioni.uno@example.com", CHROME_WINDOWS);
    const [row] = (await sessionRows(9501)).results.slice(-1);
    // The same session row (valid for 30 days), named by a token whose outer bound ends in two seconds.
    const token = await new SignJWT({ sid: row!.id })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("9501")
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
      .sign(await signingKey(env, "session"));
    expect((await call("GET", "/api/me", { token })).status).toBe(200);
    expect((await call("GET", "/api/me", { token })).status).toBe(200); // now from the isolate's verified tokens
    await expect
      .poll(async () => (await call("GET", "/api/me", { token })).status, { timeout: 6000, interval: 250 })
      .toBe(401);
  });

  it("'Esci da tutti i dispositivi' ends every session, this one too, and clears the cookie", async () => {
    const a = await signIn("sessioni.uno@example.com", CHROME_WINDOWS);
    const b = await signIn("sessioni.uno@example.com", SAFARI_IPHONE);
    const response = await call("DELETE", "/api/profile/sessions", { token: a });
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toMatch(/unicum_session=;.*Max-Age=0/);
    expect(await count("sessions", "user_id = 9501")).toBe(0);
    for (const token of [a, b]) expect((await call("GET", "/api/me", { token })).status).toBe(401);
  });

  it("a role change ends the user's sessions", async () => {
    const admin = await login("admin@example.com");
    const token = await login("sessioni.ruolo@example.com");
    const other = await login("sessioni.ruolo@example.com");
    const update = await call("PUT", "/api/admin/users/9502", { token: admin, json: { role: "moderator" } });
    expect(update.status).toBe(200);
    for (const t of [token, other]) expect((await call("GET", "/api/me", { token: t })).status).toBe(401);
    const again = await login("sessioni.ruolo@example.com");
    expect(await json(await call("GET", "/api/me", { token: again }))).toMatchObject({ role: "moderator" });
    expect((await call("GET", "/api/me", { token: admin })).status).toBe(200); // the admin's own session is untouched
  });

  it("a suspension ends the sessions; the next call still says why (423 with the reason)", async () => {
    const admin = await login("admin@example.com");
    const token = await login("sessioni.sospesa@example.com");
    const ban = await call("POST", "/api/admin/users/9503/ban", {
      token: admin,
      json: { reason: "Account condiviso" },
    });
    expect(ban.status).toBe(200);
    expect(await count("sessions", "user_id = 9503")).toBe(0);
    const stopped = await call("GET", "/api/me", { token });
    expect(stopped.status).toBe(423);
    expect(await json(stopped)).toMatchObject({ error: "Account sospeso", reason: "Account condiviso" });
  });
});

describe("a malformed session cookie is a signed-out visitor (issue 28)", () => {
  /** A token shaped like ours, signed with another secret: it verifies nowhere. */
  const forged = () =>
    new SignJWT({ sid: "00000000-0000-0000-0000-000000000000" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("1")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-our-secret-0123456789abcdefghij"));
  const EXPIRED = new RegExp(`^${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
  const sessionCookies = (response: Response) =>
    response.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_COOKIE}=`));

  it("answers pages and /api calls without a 5xx, as to a signed-out visitor, and expires the cookie", async () => {
    const values = ["%", "%E0%A4%A", "%ZZ", "garbage.not.jwt", encodeURIComponent(await forged())];
    for (const value of values) {
      const cookie = `${SESSION_COOKIE}=${value}`;
      const landing = await callGuarded("GET", "/", { cookie });
      expect(landing.status, value).toBe(200);
      expect((await json(landing)).signedIn, value).toBe(false);
      expect(sessionCookies(landing), value).toEqual([expect.stringMatching(EXPIRED)]);

      expect((await callGuarded("GET", "/login", { cookie })).status, value).toBe(200);
      const page = await callGuarded("GET", "/dashboard", { cookie });
      expect(page.status, value).toBe(302);
      expect(page.headers.get("Location"), value).toBe("/login?next=%2Fdashboard");
      expect(sessionCookies(page), value).toEqual([expect.stringMatching(EXPIRED)]);

      const me = await callGuarded("GET", "/api/me", { cookie });
      expect(me.status, value).toBe(401);
      expect((await json(me)).error, value).toMatch(/accedi di nuovo/);
      expect(sessionCookies(me), value).toEqual([expect.stringMatching(EXPIRED)]);
      // A limited write reads the cookie before the route does (the rate limit's key).
      const report = await callGuarded("POST", "/api/report-question", {
        cookie,
        headers: { Origin: "http://localhost" },
        json: { questionId: 1001, message: "prova" },
      });
      expect(report.status, value).toBe(401);
      expect(sessionCookies(report), value).toEqual([expect.stringMatching(EXPIRED)]);

      // Signing in over it sets the new session only.
      const signIn = await callGuarded("POST", "/api/auth/dev", {
        cookie,
        json: { email: "sessioni.uno@example.com" },
      });
      expect(signIn.status, value).toBe(200);
      expect(sessionCookies(signIn), value).toEqual([expect.not.stringMatching(EXPIRED)]);
    }
  });

  it("leaves a valid session cookie, and a request without one, alone", async () => {
    const token = await login("sessioni.uno@example.com");
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
    const me = await callGuarded("GET", "/api/me", { cookie });
    expect(me.status).toBe(200);
    expect(sessionCookies(me)).toEqual([]);
    expect(sessionCookies(await callGuarded("GET", "/", {}))).toEqual([]);
    expect(sessionCookies(await callGuarded("GET", "/", { cookie: `${SESSION_COOKIE}=` }))).toEqual([]);
  });
});
