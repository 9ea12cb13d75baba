// A student's socket to a simulation room, through the Worker's own socket route, and the room itself, for the
// integration tests.
import { env, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";

/** A room of a simulation (a class-sized simulation has one room, "<id>:0"). */
export const roomOf = (id: string, shard = 0) =>
  env.SIMULATION_ROOM.get(env.SIMULATION_ROOM.idFromName(`${id}:${shard}`));

/**
 * Moves the start instant in D1 and in room 0, so that a test does not wait for real minutes; the stored timeline
 * (the sitting's end and its seal's lift) moves with it, as the development clock hook moves it.
 */
export async function moveStart(id: string, startTime: number) {
  await env.DB.prepare(
    `UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time),
       start_time = ?1 WHERE id = ?2`,
  )
    .bind(startTime, id)
    .run();
  await runInDurableObject(roomOf(id), async (room: SimulationRoom) => room.shiftStartForTest(startTime));
}

export type RoomMessage = Record<string, unknown> & { type: string };

/** Opens the socket (it must upgrade) and gives a way to wait for a message of a type, and to send one. */
export async function connectRoom(simId: string, token: string) {
  const response = await exports.default.fetch(`http://localhost/api/simulations/${simId}/ws`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const messages: RoomMessage[] = [];
  ws.addEventListener("message", (event) => {
    messages.push(JSON.parse(event.data as string) as RoomMessage);
  });
  const next = async (type: string, where: (m: RoomMessage) => boolean = () => true) => {
    for (let i = 0; i < 100; i++) {
      const found = messages.find((m) => m.type === type && where(m));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${type} message`);
  };
  return { ws, next, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}
