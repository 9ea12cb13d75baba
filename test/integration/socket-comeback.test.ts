// A room that cannot take a socket now (issue 45): the socket route answers with a socket closed as the protocol's
// server close, naming the window to come back over (1013 for an overloaded room, 1012 for one restarting), so a
// sitting whose room is busy or being released comes back spread over that window instead of retrying at once;
// any other failure of the room stays a 500.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ReconnectBackoff } from "~/lib/runner-timing";
import { comebackWindowOf } from "~/lib/simulation-protocol";
import { signResume } from "../../app/server/simulation/room-resume.server";
import { OVERLOAD_COMEBACK_MS, RESTART_COMEBACK_MS, routeSimulationSocket } from "../../workers/simulation-socket";

/** The rooms' namespace, with every room failing as `error` (the runtime's own errors carry these flags). */
function failingRooms(error: Error): Env["SIMULATION_ROOM"] {
  return {
    idFromName: (name: string) => env.SIMULATION_ROOM.idFromName(name),
    get: () => ({
      fetch: async () => {
        throw error;
      },
    }),
  } as unknown as Env["SIMULATION_ROOM"];
}

/** A reconnect with a valid resume token (no D1) to a room failing as `error`: the answer and, for a socket, its close. */
async function reconnectWhileRoomFails(error: Error) {
  const claims = { userId: 1, role: "studente", simulationId: "rientro", shard: 0, startTime: Date.now() };
  const token = await signResume(env.SESSION_SECRET!, claims, Date.now() + 60_000);
  const request = new Request(`http://localhost/api/simulations/rientro/ws?resume=${encodeURIComponent(token)}`, {
    headers: { Upgrade: "websocket" },
  });
  const rooms: Env = Object.create(env, { SIMULATION_ROOM: { value: failingRooms(error) } });
  const response = (await routeSimulationSocket(request, rooms))!;
  const ws = response.webSocket;
  if (!ws) return { status: response.status, close: null };
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
  );
  ws.accept();
  return { status: response.status, close: await closed };
}

describe("a room that cannot take a socket now", () => {
  it("sends the browser back within the window the route names: 10 s when overloaded, 5 s when restarting", async () => {
    const overloaded = await reconnectWhileRoomFails(Object.assign(new Error("overloaded"), { overloaded: true }));
    expect(overloaded.status).toBe(101);
    expect(overloaded.close!.code).toBe(1013);
    expect(comebackWindowOf(overloaded.close!.code, overloaded.close!.reason)).toBe(OVERLOAD_COMEBACK_MS);
    const { delayMs } = new ReconnectBackoff().afterClose(overloaded.close!.code, overloaded.close!.reason, 0);
    expect(delayMs).toBeLessThan(OVERLOAD_COMEBACK_MS);

    const restarting = await reconnectWhileRoomFails(Object.assign(new Error("reset"), { retryable: true }));
    expect(restarting.close!.code).toBe(1012);
    expect(comebackWindowOf(restarting.close!.code, restarting.close!.reason)).toBe(RESTART_COMEBACK_MS);
  });

  it("stays a 500 for any other failure of the room", async () => {
    const broken = await reconnectWhileRoomFails(new Error("bug"));
    expect(broken).toEqual({ status: 500, close: null });
  });
});
