// A national day (issue 31): a student's calls cost the same D1 rows whatever the audience (10 or 2,000), the
// ranking answers by pages with today's numbers (10,000 rows), and stays small (6,000 participants).
import { env, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { RANKING_AROUND, RANKING_PAGE_TOP, SIMULATION_GRACE_MS } from "~/lib/constants";
import { gradeSimulation } from "~/lib/simulation";
import { percentileByKey, rankByKey } from "~/lib/rank-key";
import { getDb } from "~/server/db/client.server";
import { d1Usage, resetD1Usage, withD1Usage } from "~/server/db/d1-usage.server";
import { writeGradedAttempts } from "../../app/server/simulation/grading.server";
import { answerKeysOf, loadSimulation } from "../../app/server/simulation/plan.server";
import { rankingFor } from "../../app/server/simulation/ranking.server";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";
import { routeSimulationSocket } from "../../workers/simulation-socket";
import { countingD1 } from "./d1-counter";
import { call, count, json, login, seed } from "./helpers";

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
    // The big audience's members in 100 classes of 10, the pupil in the last one: the door's class test must start
    // from the pupil's own memberships, not walk the simulation's allowed classes (28 rows a call in the 6,000 bench).
    const bigClasses: number[] = [];
    for (let k = 0; k < 100; k++) {
      const members = crowd.slice(100 + k * 10, 110 + k * 10 - (k === 99 ? 1 : 0));
      bigClasses.push(await makeClass(`nd-b${k}`, k === 99 ? [...members, ids.pupil!] : members));
    }
    await save("nd-10", [ids.listed!, ...crowd.slice(10, 14)], [smallClass]);
    await save("nd-2000", [ids.listed!, ...crowd.slice(1100, 2099)], bigClasses);

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
    await env.DB.prepare(
      "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id IN ('nd-10', 'nd-2000')",
    )
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
    // The order is the ranking key's alone (a simulation made by hand: its total): the time taken plays no part.
    const expected = rankByKey(all.map((r) => ({ ...r, key: r.score })));
    const scores = all.map((r) => r.score);
    const percentile = new Map([...new Set(scores)].map((s) => [s, percentileByKey(s, scores)]));
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
    // The top of a final ranking is read once per isolate: the next call reads only the student's own rows.
    expect(again.rows).toBeLessThan(RANKING_PAGE_TOP);
    const body = await json<{ participants: number; ranking: unknown[]; around: unknown[] }>(
      await call("GET", "/api/simulations/nd-6000/ranking", { token: tokens.listed! }),
    );
    expect(body.participants).toBe(6000);
    expect(body.ranking).toHaveLength(50);
    expect(body.around).toHaveLength(11);
  });
});

const roomOf = (id: string, shard: number) => env.SIMULATION_ROOM.get(env.SIMULATION_ROOM.idFromName(`${id}:${shard}`));

