// The Worker's guard rails (app/server/security.server.ts) in front of the real routes: the same-origin rule for
// writes, 415 for bodies that are not JSON, 413 past the size cap.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "~/lib/constants";
import { crossSiteRefusal, refuseEarly, withApiErrorShape } from "~/server/security.server";
import { insertUser } from "./analytics-fixtures";
import { buildRequest, callGuarded, json, login, seed } from "./helpers";

const ORIGIN = "http://localhost";
const city = async () =>
  (await env.DB.prepare("SELECT city FROM users WHERE id = ?").bind(9301).first<{ city: string | null }>())?.city ??
  null;

let token = "";
let cookie = "";
beforeAll(async () => {
  await seed();
  await insertUser(9301, "sicurezza.prova@example.com", "sicurezza.prova", "Sara Sicura");
  token = await login("sicurezza.prova@example.com");
  cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
});

describe("cross-site writes", () => {
  it("refuses a cookie POST from another origin with 403 in Italian, and writes nothing", async () => {
    const before = await city();
    const foreign: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { Origin: "http://localhost:9999" }, // another port is another origin
      { "Sec-Fetch-Site": "cross-site" }, // a browser that left Origin out
      { "Sec-Fetch-Site": "same-site" },
    ];
    for (const headers of foreign) {
      const response = await callGuarded("POST", "/api/profile", { cookie, headers, json: { city: "Hackerville" } });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((await json(response)).error).toMatch(/solo dalle pagine di Unicum/);
    }
    // The attack of the issue: text/plain from a foreign page.
    const plain = await callGuarded("POST", "/api/profile", {
      cookie,
      headers: { Origin: "https://evil.example", "Content-Type": "text/plain" },
      body: JSON.stringify({ city: "Hackerville" }),
    });
    expect(plain.status).toBe(403);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      expect(
        (await callGuarded(method, "/api/profile", { cookie, headers: { Origin: "https://evil.example" } })).status,
        method,
      ).toBe(403);
    }
    expect(await city()).toBe(before);
  });

  it("lets our own pages write: same Origin, or Sec-Fetch-Site same-origin without Origin", async () => {
    const same = await callGuarded("POST", "/api/profile", {
      cookie,
      headers: { Origin: ORIGIN },
      json: { city: "Pavia" },
    });
    expect(same.status).toBe(200);
    expect(await city()).toBe("Pavia");
    const fetchMeta = await callGuarded("POST", "/api/profile", {
      cookie,
      headers: { "Sec-Fetch-Site": "same-origin" },
      json: { city: "Lodi" },
    });
    expect(fetchMeta.status).toBe(200);
    expect(await city()).toBe("Lodi");
  });

  it("leaves Bearer calls and non-browser clients (neither Origin nor Sec-Fetch-Site) alone", async () => {
    const bearer = await callGuarded("POST", "/api/profile", {
      token,
      headers: { Origin: "https://tool.example" },
      json: { city: "Como" },
    });
    expect(bearer.status).toBe(200);
    const tool = await callGuarded("POST", "/api/profile", { cookie, json: { city: "Varese" } });
    expect(tool.status).toBe(200);
    expect(await city()).toBe("Varese");
  });

  it("lets reads through from anywhere (a link from another site still opens the page)", async () => {
    const read = await callGuarded("GET", "/api/profile", {
      cookie,
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(read.status).toBe(200);
  });

  it("refuses a cross-site WebSocket upgrade (the simulation room)", () => {
    const upgrade = (origin: string) =>
      crossSiteRefusal(
        new Request(`${ORIGIN}/api/simulations/x/ws`, {
          headers: { Upgrade: "websocket", Origin: origin, Cookie: cookie },
        }),
      );
    expect(upgrade("https://evil.example")?.status).toBe(403);
    expect(upgrade(ORIGIN)).toBeNull();
  });

  it("refuses the Google and development sign-ins from a foreign page (login CSRF)", async () => {
    const response = await callGuarded("POST", "/api/auth/dev", {
      headers: { Origin: "https://evil.example" },
      json: { email: "studente@example.com" },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("the simulation sockets' addresses", () => {
  it("answers 400 in Italian to an id that is not valid %-encoding (issue 44: /api/simulations/%E0/staff/ws was a 500)", async () => {
    const teacher = await login("docente@example.com");
    for (const path of [
      "/api/simulations/%E0/staff/ws",
      "/api/simulations/%/staff/ws?shard=0",
      "/api/simulations/%E0/ws",
      "/api/simulations/%ZZ/ws",
    ]) {
      for (const headers of [{ Upgrade: "websocket" }, {} as Record<string, string>]) {
        const answer = await callGuarded("GET", path, { token: teacher, headers });
        expect(answer.status, path).toBe(400);
        expect((await json(answer)).error, path).toMatch(/identificativo della simulazione non è leggibile/);
      }
    }
  });
});

describe("JSON calls only take JSON", () => {
  it("answers 415 in Italian to a text/plain or form body, and writes nothing", async () => {
    const before = await city();
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/html",
    ]) {
      const response = await callGuarded("POST", "/api/profile", {
        cookie,
        headers: { Origin: ORIGIN, "Content-Type": type },
        body: '{"city":"Bari"}',
      });
      expect(response.status, type).toBe(415);
      expect((await json(response)).error).toMatch(/Formato non supportato.*JSON/);
    }
    expect(await city()).toBe(before);
  });

  it("accepts application/json with a charset, and JSON variants", async () => {
    const response = await callGuarded("POST", "/api/profile", {
      token,
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ city: "Bergamo" }),
    });
    expect(response.status).toBe(200);
    expect(await city()).toBe("Bergamo");
  });

  it("answers 413 to a JSON body over 1 MB, declared or not", async () => {
    const big = JSON.stringify({ city: "x".repeat(1024 * 1024 + 10) });
    const declared = await callGuarded("POST", "/api/profile", {
      token,
      headers: { "Content-Type": "application/json", "Content-Length": String(big.length) },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect((await json(declared)).error).toMatch(/troppo grande/);
    // A streamed body has no length to check up front: readJson stops reading past the cap.
    const stream = new Request(`${ORIGIN}/api/report-question`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: new Blob([big]).stream(),
      duplex: "half",
    } as RequestInit);
    const { send } = await import("./helpers");
    const streamed = await send(stream);
    expect(streamed.status).toBe(413);
  });

  it("reads the path as the router does (issue 44): /API/PROFILE is capped, and its errors are JSON", async () => {
    for (const path of ["/API/PROFILE", "/Api/Profile/", "/api/pr%6Ffile"]) {
      const request = buildRequest("POST", path, {
        headers: { "Content-Type": "application/json", "Content-Length": String(2 * 1024 * 1024) },
        body: "{}",
      });
      const refused = refuseEarly(request);
      expect(refused?.status, path).toBe(413);
      expect((await json(refused!)).error, path).toMatch(/troppo grande/);
      const page = new Response("<!doctype html><p>Non trovato</p>", {
        status: 404,
        headers: { "Content-Type": "text/html" },
      });
      const shaped = await withApiErrorShape(buildRequest("GET", path), page);
      expect(shaped.headers.get("Content-Type"), path).toBe("application/json");
      expect((await json(shaped)).error, path).toBe("Indirizzo non trovato.");
    }
    // The imports keep their own cap whatever the spelling.
    const upload = buildRequest("POST", "/API/ADMIN/IMPORT", {
      headers: { "Content-Type": "text/csv", "Content-Length": String(2 * 1024 * 1024) },
      body: "id\n",
    });
    expect(refuseEarly(upload)).toBeNull();
  });

  it("keeps the imports' own types (CSV)", async () => {
    const admin = await login("admin@example.com");
    const csv = await callGuarded("POST", "/api/admin/import-difficulty", {
      token: admin,
      headers: { "Content-Type": "text/csv" },
      body: "id,difficulty\n",
    });
    expect(csv.status).not.toBe(415);
  });
});
