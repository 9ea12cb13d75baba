// One Durable Object per live simulation: holds its WebSocket clients through the hibernation API.
// The exam behaviour (start, clock, autosave, deadlines, grading) is built on this shell.
import { DurableObject } from "cloudflare:workers";

type SocketData = { userId: number; role: string };

type ClientMessage = { type: "ping"; t0?: number };

export class SimulationRoom extends DurableObject<Env> {
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return Response.json({ error: "Questo indirizzo accetta solo connessioni WebSocket." }, { status: 426 });
    }
    const userId = Number(request.headers.get("X-Unicum-User-Id"));
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ userId, role: request.headers.get("X-Unicum-Role") ?? "studente" } satisfies SocketData);
    server.send(JSON.stringify({ type: "hello", serverTime: Date.now() }));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    let parsed: ClientMessage;
    try {
      parsed = JSON.parse(typeof message === "string" ? message : new TextDecoder().decode(message));
    } catch {
      ws.send(JSON.stringify({ type: "error", error: "Messaggio non valido." }));
      return;
    }
    if (parsed.type === "ping") {
      // Clock sync: the client keeps the fastest round trips and derives its offset from serverTime.
      ws.send(JSON.stringify({ type: "pong", t0: parsed.t0 ?? null, serverTime: Date.now() }));
    }
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, "bye");
    } catch {
      // already closed
    }
  }

  connectedUserIds(): number[] {
    return this.ctx.getWebSockets().map((ws) => (ws.deserializeAttachment() as SocketData).userId);
  }
}
