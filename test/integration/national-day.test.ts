// A national day (issue 31): a student's calls cost the same D1 rows whatever the audience (10 or 2,000), the
// ranking answers by pages with today's numbers (10,000 rows), and stays small (6,000 participants).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { RANKING_AROUND, RANKING_PAGE_TOP } from "~/lib/constants";
import { percentileWithin, rankScores } from "~/lib/simulation";
import { getDb } from "~/server/db/client.server";
import { rankingFor } from "~/server/simulations.server";
import { countingD1 } from "./d1-counter";
import { call, json, login, seed } from "./helpers";

/** Prints the rows read per statement of each measured call. */
const DEBUG = false;
let admin: string;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
/** Users "naz-1".."naz-N" (never signed in): the audiences. */
let crowd: number[] = [];

async function makeUsers(prefix: string, n: number): Promise<number[]> {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT OR IGNORE INTO users (email, name) SELECT ? || i || '@example.com', 'Utente ' || ? || i FROM n`,
  )
    .bind(n, prefix, prefix)
    .run();
  const rows = await env.DB.prepare(`SELECT id FROM users WHERE email LIKE ? || '%' ORDER BY id`)
    .bind(prefix)
    .all<{ id: number }>();
  return rows.results.map((r) => r.id);
}

async function makeClass(name: string, members: number[]): Promise<number> {
  const cls = await env.DB.prepare(
    "INSERT INTO classes (name, code, owner_id) VALUES (?, ?, (SELECT id FROM users WHERE email = 'admin@example.com')) RETURNING id",
  )
    .bind(name, `C${name.toUpperCase().replaceAll(/[^A-Z0-9]/g, "")}`.slice(0, 12))
    .first<{ id: number }>();
  const statements = [];
  for (let i = 0; i < members.length; i += 40) {
    const part = members.slice(i, i + 40);
    statements.push(
      env.DB.prepare(
        `INSERT INTO class_members (class_id, user_id) VALUES ${part.map(() => "(?, ?)").join(", ")}`,
      ).bind(...part.flatMap((u) => [cls!.id, u])),
    );
  }
  if (statements.length) await env.DB.batch(statements);
  return cls!.id;
}

async function save(id: string, allowedUsers: number[], allowedClasses: number[]) {
  const response = await call("POST", "/api/admin/simulations", {
    token: admin,
    json: {
      id,
      title: `Giornata ${id}`,
      subjects: [{ subjectId: 2, timeMin: 30, questions: [2001, 2002] }],
      allowedUsers,
      allowedClasses,
    },
  });
  expect(response.status).toBe(201);
}

/** Rows read by one call of a student, through the real route with a counting D1 binding. */
async function rowsOf(method: string, path: string, token: string, body?: unknown) {
  const counter = countingD1();
  const response = await call(method, path, { token, json: body, env: { DB: counter.db } });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  if (DEBUG) console.log(method, path, JSON.stringify(await counter.rowsPerStatement()));
  return {
    rows: await counter.rowsRead(),
    queries: counter.statements().length,
    bytes: (await response.text()).length,
  };
}

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  crowd = await makeUsers("naz-", 2100);
  for (const who of ["listed", "pupil"]) {
    await env.DB.prepare("INSERT OR IGNORE INTO users (email, name) VALUES (?, ?)")
      .bind(`${who}@example.com`, who)
      .run();
    tokens[who] = await login(`${who}@example.com`);
    ids[who] = (await env.DB.prepare("SELECT id FROM users WHERE email = ?")
      .bind(`${who}@example.com`)
      .first<{ id: number }>())!.id;
  }
});

describe("a student's calls do not grow with the audience", () => {
  it("reads the same D1 rows for the page, the flow, the attempt and the ranking with 10 or 2,000 in the audience", async () => {
    // The same shape twice: half listed users, half members of an allowed class; `listed` and `pupil` in each.
    const smallClass = await makeClass("nd-small", [ids.pupil!, ...crowd.slice(0, 4)]);
    const bigClass = await makeClass("nd-big", [ids.pupil!, ...crowd.slice(100, 1099)]);
    await save("nd-10", [ids.listed!, ...crowd.slice(10, 14)], [smallClass]);
    await save("nd-2000", [ids.listed!, ...crowd.slice(1100, 2099)], [bigClass]);

    const figures: Record<string, Record<string, number>> = {};
    const measure = async (label: string, method: string, path: (sim: string) => string, body?: unknown) => {
      for (const who of ["listed", "pupil"]) {
        const small = await rowsOf(method, path("nd-10"), tokens[who]!, body);
        const big = await rowsOf(method, path("nd-2000"), tokens[who]!, body);
        figures[`${label} (${who})`] = { small: small.rows, big: big.rows, queries: big.queries };
        expect(big.queries, `${label} (${who})`).toBe(small.queries);
        if (label === "ranking") {
          // The top 50 and the 11 around: bounded, not equal (10 participants have no top 50).
          expect(big.rows, `${label} (${who})`).toBeLessThanOrEqual(small.rows + RANKING_PAGE_TOP + RANKING_AROUND + 1);
          continue;
        }
        // The same statements; an index scan may step onto one neighbouring row (another simulation's) to see its end.
        expect(Math.abs(big.rows - small.rows), `${label} (${who}): ${small.rows} vs ${big.rows}`).toBeLessThanOrEqual(
          small.queries,
        );
      }
    };
    await measure("page before the start", "GET", (sim) => `/simulazione?id=${sim}`);
    await measure("flow before the start", "GET", (sim) => `/api/simulations/${sim}`);
    for (const sim of ["nd-10", "nd-2000"])
      expect((await call("POST", `/api/admin/simulations/${sim}/start`, { token: admin })).status).toBe(200);
    await env.DB.prepare("UPDATE simulations SET start_time = ? WHERE id IN ('nd-10', 'nd-2000')")
      .bind(Date.now() - 60_000)
      .run();
    await measure("flow after the start", "GET", (sim) => `/api/simulations/${sim}`);
    await measure("attempt (autosave)", "POST", (sim) => `/api/simulations/${sim}/attempt`, {
      answers: { "2": { "2001": "x" } },
      timeTaken: 60,
    });
    // Every member sat it; once graded the ranking is written once (not a student's cost) and read by pages.
    for (const sim of ["nd-10", "nd-2000"]) {
      await env.DB.prepare(
        `INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec, created_at)
         SELECT ?1, user_id, '{}', '[]', (user_id * 7) % 31, 50, 600 + user_id % 3, 0 FROM (
           SELECT user_id FROM simulation_allowed_users WHERE simulation_id = ?1
           UNION SELECT cm.user_id FROM class_members cm JOIN simulation_allowed_classes sac ON sac.class_id = cm.class_id
           WHERE sac.simulation_id = ?1)`,
      )
        .bind(sim)
        .run();
      await env.DB.prepare("UPDATE simulations SET graded_at = ? WHERE id = ?").bind(Date.now(), sim).run();
      await call("GET", `/api/simulations/${sim}/ranking`, { token: admin });
    }
    await measure("ranking", "GET", (sim) => `/api/simulations/${sim}/ranking`);
    console.log("D1 rows read per student call (audience 10 vs 2,000):", JSON.stringify(figures, null, 1));
    for (const [label, f] of Object.entries(figures)) expect(f.big, label).toBeLessThan(200);
  });
});

describe("the ranking by pages", () => {
  it("gives the same positions, ties and percentiles as the full ranking, on 10,000 rows", async () => {
    const people = await makeUsers("rk-", 10_000);
    expect(people.length).toBe(10_000);
    await env.DB.prepare(
      "INSERT INTO simulations (id, title, started, start_time, shards, graded_at) VALUES ('nd-rank', 'Classifica', 1, 0, 10, 1)",
    ).run();
    // Scores in half points and three durations: many ties, on score alone and on score and time.
    await env.DB.prepare(
      `INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec, created_at)
       SELECT 'nd-rank', id, '{}', '[]', ((id * 7919) % 63) / 2.0, 50, 1200 + ((id * 104729) % 3) * 60, 0
       FROM users WHERE email LIKE 'rk-%'`,
    ).run();
    const all = (
      await env.DB.prepare(
        "SELECT user_id AS userId, score, time_sec AS timeSec FROM simulation_attempts WHERE simulation_id = 'nd-rank'",
      ).all<{
        userId: number;
        score: number;
        timeSec: number;
      }>()
    ).results;
    const expected = rankScores(all);
    const scores = all.map((r) => r.score);
    const percentile = new Map([...new Set(scores)].map((s) => [s, percentileWithin(s, scores)]));
    expect(new Set(expected.map((r) => r.pos)).size).toBeLessThan(10_000); // ties exist

    // Staff: the 100 pages of 100 rows are the full ranking, row for row.
    const paged: { userId: number; pos: number; score: number; percentile: number }[] = [];
    for (let page = 1; page <= 100; page++) {
      const response = await call("GET", `/api/admin/simulations/nd-rank/attempts?page=${page}`, { token: admin });
      expect(response.headers.get("X-Total-Count")).toBe("10000");
      paged.push(...(await json<typeof paged>(response)));
    }
    expect(paged.map((r) => [r.userId, r.pos, r.score, r.percentile])).toEqual(
      expected.map((r) => [r.userId, r.pos, r.score, percentile.get(r.score)]),
    );
    // The CSV is the same ranking, read page by page.
    const csv = await (
      await call("GET", "/api/admin/simulations/nd-rank/attempts?format=csv", { token: admin })
    ).text();
    const lines = csv.trim().split("\r\n");
    expect(lines.length).toBe(10_001);
    expect(lines[1]!.split(",").slice(0, 2)).toEqual([String(expected[0]!.pos), String(expected[0]!.userId)]);
    expect(lines[10_000]!.split(",").slice(0, 2)).toEqual([
      String(expected[9999]!.pos),
      String(expected[9999]!.userId),
    ]);

    // Participants: their own position and percentile, the top 50 and the 10 around them.
    const sample = [0, 1, 49, 50, 51, 777, 5000, 9994, 9998, 9999].map((i) => expected[i]!);
    for (const me of sample) {
      const answer = await rankingFor(getDb(env.DB), "nd-rank", me.userId);
      const row = expected.findIndex((r) => r.userId === me.userId);
      expect(answer).toMatchObject({ final: true, pos: me.pos, participants: 10_000, score: me.score });
      expect(answer.percentile).toBe(percentile.get(me.score));
      expect(answer.ranking).toEqual(
        expected.slice(0, 50).map((r) => ({ userId: r.userId, pos: r.pos, score: r.score })),
      );
      expect(answer.around).toEqual(
        expected.slice(Math.max(0, row - 5), row + 6).map((r) => ({ userId: r.userId, pos: r.pos, score: r.score })),
      );
    }
  });

  it("answers a participant of 6,000 in a few KB", async () => {
    const people = (await makeUsers("rk-", 10_000)).slice(0, 5999);
    await env.DB.prepare(
      "INSERT INTO simulations (id, title, started, start_time, shards, graded_at) VALUES ('nd-6000', 'Seimila', 1, 0, 6, 1)",
    ).run();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO simulation_allowed_users (simulation_id, user_id) VALUES ('nd-6000', ?)").bind(
        ids.listed!,
      ),
      env.DB.prepare(
        `INSERT INTO simulation_attempts (simulation_id, user_id, answers, subjects_result, score, perc, time_sec, created_at)
         SELECT 'nd-6000', id, '{}', '[]', ((id * 31) % 63) / 2.0, 50, 1500, 0 FROM users WHERE id IN (SELECT value FROM json_each(?))
         UNION ALL SELECT 'nd-6000', ?, '{}', '[]', 15, 50, 1500, 0`,
      ).bind(JSON.stringify(people), ids.listed!),
    ]);
    const first = await rowsOf("GET", "/api/simulations/nd-6000/ranking", tokens.listed!);
    const again = await rowsOf("GET", "/api/simulations/nd-6000/ranking", tokens.listed!);
    console.log(
      `ranking answer at 6,000 participants: ${again.bytes} bytes, ${again.rows} rows read (first call, ranking written: ${first.rows})`,
    );
    expect(again.bytes).toBeLessThan(20_000);
    const body = await json<{ participants: number; ranking: unknown[]; around: unknown[] }>(
      await call("GET", "/api/simulations/nd-6000/ranking", { token: tokens.listed! }),
    );
    expect(body.participants).toBe(6000);
    expect(body.ranking).toHaveLength(50);
    expect(body.around).toHaveLength(11);
  });
});
