// Reads near the student (issue 31): every request runs its D1 queries in one Sessions API session; the session's
// bookmark goes back in a cookie, so the next request of the same student starts from it and sees its own writes.
// Requests go through the route table the way workers/app.ts sends them: openReadSession, then the route with
// env.DB = the session, then the bookmark cookie on the answer.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "~/lib/constants";
import {
  D1_BOOKMARK_COOKIE,
  openReadSession,
  requestBookmark,
  sessionStart,
  signedBookmark,
} from "~/server/db/d1-session.server";
import { insertUser } from "./analytics-fixtures";
import { buildRequest, type CallOptions, json, login, seed, send } from "./helpers";

/** One request through the Worker's D1 session, as workers/app.ts does it; also returns how the session started. */
async function viaWorker(method: string, path: string, options: CallOptions = {}, workerEnv = env as Env) {
  const request = buildRequest(method, path, options);
  const reads = await openReadSession(request, workerEnv);
  const response = await reads.withBookmark(request, await send(request, { ...options.env, DB: reads.env.DB }));
  return { response, start: reads.start };
}

/** The bookmark cookie an answer sets (its value: the bookmark and its MAC), or null. */
function bookmarkOf(response: Response): string | null {
  const set = response.headers.getSetCookie().find((c) => c.startsWith(`${D1_BOOKMARK_COOKIE}=`));
  return set ? set.split(";")[0]!.slice(D1_BOOKMARK_COOKIE.length + 1) : null;
}

/** The bookmark of a cookie value, without its MAC. */
const plain = (value: string | null) => value?.split(".")[0] ?? null;

/** Whether an answer expires the bookmark cookie. */
const expiresCookie = (response: Response) =>
  response.headers.getSetCookie().some((c) => c.startsWith(`${D1_BOOKMARK_COOKIE}=;`) && /Max-Age=0/.test(c));

let session = "";

beforeAll(async () => {
  await seed();
  await insertUser(9601, "repliche.uno@example.com", "repliche.uno", "Rita Repliche");
  session = `${SESSION_COOKIE}=${await login("repliche.uno@example.com")}`;
});

describe("D1 sessions and the bookmark cookie", () => {
  it("a write starts on the primary and hands back a bookmark; the next read starts from it and sees the write", async () => {
    const write = await viaWorker("POST", "/api/profile", { cookie: session, json: { city: "Bologna" } });
    expect(write.response.status).toBe(200);
    expect(write.start).toBe("first-primary");
    const bookmark = bookmarkOf(write.response);
    expect(bookmark).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]+\.[\w-]{22}$/);
    const setCookie = write.response.headers.getSetCookie().find((c) => c.startsWith(`${D1_BOOKMARK_COOKIE}=`))!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");

    const read = await viaWorker("GET", "/api/profile", { cookie: `${session}; ${D1_BOOKMARK_COOKIE}=${bookmark}` });
    expect(read.start).toBe(plain(bookmark));
    expect(expiresCookie(read.response)).toBe(false);
    expect(read.response.status).toBe(200);
    expect((await json<{ city: string }>(read.response)).city).toBe("Bologna");
    // (No check that a pure read leaves the cookie alone: the local D1 moves its bookmark on every query.)
  });

  it("each write moves the bookmark forward (bookmarks sort by time)", async () => {
    const first = bookmarkOf(
      (await viaWorker("POST", "/api/profile", { cookie: session, json: { city: "Roma" } })).response,
    );
    const second = bookmarkOf(
      (
        await viaWorker("POST", "/api/profile", {
          cookie: `${session}; ${D1_BOOKMARK_COOKIE}=${first}`,
          json: { city: "Pisa" },
        })
      ).response,
    );
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(plain(second)! > plain(first)!).toBe(true);
  });

  it("a read in a new session (no cookie) starts anywhere and works", async () => {
    const read = await viaWorker("GET", "/api/profile", { cookie: session });
    expect(read.start).toBe("first-unconstrained");
    expect(read.response.status).toBe(200);
    expect((await json<{ city: string }>(read.response)).city).toBe("Pisa");
    // The student gets a bookmark to carry from now on.
    expect(bookmarkOf(read.response)).toMatch(/^[0-9a-f]{8}-/);
  });

  it("a forged or malformed bookmark is ignored, never sent to D1", async () => {
    for (const forged of ["x", "first-primary", "00000000-00000000-00000000", "'; DROP TABLE users; --"]) {
      const request = buildRequest("GET", "/api/profile", {
        cookie: `${session}; ${D1_BOOKMARK_COOKIE}=${encodeURIComponent(forged)}`,
      });
      expect(sessionStart(request, await requestBookmark(request, env))).toBe("first-unconstrained");
    }
    const read = await viaWorker("GET", "/api/profile", { cookie: `${session}; ${D1_BOOKMARK_COOKIE}=zzz` });
    expect(read.response.status).toBe(200);
  });

  it("an anonymous visitor gets no bookmark cookie", async () => {
    const anonymous = await viaWorker("GET", "/api/profile");
    expect(anonymous.response.status).toBe(401);
    expect(bookmarkOf(anonymous.response)).toBeNull();
  });
});

