// A student's socket to a simulation room, through the Worker's own socket route, for the integration tests.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";

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
