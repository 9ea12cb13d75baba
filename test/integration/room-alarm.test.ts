// A room's next opening or deadline after a restart (issue 45): each new instance arms it itself from its plan, whatever
// alarm its storage says is set. A release hands the room's storage to a process whose scheduler may never have seen
// that alarm (the room bench's deploy: subject 3 never opened and the grading waited for the candidates' calls); here a
// stale alarm an hour away stands for it, and the fresh instance must replace it with the subject's real deadline.
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SIMULATION_GRACE_MS } from "~/lib/constants";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";
import { call, login, seed } from "./helpers";
import { moveStart, roomOf } from "./room-socket";

let admin: string;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
});

describe("a room's alarm after a restart", () => {
  it("is armed by the new instance at the plan's next deadline, not left at what its storage held", async () => {
    const id = `rearm-${Date.now()}`;
    const created = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: { id, title: "Riarmo", subjects: [{ subjectId: 2, timeMin: 1, questionCount: 3 }], allowedUsers: [1] },
    });
    expect(created.status).toBe(201);
    expect((await call("POST", `/api/admin/simulations/${id}/start`, { token: admin })).status).toBe(200);
    const startTime = Date.now() - 1000;
    await moveStart(id, startTime);
    const deadline = startTime + 60_000 + SIMULATION_GRACE_MS;
    const room = roomOf(id);
    expect(await runInDurableObject(room, (_r, state) => state.storage.getAlarm())).toBe(deadline);

    // What a process that never saw the real alarm would wait for.
    const stale = Date.now() + 3_600_000;
    await runInDurableObject(room, (_r, state) => state.storage.setAlarm(stale));
    await evictDurableObject(room);

    // The fresh instance's first wake-up (the teacher's live view here; a socket or a message does the same).
    await runInDurableObject(room, (r: SimulationRoom) => r.live());
    await expect.poll(() => runInDurableObject(room, (_r, state) => state.storage.getAlarm())).toBe(deadline);
  });
});
