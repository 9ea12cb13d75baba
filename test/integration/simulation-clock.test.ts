// The room's clock hook for the browser tests (POST /api/admin/simulations/{id}/clock, issue 33): live only with the
// development sign-in, it moves a started simulation's start back in D1 and in its room, and the room tells the
// connected candidates, so a subject closes as if its minutes had passed. Everywhere else it is a 404 that changes
// nothing.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { connectRoom } from "./room-socket";
import { call, json, login, seed } from "./helpers";

let admin: string;
let student: string;

beforeAll(async () => {
  await seed();
  [admin, student] = await Promise.all([login("admin@example.com"), login("studente@example.com")]);
});

async function createSimulation(id: string) {
  const created = await call("POST", "/api/admin/simulations", {
    token: admin,
    json: {
      id,
      title: `Orologio ${id}`,
      subjects: [{ subjectId: 2, timeMin: 30, questions: [2001] }],
      allowedUsers: [1],
    },
  });
  expect(created.status).toBe(201);
}

const startOf = async (id: string) =>
  (await env.DB.prepare("SELECT start_time AS t FROM simulations WHERE id = ?").bind(id).first<{ t: number | null }>())
    ?.t ?? null;

describe("the room's clock hook", () => {
  it("moves a started simulation's start back in D1 and in the room, which tells its candidates and closes the subject", async () => {
    const id = `orologio-${Date.now()}`;
    await createSimulation(id);
    const socket = await connectRoom(id, student);
    await socket.next("hello");
    const started = await call("POST", `/api/admin/simulations/${id}/start`, { token: admin });
    expect(started.status).toBe(200);
    const { startTime } = await json<{ startTime: number }>(started);
    await socket.next("simulation-start");

    // Thirty minutes and a few seconds pass at once: the subject (and the grace) is over.
    const aheadMs = 30 * 60_000 + 5_000;
    const moved = await call("POST", `/api/admin/simulations/${id}/clock`, { token: admin, json: { aheadMs } });
    expect(moved.status).toBe(200);
    expect(await json(moved)).toEqual({ id, startTime: startTime - aheadMs });
    expect(await startOf(id)).toBe(startTime - aheadMs);
    await socket.next("simulation-start", (m) => m.startTime === startTime - aheadMs);
    // The room's deadline has passed: it closes the subject and grades.
    await socket.next("simulation-end");
    socket.ws.close();
  });

  it("is a 404 without the development sign-in, and moves nothing", async () => {
    const id = `orologio-spento-${Date.now()}`;
    await createSimulation(id);
    expect((await call("POST", `/api/admin/simulations/${id}/start`, { token: admin })).status).toBe(200);
    const before = await startOf(id);
    const refused = await call("POST", `/api/admin/simulations/${id}/clock`, {
      token: admin,
      json: { aheadMs: 60_000 },
      env: { DEV_LOGIN: undefined },
    });
    expect(refused.status).toBe(404);
    expect((await json(refused)).error).toBe("Indirizzo non trovato.");
    expect(await startOf(id)).toBe(before);
  });

  it("refuses, in Italian and changing nothing: a student, a bad amount, an unknown or not yet started simulation", async () => {
    const id = `orologio-fermo-${Date.now()}`;
    await createSimulation(id);
    const clock = (token: string, simId: string, body: unknown) =>
      call("POST", `/api/admin/simulations/${simId}/clock`, { token, json: body });
    expect((await clock(student, id, { aheadMs: 1000 })).status).toBe(403);
    for (const body of [{}, { aheadMs: 0 }, { aheadMs: -5 }, { aheadMs: 1.5 }, { aheadMs: "tanto" }]) {
      const bad = await clock(admin, id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect((await json(bad)).error).toMatch(/Anticipo/);
    }
    expect((await clock(admin, "non-esiste", { aheadMs: 1000 })).status).toBe(404);
    const early = await clock(admin, id, { aheadMs: 1000 });
    expect(early.status).toBe(409);
    expect((await json(early)).error).toBe("La simulazione non è ancora iniziata.");
    expect(await startOf(id)).toBeNull();
  });
});
