// The profile screen's writes go through /profilo's action (issue 19): the same services, schemas and messages as
// POST /api/profile, /api/friends, /api/classes/join and DELETE /api/profile/sessions; refusals write nothing.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, count, json, login, seed } from "./helpers";

let student: string;

beforeAll(async () => {
  await seed();
  student = await login("studente@example.com");
});

const post = (body: unknown, token = student) => call("POST", "/profilo", { token, json: body });

async function reply(response: Response) {
  const body = await json<{ data?: unknown }>(response);
  return JSON.stringify(body.data ?? body);
}

describe("POST /profilo", () => {
  it("saves the profile fields like POST /api/profile and answers with the saved profile", async () => {
    const response = await post({ intent: "profile", city: "Pavia", zip: "27100", schoolYear: 5 });
    expect(response.status).toBe(200);
    expect(await reply(response)).toContain('"city":"Pavia"');
    const row = await env.DB.prepare(
      "SELECT city, zip, school_year AS year FROM users WHERE email = 'studente@example.com'",
    ).first();
    expect(row).toMatchObject({ city: "Pavia", zip: "27100", year: 5 });
  });

  it("refuses a bad field with the message the form shows as you type, and writes nothing", async () => {
    const response = await post({ intent: "profile", city: "Milano", zip: "123" });
    expect(response.status).toBe(400);
    expect(await reply(response)).toContain("CAP non valido: servono esattamente 5 cifre.");
    const row = await env.DB.prepare("SELECT city FROM users WHERE email = 'studente@example.com'").first();
    expect(row).toMatchObject({ city: "Pavia" });
  });

  it("refuses an unknown invitation handle, a wrong deletion confirmation and an unknown intent", async () => {
    const invite = await post({ intent: "invite", handle: "nessuno-con-questo-nome" });
    expect(invite.status).toBeGreaterThanOrEqual(400);
    expect(invite.status).toBeLessThan(500);
    const before = await count("users");
    const erase = await post({ intent: "delete-account", confirm: "forse" });
    expect(erase.status).toBe(400);
    expect(await reply(erase)).toContain("Conferma non valida");
    expect(await count("users")).toBe(before);
    const unknown = await post({ intent: "cambia-tutto" });
    expect(unknown.status).toBe(400);
    expect(await reply(unknown)).toContain("Operazione non riconosciuta.");
  });

  it("signs out everywhere: every session ends and the cookie is cleared", async () => {
    const token = await login("amico@example.com");
    const second = await login("amico@example.com");
    const response = await post({ intent: "sign-out-everywhere" }, token);
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect((await call("GET", "/api/me", { token: second })).status).toBe(401);
  });
});

describe("POST /esci (Esci in the side navigation)", () => {
  it("ends the session, clears the cookie and sends the browser home", async () => {
    const token = await login("moderatore@example.com");
    const response = await call("POST", "/esci", { token });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(response.headers.get("Set-Cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect((await call("GET", "/api/me", { token })).status).toBe(401);
  });
});

describe("POST /login (the sign-in buttons)", () => {
  it("signs in with the development sign-in: the session cookie is set and the page gets the user, never the token", async () => {
    const response = await call("POST", "/login", { json: { intent: "dev", email: "studente@example.com" } });
    expect(response.status).toBe(200);
    const cookie = response.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/HttpOnly/i);
    const body = await reply(response);
    expect(body).toContain("studente@example.com");
    const token = /=([^;]+)/.exec(cookie)![1]!;
    expect(body).not.toContain(token);
    expect((await call("GET", "/api/me", { cookie: cookie.split(";")[0] })).status).toBe(200);
  });

  it("refuses a suspended account with its reason, a bad e-mail and a Google token that does not verify", async () => {
    const suspended = await call("POST", "/login", { json: { intent: "dev", email: "sospeso@example.com" } });
    expect(suspended.status).toBe(423);
    expect(await reply(suspended)).toContain("Account sospeso: ");
    expect(suspended.headers.get("Set-Cookie")).toBeNull();
    const bad = await call("POST", "/login", { json: { intent: "dev", email: "non-una-mail" } });
    expect(bad.status).toBe(400);
    expect(await reply(bad)).toContain("Indirizzo email non valido.");
    const google = await call("POST", "/login", { json: { intent: "google", credential: "non.un.token" } });
    expect(google.status).toBeGreaterThanOrEqual(400);
    expect(google.status).toBeLessThan(500);
    expect(google.headers.get("Set-Cookie")).toBeNull();
  });
});
