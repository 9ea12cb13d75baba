// What one candidate's reconnect costs workerd, measured with the same client and traffic on the app and on a floor
// room (issue 31's BENCH_ONLY=reconnect, shared with issue 45's BENCH_ONLY=room):
//   app    the production build: `clients` candidates of one started room, each with `answers` saved answers; then,
//          RECONNECT_ROUNDS times (default 6), every socket closes (1000, as a network blip) and opens again with its
//          resume token, as the runner does, and sends one answer, and waits for its ack;
//   floor  bench/fixtures/floor-room.js on its own workerd: a Worker and a hibernating room that only route the upgrade,
//          accept the socket, read the answers from SQLite, send a hello of the same size and store and ack the answer;
//          served as the app is, behind the local runtime's asset router (floorServer), and also bare ("bare floor").
// The figure is workerd's CPU time (its process, every thread, read from /proc) per reconnect. Every side is connected
// at once and their waves take turns, so the machine's other load falls on each alike.
import { floorServer } from "./reconnect-floor.ts";
import { cpuSeconds, perfRecord, workerdUnder } from "./workerd-process.ts";
import { adminJson, answerKeys, type Key, prepareStudents, type Student } from "../national.ts";
import { devCookie, type LocalServer } from "./server.ts";

/** Waves per side: the figure is each side's median. */
export const RECONNECT_ROUNDS = Number(process.env.RECONNECT_ROUNDS ?? 6);
const ROUNDS = RECONNECT_ROUNDS;
const BATCH = 50;

/** Answers the room refused, by reason: the figures count only if there are none. */
export const refused = new Map<string, number>();

type Socket = { ws: WebSocket; resume?: string; seq: number; acks: Map<number, () => void> };
export type Target = {
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
export type Profiler = (side: "app" | "floor") => Promise<{ stop: () => Promise<void> } | null>;

/** Connects every client and saves `answers` answers each; the sockets the waves take down and up again. */
async function connect(shape: ReconnectShape, target: Target, ready?: () => Promise<void>) {
  const { clients, answers } = shape;
  const sockets = await inBatches(clients, (i) => open(target, i));
  await ready?.();
  for (let k = 0; k < answers; k++) await Promise.all(sockets.map((s, i) => send(target, s, i, k)));
  // The app's reconnects must take the resume token's way in (no session lookups), as the runner's do.
  const withoutToken = sockets.filter((s) => s.resume === undefined).length;
  if (ready && withoutToken) throw new Error(`${withoutToken} sockets got no resume token from the room`);
  return sockets;
}

/**
 * One wave: every socket closes (a network blip) and opens again with its resume token, sends one more answer and
 * waits for its ack. Returns the sockets now open and workerd's ms of CPU per reconnect.
 */
async function wave(target: Target, sockets: Socket[], workerd: number, k: number) {
  await new Promise((r) => setTimeout(r, 1000));
  const before = cpuSeconds(workerd);
  await closeAll(sockets);
  const reopened = await inBatches(sockets.length, (i) => open(target, i, sockets[i]!.resume));
  await Promise.all(reopened.map((s, i) => send(target, s, i, k)));
  return { sockets: reopened, ms: ((cpuSeconds(workerd) - before) * 1000) / sockets.length };
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

/**
 * The app's and the floors' workerd ms of CPU per reconnect (one figure per wave), on the same client and traffic. All
 * are connected first, then their waves take turns (the order turning each round), so whatever else the machine does
 * during the measure falls on each alike. `floorMs`: the floor served as the app is (behind the asset router);
 * `bareFloorMs`: without it. `pin`: called with each workerd measured before its waves, e.g. to pin it to a core.
 */
export async function reconnectCost(
  server: LocalServer,
  shape: ReconnectShape,
  options: { profiler?: Profiler; pin?: (workerd: number) => void } = {},
): Promise<{ appMs: number[]; floorMs: number[]; bareFloorMs: number[] }> {
  if (server.pid === undefined) throw new Error("reconnect: the server's process is not known");
  const [appWorkerd] = workerdUnder(server.pid);
  if (!appWorkerd) throw new Error("reconnect: the app server's workerd was not found");
  options.pin?.(appWorkerd);
  const app = await appTarget(server, shape);
  const floors = [await floorServer(true), await floorServer(false)];
  try {
    for (const floor of floors) options.pin?.(floor.workerd);
    const sides = [
      {
        name: "app",
        target: app.target,
        workerd: appWorkerd,
        sockets: await connect(shape, app.target, app.ready),
        ms: [] as number[],
      },
    ];
    for (const [i, floor] of floors.entries())
      sides.push({
        name: i === 0 ? "floor" : "bare-floor",
        target: floor.target,
        workerd: floor.workerd,
        sockets: await connect(shape, floor.target),
        ms: [] as number[],
      });
    const profiling = await Promise.all([options.profiler?.("app"), options.profiler?.("floor")]);
    const perf = perfRecord(sides.map((side) => [side.name, side.workerd]));
    for (let round = 0; round < ROUNDS; round++) {
      // The order turns each round: no side always goes first.
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(round + k) % sides.length]!;
        const done = await wave(side.target, side.sockets, side.workerd, shape.answers + round);
        side.sockets = done.sockets;
        side.ms.push(done.ms);
      }
    }
    for (const p of profiling) await p?.stop();
    await perf();
    for (const side of sides) await closeAll(side.sockets);
    await app.remove();
    return { appMs: sides[0]!.ms, floorMs: sides[1]!.ms, bareFloorMs: sides[2]!.ms };
  } finally {
    for (const floor of floors) await floor.stop();
  }
}
