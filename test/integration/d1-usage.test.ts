// The bench's D1 meter (issue 31): off unless the server runs with BENCH_D1_USAGE=1; on, it counts D1's own
// meta.rows_read / rows_written of every statement and changes no result (joins with two "id" columns included).
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/server/db/client.server";
import { d1Usage, resetD1Usage, withD1Usage } from "~/server/db/d1-usage.server";
import { sessions, users } from "~/server/db/schema";
import { call, json, login, seed } from "./helpers";

const BENCH = { BENCH_D1_USAGE: "1", DEV_LOGIN: "1" } as Partial<Env>;
let admin = "";

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
});

describe("the bench's D1 meter", () => {
  it("is off (404) on a server not started for the bench, even for an admin", async () => {
    expect((await call("GET", "/api/admin/bench/d1", { token: admin })).status).toBe(404);
    expect((await call("DELETE", "/api/admin/bench/d1", { token: admin })).status).toBe(404);
  });

  it("counts rows read and written without changing any result", async () => {
    const plain = getDb(env.DB);
    const metered = getDb(withD1Usage({ ...env, ...BENCH } as Env).DB);
    const join = (db: typeof plain) =>
      db
        .select({ sessionId: sessions.id, userId: users.id, email: users.email })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .orderBy(sessions.id)
        .all();
    resetD1Usage();
    expect(await join(metered)).toEqual(await join(plain));
    const afterRead = d1Usage();
    expect(afterRead.queries).toBe(1);
    expect(afterRead.rowsRead).toBeGreaterThan(0);
    await metered.update(users).set({ city: "Lecce" }).where(eq(users.email, "admin@example.com"));
    expect(d1Usage().rowsWritten).toBeGreaterThan(afterRead.rowsWritten);
  });

  it("is read and reset by an admin on a bench server, refused to a student", async () => {
    const student = await login("studente@example.com");
    expect((await call("GET", "/api/admin/bench/d1", { token: student, env: BENCH })).status).toBe(403);
    expect((await call("DELETE", "/api/admin/bench/d1", { token: admin, env: BENCH })).status).toBe(200);
    const usage = await json<{ queries: number; rowsRead: number }>(
      await call("GET", "/api/admin/bench/d1", { token: admin, env: BENCH }),
    );
    expect(usage.queries).toBe(0);
  });
});
