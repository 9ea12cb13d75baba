// BENCH_ONLY=reconnect: what one candidate's reconnect costs the server, against the floor of any room (issue 31).
//
// The national day's reconnect wave is the one moment that saturates the server here: every Durable Object and the
// Worker run on workerd's one thread on this machine. A queue model of that day (README, the sixth pass) puts the
// wave's ack p99 under 300 ms only when a reconnect costs the server about 1.5 ms or less. This suite measures both
// sides of that number with the same client and the same traffic, in one run:
//   app    the production build (bench/lib/direct-server.ts): RECONNECT_CLIENTS candidates of one started room, each
//          with RECONNECT_ANSWERS saved answers; then, RECONNECT_ROUNDS times (default 6, alternating with the floor's
//          waves), every socket closes (1000, as a network blip) and opens again with its resume token, as the runner
//          does, and sends one answer, and waits for its ack;
//   floor  bench/fixtures/floor-room.js on its own workerd: a Worker and a hibernating room that only route the upgrade,
//          accept the socket, read the answers from SQLite, send a hello of the same size and store and ack the answer.
// The figure is workerd's CPU time (its process, every thread) per reconnect, and the app's ratio to the floor; the
// measure itself is bench/lib/reconnect-cost.ts (BENCH_ONLY=room takes it too).
import { writeFileSync } from "node:fs";
import { failedHandshakes, RECONNECT_ROUNDS as ROUNDS, reconnectCost, refused } from "./lib/reconnect-cost.ts";
import { floorInspectorPort } from "./lib/reconnect-floor.ts";
import type { LocalServer } from "./lib/server.ts";
import { percentile } from "./lib/stats.ts";

const CLIENTS = Number(process.env.RECONNECT_CLIENTS ?? 1000);
const ANSWERS = Number(process.env.RECONNECT_ANSWERS ?? 20);

/** What one answer (its write and its ack) costs workerd's thread, measured between the national bench's waves. */
const ACK_MS = 0.27;

/**
 * The national day's wave on one workerd thread, as a queue (first come, first served): the ack p99 over the day that
 * a reconnect costing `reconnectMs` of that thread would give, counting the server's queue only (the clients' own
 * share of latency comes on top). The day's shape is the national bench's (bench/national.ts, 6,000 students): 3
 * subjects of 2 min with ~1,500 answers a second, each costing the thread ~0.27 ms (workerd at 0.4 core between
 * waves, measured with a per-thread sampler beside the runs of 26 Nov 2026); 30 % of the students drop their socket
 * within 2 s mid-subject 2 and reconnect 0.5–1.5 s later (the runner's first retry).
 */
export function modelledWaveP99(reconnectMs: number, seed = 1) {
  const ACKS_PER_S = 1500;
  const DAY_S = 360;
  const RECONNECTS = 1800;
  const WAVE_AT_S = 240;
  let state = seed >>> 0;
  const random = () => {
    // mulberry32: a seeded generator, so the figure is the same in every run
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const work: { at: number; ms: number; ack: boolean }[] = [];
  for (let at = 0; at < DAY_S; ) {
    at += -Math.log(1 - random()) / ACKS_PER_S;
    work.push({ at, ms: ACK_MS, ack: true });
  }
  for (let i = 0; i < RECONNECTS; i++)
    work.push({ at: WAVE_AT_S + random() * 2 + 0.5 + random(), ms: reconnectMs, ack: false });
  work.sort((a, b) => a.at - b.at);
  let free = 0;
  const latencies: number[] = [];
  for (const w of work) {
    free = Math.max(free, w.at) + w.ms / 1000;
    if (w.ack) latencies.push((free - w.at) * 1000);
  }
  latencies.sort((a, b) => a - b);
  return {
    p99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)]!),
    over300: latencies.filter((l) => l > 300).length,
  };
}

/**
 * RECONNECT_PROFILE=FILE with BENCH_INSPECTOR_PORT: V8 CPU profiles over the waves (open them in Chrome's DevTools),
 * taken through workerd's inspector: the app's Worker in FILE, the floor's in FILE with ".floor" before its extension.
 */
async function profiler(side: "app" | "floor"): Promise<{ stop: () => Promise<void> } | null> {
  const appFile = process.env.RECONNECT_PROFILE;
  const port = side === "app" ? process.env.BENCH_INSPECTOR_PORT : floorInspectorPort();
  if (!appFile || !port) return null;
  const file = side === "app" ? appFile : appFile.replace(/(\.[^./]+)?$/, ".floor$1");
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((r) => (ws.onopen = r));
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (m.id) pending.get(m.id)?.(m.result);
  };
  const call = (method: string, params = {}) =>
    new Promise<unknown>((r) => {
      pending.set(++id, r);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  await call("Profiler.start");
  return {
    stop: async () => {
      const { profile } = (await call("Profiler.stop")) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
      ws.close();
      console.log(`CPU profile of the ${side}'s waves: ${file}`);
    },
  };
}

export async function benchReconnect(server: LocalServer) {
  console.log(
    `Reconnect cost: ${CLIENTS} candidates of one room, ${ANSWERS} saved answers each; ${ROUNDS} waves of close, ` +
      "reopen with the resume token, one answer and its ack",
  );
  const { appMs, floorMs, bareFloorMs } = await reconnectCost(
    server,
    { clients: CLIENTS, answers: ANSWERS },
    { profiler },
  );
  const appMedian = percentile(appMs, 50);
  const floorMedian = percentile(floorMs, 50);
  const bareFloorMedian = percentile(bareFloorMs, 50);
  const r2 = (n: number) => Math.round(n * 100) / 100;
  const result = {
    clients: CLIENTS,
    savedAnswers: ANSWERS,
    appMsPerReconnect: r2(appMedian),
    floorMsPerReconnect: r2(floorMedian),
    appOverFloor: r2(appMedian / floorMedian),
    bareFloorMsPerReconnect: r2(bareFloorMedian),
    appOverBareFloor: r2(appMedian / bareFloorMedian),
    appWaves: appMs.map(r2),
    floorWaves: floorMs.map(r2),
    bareFloorWaves: bareFloorMs.map(r2),
    // The waves measured here include one answer per reconnect (its write and ack): the model counts answers apart.
    modelDayAckP99MsAtApp: modelledWaveP99(appMedian - ACK_MS).p99Ms,
    modelDayAckP99MsAtFloor: modelledWaveP99(floorMedian - ACK_MS).p99Ms,
    failedHandshakes,
  };
  console.table([result]);
  if (refused.size) throw new Error(`answers refused: ${JSON.stringify(Object.fromEntries(refused))}`);
  return result;
}
