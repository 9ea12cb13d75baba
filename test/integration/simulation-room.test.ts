import { exports } from "cloudflare:workers";
import { describe, expect, it, beforeAll } from "vitest";
import { login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
});

function open(path: string, token?: string) {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return exports.default.fetch(`http://localhost${path}`, { headers });
}

describe("SimulationRoom socket", () => {
  it("accepts a signed-in user's WebSocket and answers a time-sync ping with its clock", async () => {
    const token = await login("studente@example.com");
    const response = await open("/api/simulations/demo-sim/ws", token);
    expect(response.status).toBe(101);
    const ws = response.webSocket!;
    ws.accept();
    const messages: Record<string, unknown>[] = [];
    const got = new Promise<void>((resolve) => {
      ws.addEventListener("message", (event) => {
        messages.push(JSON.parse(event.data as string));
        if (messages.some((m) => m.type === "pong")) resolve();
      });
    });
    const before = Date.now();
    ws.send(JSON.stringify({ type: "ping", t0: 123 }));
    await got;
    const pong = messages.find((m) => m.type === "pong")!;
    expect(pong.t0).toBe(123);
    expect(Number(pong.serverTime)).toBeGreaterThanOrEqual(before - 5);
    ws.close(1000, "done");
  });

  it("refuses a socket without a session (401) and a plain HTTP request (426)", async () => {
    expect((await open("/api/simulations/demo-sim/ws")).status).toBe(401);
    const token = await login("studente@example.com");
    const plain = await exports.default.fetch("http://localhost/api/simulations/demo-sim/ws", { headers: { Authorization: `Bearer ${token}` } });
    expect(plain.status).toBe(426);
  });
});
