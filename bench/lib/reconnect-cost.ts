// What one candidate's reconnect costs workerd, measured with the same client and traffic on the app and on a floor
// room (issue 31's BENCH_ONLY=reconnect, shared with issue 45's BENCH_ONLY=room):
//   app    the production build: `clients` candidates of one started room, each with `answers` saved answers; then,
//          three times, every socket closes (1000, as a network blip) and opens again with its resume token, as the
//          runner does, and sends one answer, and waits for its ack;
//   floor  bench/fixtures/floor-room.js on its own workerd: a Worker and a hibernating room that only route the upgrade,
//          accept the socket, read the answers from SQLite, send a hello of the same size and store and ack the answer.
// The figure is workerd's CPU time (its process, every thread, read from /proc) per reconnect.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { adminJson, answerKeys, type Key, prepareStudents, type Student } from "../national.ts";
import { BENCH_STATE, devCookie, type LocalServer } from "./server.ts";

export const RECONNECT_ROUNDS = 3;
const ROUNDS = RECONNECT_ROUNDS;
const BATCH = 50;
const CLK_TCK = 100;

/** The workerd processes under `pid` (its children and theirs). */
export function workerdUnder(pid: number): number[] {
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
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Answers the room refused, by reason: the figures count only if there are none. */
export const refused = new Map<string, number>();

type Socket = { ws: WebSocket; resume?: string; seq: number; acks: Map<number, () => void> };
type Target = {
  url: (client: number, resume?: string) => string;
  headers: (client: number) => Record<string, string>;
  answer: (client: number, k: number) => { subjectId: number; questionId: number; value: string };
};

/**
 * Opens a socket and resolves at its hello (keeping the resume token of any message). A handshake that fails (a
 * keep-alive connection the server had just closed, taken for the upgrade) is tried again, twice at most.
 */
async function open(target: Target, client: number, resume?: string): Promise<Socket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOnce(target, client, resume);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes("socket error")) throw error;
      failedHandshakes++;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Handshakes that failed and were tried again (printed by the suites). */
export let failedHandshakes = 0;

function openOnce(target: Target, client: number, resume?: string): Promise<Socket> {
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

export type ReconnectShape = { clients: number; answers: number };
/** Starts a profile of the app's waves (or does nothing: null); its stop writes it. */
export type Profiler = () => Promise<{ stop: () => Promise<void> } | null>;

/** Connects every client, saves `answers` answers each, then ROUNDS waves; workerd ms of CPU per reconnect, per wave. */
async function measure(
  shape: ReconnectShape,
  target: Target,
  workerd: number,
  ready?: () => Promise<void>,
  profiler?: Profiler,
) {
  const { clients, answers } = shape;
  let sockets = await inBatches(clients, (i) => open(target, i));
  await ready?.();
  for (let k = 0; k < answers; k++) await Promise.all(sockets.map((s, i) => send(target, s, i, k)));
  // The app's reconnects must take the resume token's way in (no session lookups), as the runner's do.
  const withoutToken = sockets.filter((s) => s.resume === undefined).length;
  if (ready && withoutToken) throw new Error(`${withoutToken} sockets got no resume token from the room`);
  const perReconnect: number[] = [];
  const profiling = (await profiler?.()) ?? null;
  for (let round = 0; round < ROUNDS; round++) {
    await new Promise((r) => setTimeout(r, 1000));
    const before = cpuSeconds(workerd);
    await closeAll(sockets);
    sockets = await inBatches(clients, (i) => open(target, i, sockets[i]!.resume));
    await Promise.all(sockets.map((s, i) => send(target, s, i, answers + round)));
    perReconnect.push(((cpuSeconds(workerd) - before) * 1000) / clients);
  }
  await profiling?.stop();
  await closeAll(sockets);
  return perReconnect;
}

/** The app: one started room of `clients` candidates (one subject of the default edition, an hour long). */
async function appTarget(server: LocalServer, shape: ReconnectShape) {
  const { baseUrl } = server;
  const { students, classIds } = await prepareStudents(shape.clients);
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
  if (keys.length < shape.answers + ROUNDS)
    throw new Error(`${keys.length} questions: fewer than ${shape.answers + ROUNDS}`);
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
  const remove = async () => {
    await fetch(`${baseUrl}/api/admin/simulations/${simId}`, { method: "DELETE", headers: { cookie: admin } });
  };
  return { target, ready, remove };
}

/** The floor: bench/fixtures/floor-room.js on a workerd of its own (Miniflare, in this process). */
async function floorServer() {
  const { convertV4MiniflareOptions, Log, LogLevel, Miniflare } = await import("miniflare");
  const known = new Set(workerdUnder(process.pid));
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

/**
 * The app's and the floor's workerd ms of CPU per reconnect (one figure per wave), on the same client and traffic.
 * `pin`: called with each workerd measured (the app's, then the floor's) before its waves, e.g. to pin it to a core.
 */
export async function reconnectCost(
  server: LocalServer,
  shape: ReconnectShape,
  options: { profiler?: Profiler; pin?: (workerd: number) => void } = {},
): Promise<{ appMs: number[]; floorMs: number[] }> {
  if (server.pid === undefined) throw new Error("reconnect: the server's process is not known");
  const [appWorkerd] = workerdUnder(server.pid);
  if (!appWorkerd) throw new Error("reconnect: the app server's workerd was not found");
  options.pin?.(appWorkerd);
  const app = await appTarget(server, shape);
  const appMs = await measure(shape, app.target, appWorkerd, app.ready, options.profiler);
  await app.remove();
  const floor = await floorServer();
  try {
    options.pin?.(floor.workerd);
    return { appMs, floorMs: await measure(shape, floor.target, floor.workerd) };
  } finally {
    await floor.stop();
  }
}