// Issue 44: a forged far-future bookmark pinned one user's reads for the cookie's six hours (D1 keeps a session's
// bookmark at the latest it has seen, so the forged one was never replaced). The cookie is now signed; a bookmark that
// is not ours, or that D1 refuses, falls back to "first-unconstrained" and the answer expires the cookie.
describe("a bookmark cookie the server refuses", () => {
  const FUTURE = `7fffffff-7fffffff-7fffffff-${"f".repeat(32)}`;

  it("a forged far-future bookmark: the read succeeds, starts anywhere, and the answer expires the cookie", async () => {
    const ours = bookmarkOf(
      (await viaWorker("POST", "/api/profile", { cookie: session, json: { city: "Lecce" } })).response,
    );
    const mac = ours!.split(".")[1];
    for (const forged of [FUTURE, `${FUTURE}.${mac}`, `${FUTURE}.${"A".repeat(22)}`]) {
      const read = await viaWorker("GET", "/api/profile", { cookie: `${session}; ${D1_BOOKMARK_COOKIE}=${forged}` });
      expect(read.response.status, forged).toBe(200);
      expect((await json<{ city: string }>(read.response)).city, forged).toBe("Lecce");
      expect(read.start, forged).toBe("first-unconstrained");
      expect(expiresCookie(read.response), forged).toBe(true);
      expect(plain(bookmarkOf(read.response)), forged).not.toBe(FUTURE);
    }
  });

  it("a garbage cookie is expired too, for a visitor without a session as well", async () => {
    for (const cookie of [`${session}; ${D1_BOOKMARK_COOKIE}=zzz`, `${D1_BOOKMARK_COOKIE}=zzz`]) {
      const read = await viaWorker("GET", "/api/exam-editions", { cookie });
      expect(read.response.status).toBe(200);
      expect(expiresCookie(read.response)).toBe(true);
    }
  });

  it("a bookmark of ours that D1 refuses: the request is read again unconstrained, succeeds, and expires the cookie", async () => {
    const ours = bookmarkOf(
      (await viaWorker("POST", "/api/profile", { cookie: session, json: { city: "Trento" } })).response,
    );
    let refusals = 0;
    const refusing = (start?: string) => {
      const fail = () => {
        refusals++;
        return Promise.reject(new Error("D1_ERROR: bookmark refused (test)"));
      };
      const statement = { bind: () => statement, first: fail, all: fail, raw: fail, run: fail };
      return start && !start.startsWith("first-")
        ? { prepare: () => statement, batch: fail, getBookmark: () => start }
        : env.DB.withSession(start);
    };
    const db = new Proxy(env.DB, {
      get: (target, key) => (key === "withSession" ? refusing : Reflect.get(target, key)),
    });
    const read = await viaWorker("GET", "/api/profile", { cookie: `${session}; ${D1_BOOKMARK_COOKIE}=${ours}` }, {
      ...env,
      DB: db,
    } as Env);
    expect(read.start).toBe(plain(ours));
    expect(refusals).toBeGreaterThan(0);
    expect(read.response.status).toBe(200);
    expect((await json<{ city: string }>(read.response)).city).toBe("Trento");
    expect(expiresCookie(read.response)).toBe(true);
  });

  it("a query that fails for a reason of its own (an SQLite error) fails as it is: the bookmark is kept", async () => {
    const ours = bookmarkOf(
      (await viaWorker("POST", "/api/profile", { cookie: session, json: { city: "Aosta" } })).response,
    );
    const request = buildRequest("GET", "/api/profile", { cookie: `${session}; ${D1_BOOKMARK_COOKIE}=${ours}` });
    const reads = await openReadSession(request, env as Env);
    await expect(reads.env.DB.prepare("SELECT * FROM no_such_table").all()).rejects.toThrow(/no_such_table/);
    expect((await reads.env.DB.prepare("SELECT 1 AS one").first<{ one: number }>())?.one).toBe(1);
    expect(expiresCookie(await reads.withBookmark(request, new Response("ok")))).toBe(false);
  });

  it("keeps a bookmark signed under the previous master secret while rotating", async () => {
    const bookmark = plain(
      bookmarkOf((await viaWorker("POST", "/api/profile", { cookie: session, json: { city: "Udine" } })).response),
    )!;
    const previous = await signedBookmark({ SESSION_SECRET: env.SESSION_SECRET }, bookmark);
    const rotated = { SESSION_SECRET: "rotated-master-secret-0123456789-abcdefghij" };
    const request = buildRequest("GET", "/api/profile", { cookie: `${D1_BOOKMARK_COOKIE}=${previous}` });
    expect(await requestBookmark(request, rotated)).toEqual({ bookmark: null, refused: true });
    expect(await requestBookmark(request, { ...rotated, SESSION_SECRET_PREVIOUS: env.SESSION_SECRET })).toEqual({
      bookmark,
      refused: false,
    });
  });
});