async function connect(simId: string, token: string) {
  const response = await exports.default.fetch(`http://localhost/api/simulations/${simId}/ws`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const messages: { type: string }[] = [];
  const closes: number[] = [];
  ws.addEventListener("message", (event) => {
    messages.push(JSON.parse(event.data as string));
  });
  ws.addEventListener("close", (event) => {
    closes.push(event.code);
  });
  const next = async (type: string) => {
    await expect.poll(() => messages.some((m) => m.type === type), { timeout: 8000 }).toBe(true);
  };
  return { ws, closes, next };
}

const seatsOf = async (sim: string) =>
  new Map(
    (
      await env.DB.prepare("SELECT user_id, shard FROM simulation_seats WHERE simulation_id = ?")
        .bind(sim)
        .all<{ user_id: number; shard: number }>()
    ).results.map((r) => [r.user_id, r.shard]),
  );

describe("rooms for the whole audience", () => {
  it("seats class members and listed users at save, evenly; a pupil learns their room before the start; Avvia moves nobody", async () => {
    // 1,500 pupils of a class and 600 listed users: 2,100 → 3 rooms of 700. `pupil` is in the class.
    const cls = await makeClass("nd-seats", [ids.pupil!, ...crowd.slice(0, 1499)]);
    await save("nd-seats", crowd.slice(1500, 2100), [cls]);
    const seats = await seatsOf("nd-seats");
    expect(seats.size).toBe(2100);
    const perRoom = [0, 1, 2].map((room) => [...seats.values()].filter((s) => s === room).length);
    expect(perRoom).toEqual([700, 700, 700]);
    expect(seats.has(ids.pupil!)).toBe(true);

    // Before the start the page data gives the pupil their room, and their socket waits in it.
    const view = await json<{ room: number; rooms: number }>(
      await call("GET", "/api/simulations/nd-seats", { token: tokens.pupil! }),
    );
    expect(view).toMatchObject({ room: seats.get(ids.pupil!), rooms: 3 });
    const early = await connect("nd-seats", tokens.pupil!);
    await early.next("hello");
    expect(
      await runInDurableObject(roomOf("nd-seats", view.room), (r: SimulationRoom) => r.connectedUserIds()),
    ).toContain(ids.pupil);

    // `listed` joins the class after the save: no seat yet, they wait in shardOf's room and are seated there at Avvia.
    await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, ?)").bind(cls, ids.listed!).run();
    const late = await json<{ room: number }>(
      await call("GET", "/api/simulations/nd-seats", { token: tokens.listed! }),
    );
    expect(late.room).toBe(ids.listed! % 3);
    const lateSocket = await connect("nd-seats", tokens.listed!);
    await lateSocket.next("hello");

    const started = await call("POST", "/api/admin/simulations/nd-seats/start", { token: admin });
    expect(await json(started)).toMatchObject({ shards: 3 });
    await early.next("simulation-start");
    await lateSocket.next("simulation-start");
    const after = await seatsOf("nd-seats");
    for (const [userId, seat] of seats) expect(after.get(userId)).toBe(seat);
    expect(after.get(ids.listed!)).toBe(late.room);
    // Nobody was told to change room: both sockets are still open in their rooms.
    expect(early.closes).toEqual([]);
    expect(lateSocket.closes).toEqual([]);
    expect(
      await runInDurableObject(roomOf("nd-seats", late.room), (r: SimulationRoom) => r.connectedUserIds()),
    ).toContain(ids.listed);
    early.ws.close(1000, "bye");
    lateSocket.ws.close(1000, "bye");
  });
});

describe("the admin tab's list", () => {
  it("costs the same D1 queries before and after 300 more simulations and lists the same data", async () => {
    const countList = async () => {
      const counter = countingD1();
      const response = await call("GET", "/api/admin/simulations", { token: admin, env: { DB: counter.db } });
      expect(response.status).toBe(200);
      return {
        statements: counter.statements().length,
        trips: counter.roundTrips(),
        list: await json<AdminRow[]>(response),
      };
    };
    const before = await countList();
    // 300 more, each with 3 subjects of 31 questions, 20 listed users and a class (as a national day's many sittings).
    const cls = await makeClass("nd-list", crowd.slice(0, 30));
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < 300; i++) {
      const id = `nd-list-${i}`;
      statements.push(
        env.DB.prepare("INSERT INTO simulations (id, title, created_by, created_at) VALUES (?, ?, 1, ?)").bind(
          id,
          `Lista ${i}`,
          1000 + i,
        ),
        env.DB.prepare(
          `INSERT INTO simulation_subjects (simulation_id, position, subject_id, time_min, question_count, break_after_min)
           VALUES (?1, 0, 1, 45, 31, 15), (?1, 1, 2, 45, 31, 15), (?1, 2, 3, 45, 31, 0)`,
        ).bind(id),
        env.DB.prepare(
          `INSERT INTO simulation_questions (simulation_id, subject_position, position, question_id)
           SELECT ?1, s.pos, q.rn - 1, q.id FROM (SELECT 0 AS pos, 1 AS subject UNION ALL SELECT 1, 2 UNION ALL SELECT 2, 3) s
           JOIN (SELECT id, subject_id, row_number() OVER (PARTITION BY subject_id ORDER BY id) AS rn FROM questions) q
             ON q.subject_id = s.subject AND q.rn <= 31`,
        ).bind(id),
        env.DB.prepare(
          "INSERT INTO simulation_allowed_users (simulation_id, user_id) SELECT ?, value FROM json_each(?)",
        ).bind(id, JSON.stringify(crowd.slice(i, i + 20))),
        env.DB.prepare("INSERT INTO simulation_allowed_classes (simulation_id, class_id) VALUES (?, ?)").bind(id, cls),
      );
    }
    for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200));
    const after = await countList();
    expect(after.list.length).toBeGreaterThanOrEqual(before.list.length + 300);
    expect(after.statements).toBe(before.statements);
    expect(after.trips).toBe(before.trips);
    console.log(
      `admin list: ${after.list.length} simulations, ${after.statements} statements in ${after.trips} round trips`,
    );

    // The same data the list gave before issue 31 (one loadSimulation per simulation, then names).
    const db = getDb(env.DB);
    for (const row of after.list.filter((r) => /^nd-list-(0|7|299)$|^nd-seats$|^nd-2000$/.test(r.id))) {
      const config = (await loadSimulation(db, row.id))!;
      const names = new Map(
        (
          await env.DB.prepare("SELECT id, name, email FROM users WHERE id IN (SELECT value FROM json_each(?))")
            .bind(JSON.stringify(config.allowedUsers))
            .all<{ id: number; name: string | null; email: string }>()
        ).results.map((u) => [u.id, u.name ? `${u.name} (${u.email})` : u.email]),
      );
      expect(row).toEqual({
        id: config.id,
        title: config.title,
        started: config.started,
        startTime: config.startTime,
        graded: config.gradedAt != null,
        createdBy: config.createdBy,
        subjects: config.subjects.map((s) => ({
          subjectId: s.id,
          name: s.name,
          timeMin: s.timeMin,
          breakAfterMin: s.breakAfterMin,
          questionCount: s.questions.length,
          questions: s.questions.map((q) => q.id),
        })),
        allowedUsers: config.allowedUsers,
        allowedClasses: config.allowedClasses,
        allowedUserLabels: config.allowedUsers.map((id) => ({ id, label: names.get(id) })),
        allowedClassLabels: config.allowedClasses.map((id) => ({ id, label: expect.any(String) })),
      });
    }
    // The tab's page renders from the same list.
    const page = await call("GET", "/admin/simulazioni", { token: admin });
    expect(page.status).toBe(200);
    const data = await json<{ simulations: AdminRow[] }>(page);
    expect(data.simulations.map((s) => s.id)).toEqual(after.list.map((s) => s.id));
  });
});

