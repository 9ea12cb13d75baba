import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { aggregateSnapshot, insertAttempts, insertUser, rebuild } from "./analytics-fixtures";
import { call, count, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
  await insertUser(9201, "profilo.prova@example.com", "profilo.prova", "Pia Profilo");
});

const row = (id: number) =>
  env.DB.prepare("SELECT * FROM users WHERE id = ?").bind(id).first<Record<string, unknown>>();

describe("GET/POST /api/profile", () => {
  it("answers every field of the profile, with createdAt and lastLogin", async () => {
    const token = await login("profilo.prova@example.com");
    const response = await call("GET", "/api/profile", { token });
    expect(response.status).toBe(200);
    const body = await json(response);
    for (const key of [
      "username",
      "phone",
      "bio",
      "goal",
      "city",
      "school",
      "schoolYear",
      "birth",
      "cf",
      "address",
      "zip",
      "email",
      "createdAt",
      "lastLogin",
    ]) {
      expect(body, key).toHaveProperty(key);
    }
    expect(body.username).toBe("profilo.prova");
    expect(Date.parse(String(body.lastLogin))).toBeGreaterThan(Date.now() - 60_000);
  });

  it("saves valid fields, uppercases the codice fiscale, ignores username and email", async () => {
    const token = await login("profilo.prova@example.com");
    const response = await call("POST", "/api/profile", {
      token,
      json: {
        username: "altro",
        email: "x@example.com",
        phone: "+39 333 1234567",
        bio: "Voglio entrare a Medicina",
        goal: "Medicina a Milano",
        city: "Milano",
        school: "Liceo Volta",
        schoolYear: 5,
        birth: "2007-04-12",
        cf: "rssmra85t10a562s",
        address: "Via Roma 1",
        zip: "20121",
      },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      cf: "RSSMRA85T10A562S",
      zip: "20121",
      schoolYear: 5,
      username: "profilo.prova",
      email: "profilo.prova@example.com",
    });
    const stored = await row(9201);
    expect(stored).toMatchObject({
      cf: "RSSMRA85T10A562S",
      city: "Milano",
      username: "profilo.prova",
      email: "profilo.prova@example.com",
      birth: "2007-04-12",
    });
    // Emptying a field clears it.
    await call("POST", "/api/profile", { token, json: { bio: "" } });
    expect((await row(9201))!.bio).toBeNull();
  });

  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ["a codice fiscale with a wrong check letter", { cf: "RSSMRA85T10A562X" }, /Codice fiscale non valido/],
    ["a codice fiscale of the wrong length", { cf: "RSSMRA85T10" }, /Codice fiscale non valido/],
    ["a 4-digit CAP", { zip: "2012" }, /CAP non valido/],
    ["a CAP with letters", { zip: "20I21" }, /CAP non valido/],
    ["a phone with letters", { phone: "chiamami" }, /telefono non valido/],
    ["a birth date in the future", { birth: "2099-01-01" }, /Data di nascita non valida/],
    ["an impossible birth date", { birth: "2007-02-30" }, /Data di nascita non valida/],
    [
      "a child under 14",
      { birth: new Date(Date.now() - 10 * 365 * 86_400_000).toISOString().slice(0, 10) },
      /almeno 14 anni/,
    ],
    ["a school year of 9", { schoolYear: 9 }, /Anno scolastico/],
  ];
  for (const [label, patch, message] of invalid) {
    it(`refuses ${label} with 400 and writes nothing`, async () => {
      const token = await login("profilo.prova@example.com");
      const before = await row(9201);
      // A valid field next to the invalid one must not be written either.
      const response = await call("POST", "/api/profile", { token, json: { city: "Torino", ...patch } });
      expect(response.status).toBe(400);
      expect((await json(response)).error).toMatch(message);
      expect(await row(9201)).toEqual(before);
    });
  }

  it("leaves absent fields as they are (found by the API fuzz: {} used to clear every field)", async () => {
    const token = await login("profilo.prova@example.com");
    await call("POST", "/api/profile", { token, json: { city: "Cremona", schoolYear: 4, cf: "RSSMRA85T10A562S" } });
    const before = await row(9201);
    for (const body of [{}, { unknown: 1 }, { username: "altro" }]) {
      expect((await call("POST", "/api/profile", { token, json: body })).status).toBe(200);
      expect(await row(9201), JSON.stringify(body)).toEqual(before);
    }
    expect(before).toMatchObject({ city: "Cremona", school_year: 4, cf: "RSSMRA85T10A562S" });
  });

  it("answers 401 signed out and 400 to malformed JSON", async () => {
    expect((await call("GET", "/api/profile")).status).toBe(401);
    expect((await call("POST", "/api/profile", { json: { city: "Roma" } })).status).toBe(401);
    const token = await login("profilo.prova@example.com");
    const response = await call("POST", "/api/profile", {
      token,
      body: "{city:",
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toMatch(/JSON/);
  });
});

describe("GET /api/profile/export", () => {
  it("downloads the user's profile, attempts with answers and reports, and nobody else's", async () => {
    const token = await login("studente@example.com");
    const response = await call("GET", "/api/profile/export", { token });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="unicum-dati-giulia\.rossi-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const body = await json<{
      profile: Record<string, unknown>;
      attempts: { id: number; userId: number; answers: { questionId: number }[] }[];
      reports: { userId: number }[];
    }>(response);
    expect(body.profile).toMatchObject({ id: 1, email: "studente@example.com", username: "giulia.rossi" });
    expect(body.profile).not.toHaveProperty("googleSub");
    expect(body.attempts.length).toBe(await count("attempts", "user_id = 1"));
    expect(body.attempts.every((a) => a.userId === 1)).toBe(true);
    const answers = body.attempts.reduce((n, a) => n + a.answers.length, 0);
    expect(answers).toBe(await count("attempt_answers", "attempt_id IN (SELECT id FROM attempts WHERE user_id = 1)"));
    expect(body.reports.length).toBe(await count("reports", "user_id = 1"));
    expect(body.reports.every((r) => r.userId === 1)).toBe(true);
    expect((await call("GET", "/api/profile/export")).status).toBe(401);
  });
});

