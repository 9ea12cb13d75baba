// Reads near the student (issue 31): every request runs its D1 queries in one Sessions API session; the session's
// bookmark goes back in a cookie, so the next request of the same student starts from it and sees its own writes.
// Requests go through the route table the way workers/app.ts sends them: openReadSession, then the route with
// env.DB = the session, then the bookmark cookie on the answer.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "~/lib/constants";
import { D1_BOOKMARK_COOKIE, openReadSession, sessionStart } from "~/server/db/d1-session.server";
import { insertUser } from "./analytics-fixtures";
import { buildRequest, type CallOptions, json, login, seed, send } from "./helpers";

/** One request through the Worker's D1 session, as workers/app.ts does it; also returns how the session started. */
async function viaWorker(method: string, path: string, options: CallOptions = {}) {
  const request = buildRequest(method, path, options);
  const reads = openReadSession(request, env as Env);
  const response = reads.withBookmark(request, await send(request, { DB: reads.env.DB }));
  return { response, start: reads.start };
}

function bookmarkOf(response: Response): string | null {
  const set = response.headers.getSetCookie().find((c) => c.startsWith(`${D1_BOOKMARK_COOKIE}=`));
  return set ? set.split(";")[0]!.slice(D1_BOOKMARK_COOKIE.length + 1) : null;
}

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
    expect(bookmark).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]+$/);
    const setCookie = write.response.headers.getSetCookie().find((c) => c.startsWith(`${D1_BOOKMARK_COOKIE}=`))!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");

    const read = await viaWorker("GET", "/api/profile", { cookie: `${session}; ${D1_BOOKMARK_COOKIE}=${bookmark}` });
    expect(read.start).toBe(bookmark);
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
    expect(second! > first!).toBe(true);
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
      expect(sessionStart(request)).toBe("first-unconstrained");
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
