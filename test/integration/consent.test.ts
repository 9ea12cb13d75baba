import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { serializeConsent } from "~/lib/consent";
import { call, count, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
});

const visitorId = "0b7c6f3e-1d2a-4c5b-9e8f-112233445566";
const cookieFor = (analytics: boolean) =>
  `unicum_consent=${encodeURIComponent(serializeConsent({ preferences: false, analytics, marketing: false, visitorId }))}`;

describe("page views (first-party analytics)", () => {
  it("stores a page view only when the visitor's consent cookie accepts analytics", async () => {
    const before = await count("page_views");
    const none = await call("POST", "/api/page-view", { json: { path: "/" } });
    expect(await json(none)).toEqual({ stored: false, path: "/" });
    const rejected = await call("POST", "/api/page-view", { json: { path: "/" }, cookie: cookieFor(false) });
    expect(await json(rejected)).toEqual({ stored: false, path: "/" });
    expect(await count("page_views")).toBe(before);

    const accepted = await call("POST", "/api/page-view", {
      json: { path: "/policy", referrer: "https://example.com/" },
      cookie: cookieFor(true),
    });
    expect(await json(accepted)).toEqual({ stored: true, path: "/policy" });
    const row = await env.DB.prepare(
      "SELECT path, visitor_id, user_id FROM page_views ORDER BY id DESC LIMIT 1",
    ).first();
    expect(row).toEqual({ path: "/policy", visitor_id: visitorId, user_id: null });
  });

  it("links the page view to the signed-in user", async () => {
    const token = await login("studente@example.com");
    await call("POST", "/api/page-view", { json: { path: "/dashboard" }, cookie: cookieFor(true), token });
    const row = await env.DB.prepare("SELECT user_id FROM page_views ORDER BY id DESC LIMIT 1").first<{
      user_id: number;
    }>();
    expect(row?.user_id).toBe(1);
  });

  it("takes a consent cookie that is not percent-encoding as no choice, not a 500", async () => {
    for (const value of ["%", "%E0%A4%A"]) {
      const response = await call("POST", "/api/page-view", { json: { path: "/" }, cookie: `unicum_consent=${value}` });
      expect(response.status, value).toBe(200);
      expect(await json(response), value).toEqual({ stored: false, path: "/" });
    }
  });

  it("refuses a bad path with 400 and stores nothing", async () => {
    const before = await count("page_views");
    const response = await call("POST", "/api/page-view", {
      json: { path: "https://evil.example" },
      cookie: cookieFor(true),
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toMatch(/percorso/i);
    expect(await count("page_views")).toBe(before);
  });
});

describe("consent proof", () => {
  it("records each choice with the policy version", async () => {
    const response = await call("POST", "/api/consent", {
      json: { preferences: true, analytics: false, marketing: false, visitorId },
    });
    expect(response.status).toBe(200);
    const row = await env.DB.prepare(
      "SELECT preferences, analytics, marketing, policy_version FROM consent_records WHERE visitor_id = ? ORDER BY id DESC",
    )
      .bind(visitorId)
      .first();
    expect(row).toEqual({ preferences: 1, analytics: 0, marketing: 0, policy_version: "2025-08-19" });
  });

  it("answers 400 to an incomplete choice and records nothing", async () => {
    const before = await count("consent_records");
    const response = await call("POST", "/api/consent", { json: { analytics: true, visitorId } });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toMatch(/preferenza/);
    expect(await count("consent_records")).toBe(before);
  });
});
