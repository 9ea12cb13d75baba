// BENCH_ONLY=reconnect: what one candidate's reconnect costs the server, against the floor of any room (issue 31).
//
// The national day's reconnect wave is the one moment that saturates the server here: every Durable Object and the
// Worker run on workerd's one thread on this machine. A queue model of that day (README, the sixth pass) puts the
// wave's ack p99 under 300 ms only when a reconnect costs the server about 1.5 ms or less. This suite measures both
// sides of that number with the same client and the same traffic, in one run:
//   app    the production build (bench/lib/direct-server.ts): RECONNECT_CLIENTS candidates of one started room, each
//          with RECONNECT_ANSWERS saved answers; then, three times, every socket closes (1000, as a network blip) and
//          opens again with its resume token, as the runner does, and sends one answer, and waits for its ack;
//   floor  bench/fixtures/floor-room.js on its own workerd: a Worker and a hibernating room that only route the upgrade,
//          accept the socket, read the answers from SQLite, send a hello of the same size and store and ack the answer.
// The figure is workerd's CPU time (its process, every thread) per reconnect, and the app's ratio to the floor.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { adminJson, answerKeys, type Key, prepareStudents, type Student } from "./national.ts";
import { BENCH_STATE, devCookie, type LocalServer } from "./lib/server.ts";
import { percentile } from "./lib/stats.ts";

const CLIENTS = Number(process.env.RECONNECT_CLIENTS ?? 1000);
const ANSWERS = Number(process.env.RECONNECT_ANSWERS ?? 20);
const ROUNDS = 3;
const BATCH = 50;
const CLK_TCK = 100;

/** The workerd processes under `pid` (its children and theirs). */
function workerdUnder(pid: number): number[] {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      comm.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parent.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // gone
    }
  }
  const under = (p: number) => {
    for (let q = parent.get(p); q; q = parent.get(q)) if (q === pid) return true;
    return false;
  };
  return [...comm].filter(([p, name]) => name === "workerd" && under(p)).map(([p]) => p);
}

/** CPU seconds a process has used (user + system, every thread). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Answers the room refused, by reason: the figures count only if there are none. */
const refused = new Map<string, number>();

type Socket = { ws: WebSocket; resume?: string; seq: number; acks: Map<number, () => void> };
type Target = {
  url: (client: number, resume?: string) => string;
  headers: (client: number) => Record<string, string>;
  answer: (client: number, k: number) => { subjectId: number; questionId: number; value: string };
};

/** Opens a socket and resolves at its hello (keeping the resume token of any message). */
function open(target: Target, client: number, resume?: string): Promise<Socket> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(target.url(client, resume), { headers: target.headers(client) } as unknown as string[]);
    const socket: Socket = { ws, resume, seq: 0, acks: new Map() };
    const timer = setTimeout(() => fail(new Error(`client ${client}: no hello in 60 s`)), 60_000);
    ws.onmessage = (event) => {
      const m = JSON.parse(String(event.data)) as { type: string; seq?: number; resume?: string; error?: string };
      if (typeof m.resume === "string") socket.resume = m.resume;
      if (m.type === "hello") {
        clearTimeout(timer);
        done(socket);
      } else if (m.type === "ack" || m.type === "rejected") {
        if (m.type === "rejected") refused.set(String(m.error), (refused.get(String(m.error)) ?? 0) + 1);
        socket.acks.get(Number(m.seq))?.();
        socket.acks.delete(Number(m.seq));
      }
    };
    ws.onerror = () => fail(new Error(`client ${client}: socket error`));
  });
}

function send(target: Target, socket: Socket, client: number, k: number): Promise<void> {
  const seq = ++socket.seq;
  return new Promise((acked, fail) => {
    // A socket the server closed never acks: fail the run instead of waiting for ever.
    const timer = setTimeout(() => fail(new Error(`client ${client}: no ack in 60 s`)), 60_000);
    socket.acks.set(seq, () => {
      clearTimeout(timer);
      acked();
    });
    socket.ws.send(JSON.stringify({ type: "answer", seq, ...target.answer(client, k) }));
  });
}

