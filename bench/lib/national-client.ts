// One worker thread of the national bench: a slice of the students, each with its own WebSocket.
// Phases (driven by the main thread): connect + clock sync → wait for the start → one answer at a random
// instant within 10 s of the start → close, reconnect and read the answer back from the room's hello.
import { parentPort, workerData } from "node:worker_threads";
import { estimateClockOffset, type ClockSample } from "../../app/lib/simulation.ts";

type Input = {
  wsUrl: string;
  users: { id: number; cookie: string }[];
  questionId: number;
  subjectId: number;
  value: string;
  answerWindowMs: number;
};
type Client = {
  user: { id: number; cookie: string };
  ws: WebSocket;
  samples: ClockSample[];
  offset?: number;
  startAt?: number;
  startTime?: number;
  sentAt?: number;
  ackAt?: number;
  waiters: Map<string, (m: Record<string, unknown>) => void>;
};

const input = workerData as Input;
const PINGS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

function waitFor(client: Client, type: string, timeout: number): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.waiters.delete(type);
      resolve(null);
    }, timeout);
    client.waiters.set(type, (m) => {
      clearTimeout(timer);
      client.waiters.delete(type);
      resolve(m);
    });
  });
}

function open(user: { id: number; cookie: string }): Promise<Client | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(input.wsUrl, { headers: { cookie: user.cookie } } as unknown as string[]);
    const client: Client = { user, ws, samples: [], waiters: new Map() };
    const timer = setTimeout(() => resolve(null), 120_000);
    ws.onmessage = (event) => {
      const at = performance.now();
      const m = JSON.parse(String(event.data)) as Record<string, unknown>;
      if (m.type === "hello") {
        clearTimeout(timer);
        resolve(client);
      } else if (m.type === "pong")
        client.samples.push({ sentAt: Number(m.t0), receivedAt: at, serverTime: Number(m.serverTime) });
      else if (m.type === "simulation-start") {
        client.startAt = Date.now();
        client.startTime = Number(m.startTime);
      } else if (m.type === "ack") client.ackAt = at;
      client.waiters.get(String(m.type))?.(m);
    };
    ws.onerror = () => {
      clearTimeout(timer);
      resolve(null);
    };
  });
}

let clients: Client[] = [];

async function connectAll() {
  const opened: (Client | null)[] = [];
  await pool(input.users, 25, async (u) => {
    opened.push(await open(u));
  });
  clients = opened.filter((c): c is Client => c !== null);
  // Clock sync on arrival: PINGS round trips each (as the browser does when its socket opens).
  await pool(clients, 50, syncClock);
  return { connected: clients.length };
}

/** PINGS round trips; the offset from the fastest 3 of the last 12 samples (the browser's rule). */
async function syncClock(c: Client) {
  for (let i = 0; i < PINGS; i++) {
    const pong = waitFor(c, "pong", 20_000);
    c.ws.send(JSON.stringify({ type: "ping", t0: performance.now() }));
    if (!(await pong)) break;
  }
  c.samples = c.samples.slice(-12);
  c.offset = estimateClockOffset(c.samples, 3)?.offset;
}

/**
 * The browser syncs again every 30 s; the bench does it once more after every thread has connected, so
 * the estimate is not only made in the middle of 6,000 arriving connections. Returns each client's error.
 */
async function resyncAll() {
  await pool(clients, 25, syncClock);
  // Same machine: the true offset is this thread's Date.now() − performance.now().
  const trueOffset = Date.now() - performance.now();
  return { offsetErrors: clients.filter((c) => c.offset !== undefined).map((c) => Math.abs(c.offset! - trueOffset)) };
}

async function answerAll() {
  const deadline = Date.now() + 90_000;
  while (clients.some((c) => c.startTime === undefined) && Date.now() < deadline) await sleep(50);
  const acks = clients.map(async (c) => {
    if (c.startTime === undefined || c.offset === undefined) return;
    // A random instant within the answer window after the start, on the client's own server clock.
    const at = c.startTime + 200 + Math.random() * input.answerWindowMs;
    await sleep(Math.max(0, at - (performance.now() + c.offset)));
    const ack = waitFor(c, "ack", 60_000);
    c.sentAt = performance.now();
    c.ws.send(
      JSON.stringify({
        type: "answer",
        seq: 1,
        subjectId: input.subjectId,
        questionId: input.questionId,
        value: input.value,
      }),
    );
    await ack;
  });
  await Promise.all(acks);
  const acked = clients.filter((c) => c.ackAt !== undefined);
  return {
    startReceipts: clients.filter((c) => c.startAt !== undefined).map((c) => c.startAt!),
    startTime: clients.find((c) => c.startTime !== undefined)?.startTime ?? null,
    acked: acked.length,
    ackLatencies: acked.map((c) => c.ackAt! - c.sentAt!),
  };
}

async function readBackAll() {
  for (const c of clients) c.ws.close(1000, "bench");
  await sleep(500);
  let readBack = 0;
  await pool(input.users, 25, async (u) => {
    const again = await new Promise<Record<string, unknown> | null>((resolve) => {
      const ws = new WebSocket(input.wsUrl, { headers: { cookie: u.cookie } } as unknown as string[]);
      const timer = setTimeout(() => resolve(null), 60_000);
      ws.onmessage = (event) => {
        const m = JSON.parse(String(event.data));
        if (m.type === "hello") {
          clearTimeout(timer);
          ws.close(1000, "bench");
          resolve(m);
        }
      };
      ws.onerror = () => resolve(null);
    });
    const answers = again?.answers as Record<string, Record<string, string>> | undefined;
    if (answers?.[String(input.subjectId)]?.[String(input.questionId)] === input.value) readBack++;
  });
  return { readBack };
}

parentPort!.on("message", async (command: string) => {
  if (command === "connect") parentPort!.postMessage({ phase: "connected", ...(await connectAll()) });
  else if (command === "resync") parentPort!.postMessage({ phase: "resynced", ...(await resyncAll()) });
  else if (command === "answer") parentPort!.postMessage({ phase: "answered", ...(await answerAll()) });
  else if (command === "read-back") parentPort!.postMessage({ phase: "read-back", ...(await readBackAll()) });
});