describe("DELETE /api/profile (erase the account)", () => {
  beforeAll(async () => {
    await insertUser(9301, "da.cancellare@example.com", "da.cancellare", "Dario Cancellare");
    await insertAttempts(9301, 1, [12, 18, 25], 930_000, 1001);
    await env.DB.prepare("INSERT INTO reports (user_id, question_id, message) VALUES (9301, 1001, 'prova')").run();
    await env.DB.prepare(
      "INSERT INTO friendships (requester_id, addressee_id, status) VALUES (9301, 1, 'accepted')",
    ).run();
    await rebuild();
  });

  it("refuses without the typed confirmation and deletes nothing", async () => {
    const token = await login("da.cancellare@example.com");
    for (const body of [{}, { confirm: "elimina ora" }, { confirm: "" }]) {
      const response = await call("DELETE", "/api/profile", { token, json: body });
      expect(response.status).toBe(400);
      expect((await json(response)).error).toMatch(/ELIMINA/);
    }
    expect(await count("users", "id = 9301")).toBe(1);
    expect(await count("attempts", "user_id = 9301")).toBe(3);
  });

  it("removes the user's personal data, attempts and answers, signs out, and takes them out of the site aggregates", async () => {
    const token = await login("da.cancellare@example.com");
    const response = await call("DELETE", "/api/profile", { token, json: { confirm: "ELIMINA" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toMatch(/unicum_session=;.*Max-Age=0/);
    expect(await count("users", "id = 9301")).toBe(0);
    expect(await count("attempts", "user_id = 9301")).toBe(0);
    expect(await count("attempt_answers", "attempt_id BETWEEN 930000 AND 930002")).toBe(0);
    expect(await count("reports", "user_id = 9301")).toBe(0);
    expect(await count("friendships", "requester_id = 9301 OR addressee_id = 9301")).toBe(0);
    expect(await count("sessions", "user_id = 9301")).toBe(0);
    expect((await call("GET", "/api/me", { token })).status).toBe(401);
    // Other users are untouched.
    expect(await count("attempts", "user_id = 1")).toBeGreaterThan(10);
    // The maintained aggregates equal a full rebuild without the deleted attempts.
    const maintained = await aggregateSnapshot();
    await rebuild();
    expect(maintained).toEqual(await aggregateSnapshot());
  });
});