async function inBatches<T>(count: number, each: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += BATCH)
    out.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, (_, k) => each(i + k)))));
  return out;
}

const closeAll = (sockets: Socket[]) =>
  Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((closed) => {
          // Already closed (by the server): no close event will come.
          if (s.ws.readyState === WebSocket.CLOSED) return closed();
          s.ws.onclose = () => closed();
          s.ws.close(1000, "bench: network blip");
        }),
    ),
  );

/**
 * RECONNECT_PROFILE=FILE with BENCH_INSPECTOR_PORT: a V8 CPU profile of the app's Worker over its waves (open it in
 * Chrome's DevTools), taken through workerd's inspector.
 */
async function profiler(): Promise<{ stop: () => Promise<void> } | null> {
  const file = process.env.RECONNECT_PROFILE;
  const port = process.env.BENCH_INSPECTOR_PORT;
  if (!file || !port) return null;
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
      console.log(`CPU profile of the app's waves: ${file}`);
    },
  };
}

/** Connects every client, saves ANSWERS answers each, then ROUNDS waves; workerd ms of CPU per reconnect, per wave. */
async function measure(target: Target, workerd: number, ready?: () => Promise<void>, profile?: boolean) {
  let sockets = await inBatches(CLIENTS, (i) => open(target, i));
  await ready?.();
  for (let k = 0; k < ANSWERS; k++) await Promise.all(sockets.map((s, i) => send(target, s, i, k)));
  // The app's reconnects must take the resume token's way in (no session lookups), as the runner's do.
  const withoutToken = sockets.filter((s) => s.resume === undefined).length;
  if (ready && withoutToken) throw new Error(`${withoutToken} sockets got no resume token from the room`);
  const perReconnect: number[] = [];
  const profiling = profile ? await profiler() : null;
  for (let round = 0; round < ROUNDS; round++) {
    await new Promise((r) => setTimeout(r, 1000));
    const before = cpuSeconds(workerd);
    await closeAll(sockets);
    sockets = await inBatches(CLIENTS, (i) => open(target, i, sockets[i]!.resume));
    await Promise.all(sockets.map((s, i) => send(target, s, i, ANSWERS + round)));
    perReconnect.push(((cpuSeconds(workerd) - before) * 1000) / CLIENTS);
  }
  await profiling?.stop();
  await closeAll(sockets);
  return perReconnect;
}

/** The app: one started room of CLIENTS candidates (one subject of the default edition, an hour long). */
async function appTarget(server: LocalServer): Promise<{ target: Target; ready: () => Promise<void> }> {
  const { baseUrl } = server;
  const { students, classIds } = await prepareStudents(CLIENTS);
  const admin = await devCookie(baseUrl, "admin@example.com");
  const editions = await adminJson<{
    editions: { id: number; format: { questionTotal: number; subjects: { subjectId: number }[] } }[];
    defaultId: number;
  }>(baseUrl, admin, "/api/exam-editions");
  const edition = editions.editions.find((e) => e.id === editions.defaultId)!;
  const subjectId = edition.format.subjects[0]!.subjectId;
  const simId = `reconnect-${Date.now()}`;
  await adminJson(baseUrl, admin, "/api/admin/simulations", {
    method: "POST",
    body: JSON.stringify({
      id: simId,
      title: "Riconnessioni",
      subjects: [{ subjectId, timeMin: 60, breakAfterMin: 0, questionCount: edition.format.questionTotal }],
      allowedUsers: students.filter((s) => s.listed).map((s) => s.id),
      allowedClasses: classIds,
    }),
  });
  const keys = Object.entries(answerKeys(simId)) as [string, Key][];
  if (keys.length < ANSWERS + ROUNDS) throw new Error(`${keys.length} questions: fewer than ${ANSWERS + ROUNDS}`);
  const ws = `${baseUrl.replace(/^http/, "ws")}/api/simulations/${simId}/ws`;
  const target: Target = {
    url: (_, resume) => (resume ? `${ws}?resume=${encodeURIComponent(resume)}` : ws),
    headers: (i) => ({ cookie: (students[i] as Student).cookie }),
    // Each client answers the questions in its own order, so that no two write the same rows in the same order.
    answer: (i, k) => {
      const [questionId, key] = keys[(i + k) % keys.length]!;
      return { subjectId, questionId: Number(questionId), value: key.correct };
    },
  };
  const ready = async () => {
    const { startTime } = await adminJson<{ startTime: number }>(
      baseUrl,
      admin,
      `/api/admin/simulations/${simId}/start`,
      { method: "POST" },
    );
    await new Promise((r) => setTimeout(r, Math.max(0, startTime - Date.now()) + 1000));
  };
  return { target, ready };
}

