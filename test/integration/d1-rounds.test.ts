// Issue 33, point 3: a page's server render waits on at most two D1 round trips in a row (the session, then one
// batch of reads), whatever it reads. Counted by the same logging binding the pages bench asks for.
import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { D1_ROUNDS_HEADER } from "~/lib/d1-rounds";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { d1RoundsFor } from "~/server/d1-rounds.server";
import { getDb } from "~/server/db/client.server";
import { provideRequestContext } from "~/server/request-context.server";
import { forgetSharedStats, sharedStats } from "~/server/shared-stats.server";
import { call, login, makeContext, seed } from "./helpers";

beforeAll(async () => {
  await seed();
});

/** A counted environment and the figures of what ran on it. */
function counted() {
  const rounds = d1RoundsFor(
    new Request("http://localhost/", { headers: { [D1_ROUNDS_HEADER]: "1" } }),
    env as unknown as Env,
  )!;
  return {
    DB: rounds.env.DB,
    figures: async () => {
      const answer = await rounds.report(new Response(""));
      const [, sequential, total] = /sequential=(\d+); total=(\d+)/.exec(answer.headers.get(D1_ROUNDS_HEADER)!)!;
      return { sequential: Number(sequential), total: Number(total) };
    },
  };
}

describe("D1 round trips a page waits on in sequence", () => {
  it("counts calls started together as one round and a call after another's answer as the next", async () => {
    const { DB, figures } = counted();
    await Promise.all([DB.prepare("SELECT 1").first(), DB.prepare("SELECT 2").all()]);
    await DB.batch([DB.prepare("SELECT 3"), DB.prepare("SELECT ?").bind(4)]);
    expect(await figures()).toEqual({ sequential: 2, total: 3 });
  });

  it("is off unless asked, and never on a server without the development sign-in", () => {
    expect(d1RoundsFor(new Request("http://localhost/"), env as unknown as Env)).toBeNull();
    const asked = new Request("http://localhost/", { headers: { [D1_ROUNDS_HEADER]: "1" } });
    expect(d1RoundsFor(asked, { ...env, DEV_LOGIN: "0" } as Env)).toBeNull();
  });

  it("/dashboard (streamed parts included), /tentativi and the admin's analytics: the session, then one round", async () => {
    const student = await login("studente@example.com");
    // The dashboard first: a fresh isolate has no exam edition cached yet, nor the shared stats (issue 33); their
    // snapshot is stored for the current version (the first dashboard after a change stores it: one more round).
    await sharedStats(getDb(env.DB));
    forgetSharedStats();
    const dash = counted();
    const request = new Request("http://localhost/dashboard", { headers: { Authorization: `Bearer ${student}` } });
    const context = makeContext({ DB: dash.DB }, createExecutionContext());
    provideRequestContext(request, context);
    const data = await dashboardLoader({ request, context, params: {} } as unknown as Parameters<
      typeof dashboardLoader
    >[0]);
    await Promise.all([data.data, data.happening]);
    const dashboard = await dash.figures();
    expect(dashboard.total).toBeGreaterThan(5);
    expect(dashboard.sequential).toBeLessThanOrEqual(2);

    const list = counted();
    expect((await call("GET", "/tentativi", { token: student, env: { DB: list.DB } })).status).toBe(200);
    expect((await list.figures()).sequential).toBeLessThanOrEqual(2);

    const admin = await login("admin@example.com");
    const analytics = counted();
    expect((await call("GET", "/admin/analytics", { token: admin, env: { DB: analytics.DB } })).status).toBe(200);
    expect((await analytics.figures()).sequential).toBeLessThanOrEqual(2);
  });
});