type AdminRow = { id: string } & Record<string, unknown>;

/** The goal: D1 rows read per student over the whole national day (bench/national.ts, NATIONAL_GOALS). */
const DAY_ROWS_GOAL = 200;

describe("a student's whole day", () => {
  it("reads at most 200 D1 rows: the calls, the socket, the grading write and the ranking, with memories", async () => {
    // The bench's meter (the server's own, app/server/db/d1-usage.server.ts): it counts what writes read too (a
    // memory row's key checks), which a replay of the SELECTs cannot see.
    const metered = withD1Usage({ ...env, BENCH_D1_USAGE: "1", DEV_LOGIN: "1" } as Env);
    const rowsOf = async (work: () => Promise<unknown>) => {
      resetD1Usage();
      await work();
      return d1Usage();
    };
    const ok = async (method: string, path: string, token: string, body?: unknown) => {
      const response = await call(method, path, { token, json: body, env: { DB: metered.DB } });
      expect(response.status, `${method} ${path}`).toBeLessThan(300);
      await response.arrayBuffer();
    };
    // 60 students, half listed and half in a class (`listed` and `pupil` among them); the edition's day: 3 × 31.
    const cls = await makeClass("nd-day", [ids.pupil!, ...crowd.slice(2000, 2029)]);
    const listed = [ids.listed!, ...crowd.slice(2030, 2059)];
    const everyone = [...listed, ids.pupil!, ...crowd.slice(2000, 2029)];
    const saved = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: {
        id: "nd-day",
        title: "Giornata nazionale",
        subjects: [2, 4, 1].map((subjectId) => ({ subjectId, timeMin: 1, questionCount: 31, breakAfterMin: 0 })),
        allowedUsers: listed,
        allowedClasses: [cls],
      },
    });
    expect(saved.status).toBe(201);

    const perStudent: Record<string, number> = {};
    const add = (label: string, rows: number) => {
      perStudent[label] = Math.round(((perStudent[label] ?? 0) + rows) * 10) / 10;
    };
    // What each of two students does before the start (the page and the flow), then Avvia (the admin's share). The
    // lobby's plan (sealed for the candidates) is read once per isolate and save, for a minute at most: read it first.
    await call("GET", "/api/simulations/nd-day", { token: admin });
    for (const who of ["listed", "pupil"]) {
      add("page", (await rowsOf(() => ok("GET", "/simulazione?id=nd-day", tokens[who]!))).rowsRead / 2);
      add(
        "flow before the start",
        (await rowsOf(() => ok("GET", "/api/simulations/nd-day", tokens[who]!))).rowsRead / 2,
      );
    }
    // Avvia is the admin's, once per sitting: it reads the audience and the users with an accommodation (the whole
    // test database's users here, ~1 per student at a national day's audience). Printed, not a student's cost.
    const avvia = await rowsOf(() => ok("POST", "/api/admin/simulations/nd-day/start", admin));
    // The started plan is read once per isolate (a room's thousands share it): read it before measuring.
    await call("GET", "/api/simulations/nd-day", { token: admin });
    for (const who of ["listed", "pupil"]) {
      // The socket (and a reconnect, as 30 % of the bench's students do) through the Worker's socket route.
      for (let i = 0; i < 2; i++) {
        const usage = await rowsOf(async () => {
          const response = await routeSimulationSocket(
            new Request("http://localhost/api/simulations/nd-day/ws", {
              headers: { Upgrade: "websocket", Authorization: `Bearer ${tokens[who]}` },
            }),
            metered,
          );
          expect(response?.status).toBe(101);
          response!.webSocket!.accept();
          response!.webSocket!.close(1000, "bye");
        });
        add("socket (connect and one reconnect)", usage.rowsRead / 2);
      }
      // The flow as each subject opens.
      for (let subject = 0; subject < 3; subject++)
        add(
          "flow per subject (3)",
          (await rowsOf(() => ok("GET", "/api/simulations/nd-day", tokens[who]!))).rowsRead / 2,
        );
    }

    // The room's grading write: everyone's attempt and 93 question memories, answers right, wrong and blank.
    const config = (await loadSimulation(getDb(env.DB), "nd-day"))!;
    const keys = answerKeysOf(config);
    expect(keys.flatMap((k) => k.keys)).toHaveLength(93);
    const graded = everyone.map((userId, i) => {
      const answers: Record<string, Record<string, string>> = {};
      for (const subject of keys) {
        const own: Record<string, string> = (answers[String(subject.id)] = {});
        subject.keys.forEach((key, k) => {
          const pick = (i * 31 + k * 7) % 10; // 0: blank, 1-3: wrong, 4-9: right
          if (pick === 0) return;
          const right = key.type === "mc" ? key.options![key.correctIndex!]! : key.accepted![0]!;
          const wrong = key.type === "mc" ? key.options!.find((o) => o !== right)! : "non so";
          own[String(key.id)] = pick <= 3 ? wrong : right;
        });
      }
      return { userId, answers, result: gradeSimulation(keys, answers), timeSec: 150 + (i % 30) };
    });
    const grading = await rowsOf(() => writeGradedAttempts(metered.DB, "nd-day", 0, graded, Date.now(), keys));
    add("grading write (attempt, 93 memories, ranking)", grading.rowsRead / everyone.length);
    expect(await count("question_memory", `user_id = ${ids.pupil}`)).toBe(93);

    // The day is over (the room agrees): the attempt call gets the stored result, then the ranking.
    const over = Date.now() - 3 * 60_000 - SIMULATION_GRACE_MS - 5_000;
    await env.DB.prepare(
      "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id = 'nd-day'",
    )
      .bind(over)
      .run();
    for (const shard of [0])
      await runInDurableObject(roomOf("nd-day", shard), (r: SimulationRoom) => r.shiftStartForTest(over));
    await call("GET", "/api/simulations/nd-day/ranking", { token: admin }); // the top, once per isolate
    for (const who of ["listed", "pupil"]) {
      add(
        "attempt",
        (
          await rowsOf(() =>
            ok("POST", "/api/simulations/nd-day/attempt", tokens[who]!, { answers: {}, timeTaken: 180 }),
          )
        ).rowsRead / 2,
      );
      add("ranking", (await rowsOf(() => ok("GET", "/api/simulations/nd-day/ranking", tokens[who]!))).rowsRead / 2);
    }
    const total = Object.values(perStudent).reduce((a, b) => a + b, 0);
    console.log(`D1 rows read per student over a national day: ${total.toFixed(1)}`, perStudent, {
      "Avvia (admin, once)": avvia.rowsRead,
    });
    if (DEBUG) console.log(JSON.stringify({ avvia: avvia.statements, grading: grading.statements }, null, 1));
    // A memory row costs at most its own write (no key checks of parents): 93 of them within 1.2 rows each.
    expect(perStudent["grading write (attempt, 93 memories, ranking)"]).toBeLessThanOrEqual(93 * 1.2);
    expect(total).toBeLessThanOrEqual(DAY_ROWS_GOAL);
  });
});