/** The floor: bench/fixtures/floor-room.js on a workerd of its own (Miniflare, in this process). */
async function floorServer() {
  const { convertV4MiniflareOptions, Log, LogLevel, Miniflare } = await import("miniflare");
  const port = Number(process.env.BENCH_PORT ?? 4329) + 7;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port,
      // The network is closed: never fetch the Request.cf placeholder from Cloudflare.
      cf: false,
      log: new Log(LogLevel.WARN),
      // Its room's storage on tmpfs beside the app's (BENCH_STATE), not in the disk's temporary directory.
      resourcePersistencePath: `${BENCH_STATE}-floor`,
      workers: [
        {
          name: "floor",
          modules: true,
          scriptPath: resolve("bench/fixtures/floor-room.js"),
          // As the app's (wrangler.jsonc): the same runtime and no WebSocket compression, so both sides pay the same.
          compatibilityDate: "2026-10-01",
          compatibilityFlags: ["no_web_socket_compression"],
          durableObjects: { ROOM: { className: "FloorRoom", useSQLite: true } },
        },
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await mf.ready;
  const [workerd] = workerdUnder(process.pid).filter((p) => !known.has(p));
  if (!workerd) throw new Error("the floor's workerd was not found");
  const target: Target = {
    url: (i) => `ws://127.0.0.1:${port}/ws?u=${i}`,
    headers: () => ({}),
    answer: (i, k) => ({ subjectId: 1, questionId: 100_000 + ((i + k) % 31), value: "B" }),
  };
  return { target, workerd, stop: () => mf.dispose() };
}

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

/** workerd processes that existed before the floor's (the app server's). */
const known = new Set<number>();

export async function benchReconnect(server: LocalServer) {
  if (server.pid === undefined) throw new Error("reconnect: the server's process is not known");
  const [appWorkerd] = workerdUnder(server.pid);
  if (!appWorkerd) throw new Error("reconnect: the app server's workerd was not found");
  for (const p of workerdUnder(process.pid)) known.add(p);
  console.log(
    `Reconnect cost: ${CLIENTS} candidates of one room, ${ANSWERS} saved answers each; ${ROUNDS} waves of close, ` +
      "reopen with the resume token, one answer and its ack",
  );
  const app = await appTarget(server);
  const appMs = await measure(app.target, appWorkerd, app.ready, true);
  const floor = await floorServer();
  let floorMs: number[];
  try {
    floorMs = await measure(floor.target, floor.workerd);
  } finally {
    await floor.stop();
  }
  const appMedian = percentile(appMs, 50);
  const floorMedian = percentile(floorMs, 50);
  const r2 = (n: number) => Math.round(n * 100) / 100;
  const result = {
    clients: CLIENTS,
    savedAnswers: ANSWERS,
    appMsPerReconnect: r2(appMedian),
    floorMsPerReconnect: r2(floorMedian),
    appOverFloor: r2(appMedian / floorMedian),
    appWaves: appMs.map(r2),
    floorWaves: floorMs.map(r2),
    // The waves measured here include one answer per reconnect (its write and ack): the model counts answers apart.
    modelDayAckP99MsAtApp: modelledWaveP99(appMedian - ACK_MS).p99Ms,
    modelDayAckP99MsAtFloor: modelledWaveP99(floorMedian - ACK_MS).p99Ms,
  };
  console.table([result]);
  if (refused.size) throw new Error(`answers refused: ${JSON.stringify(Object.fromEntries(refused))}`);
  return result;
}
