// Load on one SimulationRoom over loopback: N WebSocket clients (N = 500 and 2,000 by default;
// SIM_BENCH_SIZES=100,500 to change), each signed in as its own user. Prints, per N: connect time,
// spread of start receipt (receipt − startTime), clock-offset error p95 after the ping sync, the
// workerd memory growth per client, and one autosaved answer per client: acknowledged, then read
// back after a reconnect (none lost). Bounded: every phase has a deadline; what completes is reported.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { estimateClockOffset, type ClockSample } from "../app/lib/simulation.ts";
import { BENCH_STATE, devCookie, type LocalServer } from "./lib/server.ts";
import { percentile } from "./lib/stats.ts";

const SIZES = (process.env.SIM_BENCH_SIZES ?? "500,2000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0 && n <= 5000);
const PHASE_DEADLINE_MS = 120_000;
const LOGIN_CONCURRENCY = 8;
const PINGS = 5;
const QUESTION_ID = 2001; // Chimica, multiple choice

type Client = {
  ws: WebSocket;
  userId: number;
  samples: ClockSample[];
  helloAt?: number;
  startReceivedAt?: number;
  startTime?: number;
  offset?: number;
  ackAt?: number;
  answerSentAt?: number;
  waiters: Map<string, (m: Record<string, unknown>) => void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident memory (KB) of this worktree's workerd processes (the production server's runtime). */
function workerdRssKb(): number {
  const cwd = process.cwd();
  let total = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      if (comm !== "workerd" || readlinkSync(`/proc/${pid}/cwd`) !== cwd) continue;
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += Number(rss?.[1] ?? 0);
    } catch {
      // process gone
    }
  }
  return total;
}

/** Creates the bench users in the bench database (loopback state only) and signs each in. */
async function prepareUsers(baseUrl: string, count: number) {
  const state = BENCH_STATE;
  const values = Array.from({ length: count }, (_, i) => `('bench-${i}@example.com', 'Bench ${i}')`).join(",\n");
  const file = join(tmpdir(), `unicum-bench-users-${process.pid}.sql`);
  writeFileSync(file, `INSERT OR IGNORE INTO users (email, name) VALUES\n${values};`);
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", state, "--file", file],
    {
      stdio: "ignore",
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    },
  );
  rmSync(file, { force: true });
  const users: { id: number; cookie: string }[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: LOGIN_CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const response = await fetch(`${baseUrl}/api/auth/dev`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: `bench-${i}@example.com` }),
        });
        if (!response.ok) throw new Error(`bench login ${i}: ${response.status}`);
        const body = (await response.json()) as { user: { id: number } };
        users[i] = { id: body.user.id, cookie: response.headers.get("set-cookie")!.split(";")[0]! };
      }
    }),
  );
  return users;
}

function openClient(wsUrl: string, user: { id: number; cookie: string }): Promise<Client | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl, { headers: { cookie: user.cookie } } as unknown as string[]);
    const client: Client = { ws, userId: user.id, samples: [], waiters: new Map() };
    const timer = setTimeout(() => resolve(null), PHASE_DEADLINE_MS);
    ws.onmessage = (event) => {
      const at = performance.now();
      const m = JSON.parse(String(event.data)) as Record<string, unknown>;
      if (m.type === "hello") {
        client.helloAt = at;
        clearTimeout(timer);
        resolve(client);
      } else if (m.type === "pong") {
        client.samples.push({ sentAt: Number(m.t0), receivedAt: at, serverTime: Number(m.serverTime) });
      } else if (m.type === "simulation-start") {
        client.startReceivedAt = Date.now();
        client.startTime = Number(m.startTime);
      } else if (m.type === "ack") {
        client.ackAt = at;
      }
      client.waiters.get(String(m.type))?.(m);
      if (m.type === "hello") client.waiters.delete("hello");
    };
    ws.onerror = () => {
      clearTimeout(timer);
      resolve(null);
    };
  });
}

