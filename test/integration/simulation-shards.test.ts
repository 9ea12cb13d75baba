// A simulation larger than one room: ceil(allowed / 1,000) rooms "<id>:<shard>", each student's room
// stored at save (simulation_seats, kept at start) and used by every reconnect and by the HTTP attempt; one start instant fanned out to
// all rooms (a room told 2 s late still starts with the others); per-room grading into one ranking.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/server/db/client.server";
import { startSimulation } from "../../app/server/simulation/start.server";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";
import { call, count, json, login, seed } from "./helpers";

type Msg = Record<string, unknown> & { type: string };

let admin: string;
let student: string; // user 1 → room 0 of 2 (seats go round the audience sorted by id)
let friend: string; // user 2 → room 1 of 2
const crowd: number[] = [];

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  student = await login("studente@example.com");
  friend = await login("amico@example.com");
  // 1,000 more students (never connected): with the two demo students, 1,002 allowed → 2 rooms.
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
     INSERT OR IGNORE INTO users (email, name) SELECT 'folla-' || i || '@example.com', 'Folla ' || i FROM n`,
  ).run();
  const rows = await env.DB.prepare(`SELECT id FROM users WHERE email LIKE 'folla-%' ORDER BY id`).all<{
    id: number;
  }>();
  crowd.push(...rows.results.map((r) => r.id));
});

const roomOf = (id: string, shard: number) => env.SIMULATION_ROOM.get(env.SIMULATION_ROOM.idFromName(`${id}:${shard}`));

async function connect(simId: string, token: string) {
  const response = await exports.default.fetch(`http://localhost/api/simulations/${simId}/ws`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const messages: (Msg & { at: number })[] = [];
  ws.addEventListener("message", (event) =>
    messages.push({ ...(JSON.parse(event.data as string) as Msg), at: Date.now() }),
  );
  const next = async (type: string, nth = 0) => {
    await expect.poll(() => messages.filter((m) => m.type === type).length, { timeout: 8000 }).toBeGreaterThan(nth);
    return messages.filter((m) => m.type === type)[nth]!;
  };
  return { ws, messages, next, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

async function createLarge(id: string) {
  const response = await call("POST", "/api/admin/simulations", {
    token: admin,
    json: {
      id,
      title: `Nazionale ${id}`,
      subjects: [{ subjectId: 2, timeMin: 1, questions: [2001, 2002] }],
      allowedUsers: [1, 2, ...crowd],
    },
  });
  expect(response.status).toBe(201);
}

const option = async () =>
  JSON.parse(
    (await env.DB.prepare("SELECT options FROM questions WHERE id = 2001").first<{ options: string }>())!.options,
  )[0] as string;

describe("sharded simulation", () => {
  it("has ceil(allowed / 1,000) rooms; each student's room is stored at save, kept at start, and every reconnect lands in it", async () => {
    await createLarge("naz-rooms");
    const started = await json<{ shards: number }>(
      await call("POST", "/api/admin/simulations/naz-rooms/start", { token: admin }),
    );
    expect(started.shards).toBe(2);
    const stored = await env.DB.prepare(
      "SELECT user_id, shard FROM simulation_seats WHERE simulation_id = 'naz-rooms' AND user_id IN (1, 2)",
    ).all<{ user_id: number; shard: number }>();
    expect(Object.fromEntries(stored.results.map((r) => [r.user_id, r.shard]))).toEqual({ 1: 0, 2: 1 });
    const perShard = await env.DB.prepare(
      "SELECT shard, count(*) AS n FROM simulation_seats WHERE simulation_id = 'naz-rooms' GROUP BY shard",
    ).all<{ shard: number; n: number }>();
    expect(perShard.results.map((r) => r.n)).toEqual([501, 501]);

    for (let round = 0; round < 2; round++) {
      const a = await connect("naz-rooms", student);
      const b = await connect("naz-rooms", friend);
      await a.next("hello");
      await b.next("hello");
      expect(await runInDurableObject(roomOf("naz-rooms", 0), (r: SimulationRoom) => r.connectedUserIds())).toContain(
        1,
      );
      expect(await runInDurableObject(roomOf("naz-rooms", 1), (r: SimulationRoom) => r.connectedUserIds())).toContain(
        2,
      );
      expect(
        await runInDurableObject(roomOf("naz-rooms", 1), (r: SimulationRoom) => r.connectedUserIds()),
      ).not.toContain(1);
      // The admin's live view: one summary over both rooms.
      const live = await json<{
        shards: number;
        rooms: { shard: number; connected: number }[];
        total: { connected: number };
      }>(await call("GET", "/api/admin/simulations/naz-rooms/live", { token: admin }));
      expect(live.shards).toBe(2);
      expect(live.rooms.map((r) => r.connected)).toEqual([1, 1]);
      expect(live.total.connected).toBe(2);
      a.ws.close(1000, "bye");
      b.ws.close(1000, "bye");
      await expect
        .poll(
          async () =>
            (await runInDurableObject(roomOf("naz-rooms", 0), (r: SimulationRoom) => r.connectedUserIds())).length,
        )
        .toBe(0);
    }
  });

  it("fans one startTime out to every room: a room told 2 s late (after the start instant) still starts its clients on the same clock", async () => {
    await createLarge("naz-late");
    const a = await connect("naz-late", student); // room 0: the late room
    const b = await connect("naz-late", friend); // room 1
    await a.next("hello");
    await b.next("hello");
    // The start instant is 0.5 s away; room 0 hears of it 2 s from now, 1.5 s after it.
    const now = Date.now();
    const start = await startSimulation(
      getDb(env.DB),
      env as unknown as Env,
      "naz-late",
      { id: 1, effectiveRole: "admin" },
      now - 3500,
      { delayShard: (shard) => (shard === 0 ? 2000 : 0) },
    );
    const late = await a.next("simulation-start");
    const onTime = await b.next("simulation-start");
    expect(late.startTime).toBe(start.startTime);
    expect(onTime.startTime).toBe(start.startTime);
    expect(onTime.at).toBeLessThan(start.startTime);
    expect(late.at).toBeGreaterThan(start.startTime);
    // The late room takes answers at once (its subject opened with everyone's), and closes at the same deadline.
    a.send({ type: "answer", seq: 1, subjectId: 2, questionId: 2001, value: await option() });
    expect(await a.next("ack")).toMatchObject({ seq: 1, questionId: 2001 });
    const deadlines = await Promise.all(
      [0, 1].map((shard) =>
        runInDurableObject(roomOf("naz-late", shard), async (_r: SimulationRoom, state) => state.storage.getAlarm()),
      ),
    );
    expect(deadlines[0]).toBe(start.startTime + 60_000 + 2000);
    expect(deadlines[1]).toBe(deadlines[0]);
  });

  it("each room grades its own students into D1; the ranking reads across rooms; the simulation is graded once every room is, and only then every room's students hear the end; no double rows", async () => {
    await createLarge("naz-grade");
    await call("POST", "/api/admin/simulations/naz-grade/start", { token: admin });
    const startTime = Date.now() - 1000;
    await env.DB.prepare(
      "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id = 'naz-grade'",
    )
      .bind(startTime)
      .run();
    for (const shard of [0, 1])
      await runInDurableObject(roomOf("naz-grade", shard), (r: SimulationRoom) => r.shiftStartForTest(startTime));
    const a = await connect("naz-grade", student);
    const b = await connect("naz-grade", friend);
    await a.next("hello");
    await b.next("hello");
    const right = await option(); // one option; correct or not, both students give the same answer
    a.send({ type: "answer", seq: 1, subjectId: 2, questionId: 2001, value: right });
    b.send({ type: "answer", seq: 1, subjectId: 2, questionId: 2001, value: right });
    await a.next("ack");
    await b.next("ack");
    const past = Date.now() - 60_000 - 3000;
    await env.DB.prepare(
      "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id = 'naz-grade'",
    )
      .bind(past)
      .run();
    for (const shard of [0, 1])
      await runInDurableObject(roomOf("naz-grade", shard), (r: SimulationRoom) => r.shiftStartForTest(past));

    await runDurableObjectAlarm(roomOf("naz-grade", 0));
    expect(await count("simulation_attempts", "simulation_id = 'naz-grade'")).toBe(1);
    expect(
      (await env.DB.prepare("SELECT graded_at FROM simulations WHERE id = 'naz-grade'").first<{
        graded_at: number | null;
      }>())!.graded_at,
    ).toBeNull();
    // Room 0 has graded, room 1 still writes: nobody is told the end yet (the ranking is not final).
    expect(a.messages.some((m) => m.type === "simulation-end")).toBe(false);
    expect(b.messages.some((m) => m.type === "simulation-end")).toBe(false);

    await runDurableObjectAlarm(roomOf("naz-grade", 1));
    await runInDurableObject(roomOf("naz-grade", 1), (r: SimulationRoom) => r.alarm());
    expect(await count("simulation_attempts", "simulation_id = 'naz-grade'")).toBe(2);
    expect(await count("simulation_rooms", "simulation_id = 'naz-grade'")).toBe(2);
    expect(
      (await env.DB.prepare("SELECT graded_at FROM simulations WHERE id = 'naz-grade'").first<{
        graded_at: number | null;
      }>())!.graded_at,
    ).toBeGreaterThan(0);
    // Room 1's write completes the simulation: it tells both rooms' students.
    expect(await b.next("simulation-end")).toMatchObject({ id: "naz-grade" });
    expect(await a.next("simulation-end")).toMatchObject({ id: "naz-grade" });

    const ranking = await json<{ participants: number; ranking: { userId: number; pos: number }[] }>(
      await call("GET", "/api/simulations/naz-grade/ranking", { token: student }),
    );
    expect(ranking.participants).toBe(2);
    expect(ranking.ranking.map((r) => r.userId).sort()).toEqual([1, 2]);
    // The HTTP attempt goes to the student's own room and returns the stored attempt.
    const mine = await call("POST", "/api/simulations/naz-grade/attempt", {
      token: student,
      json: { answers: {}, timeTaken: 60 },
    });
    expect(mine.status).toBe(200);
    expect(await json(mine)).toMatchObject({ ok: true, result: { subjects: [{ id: 2 }] } });
    expect(await count("simulation_attempts", "simulation_id = 'naz-grade'")).toBe(2);
  });
});