function waitFor(client: Client, type: string, timeout = 30_000): Promise<Record<string, unknown> | null> {
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

async function syncClock(client: Client) {
  for (let i = 0; i < PINGS; i++) {
    const pong = waitFor(client, "pong", 20_000);
    client.ws.send(JSON.stringify({ type: "ping", t0: performance.now() }));
    if (!(await pong)) return;
  }
  client.offset = estimateClockOffset(client.samples, 3)?.offset;
}

/** Runs `fn` over items with bounded concurrency. */
async function pool<T, R>(items: T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");

export async function benchSimulation(server: LocalServer) {
  const { baseUrl } = server;
  const max = Math.max(...SIZES);
  console.log(`\nSimulation room: preparing ${max} bench users…`);
  const users = await prepareUsers(baseUrl, max);
  const admin = await devCookie(baseUrl, "admin@example.com");
  const rows: Record<string, string | number>[] = [];

  for (const n of SIZES) {
    const simId = `bench-${n}-${Date.now()}`;
    const created = await fetch(`${baseUrl}/api/admin/simulations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", cookie: admin },
      body: JSON.stringify({
        id: simId,
        title: `Bench ${n}`,
        subjects: [{ subjectId: 2, timeMin: 1, questions: [QUESTION_ID] }],
        allowedUsers: users.slice(0, n).map((u) => u.id),
      }),
    });
    if (!created.ok) throw new Error(`create simulation: ${created.status} ${await created.text()}`);
    const wsUrl = `${baseUrl.replace(/^http/, "ws")}/api/simulations/${simId}/ws`;
    const rssBefore = workerdRssKb();

    // 1. Connect N clients (bounded concurrency, as a class arriving within seconds).
    const t0 = performance.now();
    const opened = await pool(users.slice(0, n), 50, (u) => openClient(wsUrl, u));
    const clients = opened.filter((c): c is Client => c !== null);
    const connectSec = (performance.now() - t0) / 1000;
    await sleep(1000);
    const rssAfter = workerdRssKb();

    // 2. Clock sync: each client's offset error against the true one (same machine: serverTime = Date.now()).
    await pool(clients, 100, syncClock);
    const trueOffset = Date.now() - performance.now();
    const offsetErrors = clients.filter((c) => c.offset !== undefined).map((c) => Math.abs(c.offset! - trueOffset));

    // 3. Start: receipt of simulation-start relative to the announced startTime.
    const starts = clients.map((c) => waitFor(c, "simulation-start", 30_000));
    const startResponse = await fetch(`${baseUrl}/api/admin/simulations/${simId}/start`, {
      method: "POST",
      headers: { cookie: admin },
    });
    if (!startResponse.ok) throw new Error(`start: ${startResponse.status}`);
    await Promise.all(starts);
    const got = clients.filter((c) => c.startReceivedAt !== undefined);
    const receipt = got.map((c) => c.startReceivedAt! - c.startTime!);
    const startTime = got[0]?.startTime ?? Date.now();
    const spread = got.length
      ? Math.max(...got.map((c) => c.startReceivedAt!)) - Math.min(...got.map((c) => c.startReceivedAt!))
      : NaN;

    // 4. Autosave: after the start, every client sends one answer at once; count acknowledgements.
    await sleep(Math.max(0, startTime - Date.now() + 200));
    const option = "30"; // an option of question 2001 (any valid option is stored)
    const acks = clients.map((c) => waitFor(c, "ack", 60_000));
    for (const c of clients) {
      c.answerSentAt = performance.now();
      c.ws.send(JSON.stringify({ type: "answer", seq: 1, subjectId: 2, questionId: QUESTION_ID, value: option }));
    }
    await Promise.all(acks);
    const acked = clients.filter((c) => c.ackAt !== undefined);
    const ackLatency = acked.map((c) => c.ackAt! - c.answerSentAt!);

    // 5. None lost: close every socket, reconnect each user, and read its answer back from the hello.
    for (const c of clients) c.ws.close(1000, "bench");
    await sleep(500);
    let readBack = 0;
    await pool(users.slice(0, n), 50, async (u) => {
      const again = await new Promise<Record<string, unknown> | null>((resolve) => {
        const ws = new WebSocket(wsUrl, { headers: { cookie: u.cookie } } as unknown as string[]);
        const timer = setTimeout(() => resolve(null), 30_000);
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
      if (answers?.["2"]?.[String(QUESTION_ID)] === option) readBack++;
    });

    await fetch(`${baseUrl}/api/admin/simulations/${simId}`, { method: "DELETE", headers: { cookie: admin } });
    rows.push({
      N: n,
      connected: clients.length,
      "connect s": f1(connectSec),
      "start recv p50 (ms vs startTime)": f1(percentile(receipt, 50)),
      "start recv p99": f1(percentile(receipt, 99)),
      "start recv spread ms": f1(spread),
      "offset err p95 ms": f1(percentile(offsetErrors, 95)),
      "workerd KB/client": f1((rssAfter - rssBefore) / Math.max(1, clients.length)),
      acked: `${acked.length}/${clients.length}`,
      "ack p50 ms": f1(percentile(ackLatency, 50)),
      "ack p99 ms": f1(percentile(ackLatency, 99)),
      "read back": `${readBack}/${n}`,
    });
    console.log(rows[rows.length - 1]);
    await sleep(2000);
  }
  console.log(
    "\nSimulation room over loopback (one room, N clients; start receipt is negative when it arrives before the start):",
  );
  console.table(rows);
  return rows;
}
