// BENCH_ONLY=national npm run bench: the national sitting's real day, shortened (issue 31, point 5).
// NATIONAL_CLIENTS students (default 6,000), half listed one by one and half members of classes (of 30), sit the
// default exam edition's day: its three subjects of 31 questions (93), NATIONAL_SUBJECT_MIN minutes each (default 2)
// with no breaks. Every student does what the browser does (bench/lib/national-client.ts): the page, the flow, the
// socket and its clock sync, the questions of each subject as it opens, answers right or wrong by their own ability
// (some left blank, some changed), a reconnect wave mid-subject 2 (answers given while a socket is down are saved
// over HTTP, as the runner does), the attempt at the end and the ranking.
// D1 is metered by the server itself (BENCH_D1_USAGE, app/server/db/d1-usage.server.ts): rows read and written over
// the whole day, the admin's save and Avvia included, divided by the students.
// Students, classes and sessions are written straight into the bench database (loopback state only) and their
// session tokens signed with the session key of the local .dev.vars secret (app/server/keys.server.ts): 6,000 sign-ins
// would measure the sign-in, not the day.
// The figures go to bench/results/latest.json under "national", with PASS or FAIL against the goals that do not depend
// on the rig (rows read per student, the ranking's size, the clock's error; issue 45, point 7): its ack p99 and grading
// time are reported, not judged, since here the Worker, six rooms and D1 share one workerd thread and the clients the
// same two cores. One room as Cloudflare runs it is judged by BENCH_ONLY=room (bench/room.ts).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { SignJWT } from "jose";
import { SESSION_COOKIE, SIMULATION_GRACE_MS } from "../app/lib/constants.ts";
import { signingKey } from "../app/server/keys.server.ts";
import { ROOM_CAPACITY } from "../app/lib/simulation-protocol.ts";
import { BENCH_STATE, devCookie, type LocalServer } from "./lib/server.ts";
import { percentile } from "./lib/stats.ts";

const CLIENTS = Number(process.env.NATIONAL_CLIENTS ?? 6000);
const THREADS = Number(process.env.NATIONAL_THREADS ?? Math.min(4, Math.ceil(CLIENTS / 1500)));
const SUBJECT_MIN = Number(process.env.NATIONAL_SUBJECT_MIN ?? 2);
const CLASS_SIZE = 30;
const FIRST_ID = 5_000_001;
const TEACHER_ID = 4_999_999;
/** A student answers this share of the questions (the rest left blank) and changes this share of their answers. */
const ANSWER_SHARE = 0.9;
const CHANGE_SHARE = 0.08;
/** This share of the students loses its socket in the middle of subject 2 and reconnects (NATIONAL_RECONNECT_SHARE). */
const RECONNECT_SHARE = Number(process.env.NATIONAL_RECONNECT_SHARE ?? 0.3);
/**
 * NATIONAL_WAVE=room: instead, every candidate of room 0 drops at one instant mid-subject 2 (the reconnect load of a
 * room restarted by a deploy or an eviction on Cloudflare; the room itself stays warm here); the default, "share",
 * is the 30 % network blip over every room.
 */
const WAVE_MODE = process.env.NATIONAL_WAVE === "room" ? "room" : "share";

/** The goals the national sitting is judged on, at 6,000 clients: figures the rig does not change. */
export const NATIONAL_GOALS = {
  offsetErrP95Ms: 25,
  d1RowsReadPerClient: 200,
  rankingBytesP95: 20 * 1024,
} as const;

export type Student = { id: number; cookie: string; listed: boolean };
export type Key = { type: "mc" | "gap"; correct: string; wrong: string[] };

/** `wrangler d1 execute` on the bench's local database (its state in BENCH_STATE), returning what it prints. */
export const benchD1 = (args: string[]) =>
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", BENCH_STATE, ...args],
    {
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
      maxBuffer: 64 * 1024 * 1024,
    },
  ).toString();

/** Students (half listed, half in classes of 30 of one teacher), their sessions; returns cookies and class ids. */
export async function prepareStudents(count: number): Promise<{ students: Student[]; classIds: number[] }> {
  const secret = /^SESSION_SECRET=(.+)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.trim();
  if (!secret) throw new Error("SESSION_SECRET missing in .dev.vars");
  const key = await signingKey(secret, "session");
  const now = Date.now();
  const expires = now + 24 * 3600_000;
  const ids = Array.from({ length: count }, (_, i) => FIRST_ID + i);
  const listedCount = Math.ceil(count / 2);
  const members = ids.slice(listedCount);
  const classCount = Math.ceil(members.length / CLASS_SIZE);
  const firstClass = 900_001;
  const classIds = Array.from({ length: classCount }, (_, i) => firstClass + i);
  const statements: string[] = [
    `INSERT OR IGNORE INTO users (id, email, name, role) VALUES (${TEACHER_ID}, 'naz-docente@example.com', 'Docente Nazionale', 'docente');`,
  ];
  for (let i = 0; i < count; i += 500) {
    const part = ids.slice(i, i + 500);
    statements.push(
      `INSERT OR IGNORE INTO users (id, email, name) VALUES ${part.map((id) => `(${id}, 'naz-${id}@example.com', 'Naz ${id}')`).join(", ")};`,
    );
    statements.push(
      `INSERT OR IGNORE INTO sessions (id, user_id, created_at, expires_at, last_used_at) VALUES ${part.map((id) => `('naz-${id}', ${id}, ${now}, ${expires}, ${now})`).join(", ")};`,
    );
  }
  for (let i = 0; i < classIds.length; i += 200) {
    const part = classIds.slice(i, i + 200);
    statements.push(
      `INSERT OR IGNORE INTO classes (id, name, code, owner_id) VALUES ${part.map((id) => `(${id}, 'Classe ${id}', 'NAZ${id}', ${TEACHER_ID})`).join(", ")};`,
    );
  }
  for (let i = 0; i < members.length; i += 500) {
    const part = members.slice(i, i + 500);
    statements.push(
      `INSERT OR IGNORE INTO class_members (class_id, user_id) VALUES ${part.map((id) => `(${firstClass + Math.floor((id - members[0]!) / CLASS_SIZE)}, ${id})`).join(", ")};`,
    );
  }
  const file = join(tmpdir(), `unicum-national-${process.pid}.sql`);
  writeFileSync(file, statements.join("\n"));
  benchD1(["--file", file]);
  rmSync(file, { force: true });
  const students = await Promise.all(
    ids.map(async (id, i) => {
      const token = await new SignJWT({ sid: `naz-${id}` })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(id))
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(expires / 1000))
        .sign(key);
      return { id, cookie: `${SESSION_COOKIE}=${token}`, listed: i < listedCount };
    }),
  );
  return { students, classIds };
}

/** The answer keys of the simulation's questions, read from the bench database (never through the browser's API). */
export function answerKeys(simulationId: string): Record<string, Key> {
  const out = JSON.parse(
    benchD1([
      "--json",
      "--command",
      `SELECT q.id, q.type, q.options, q.correct_index AS correctIndex, q.accepted_answers AS accepted FROM simulation_questions sq JOIN questions q ON q.id = sq.question_id WHERE sq.simulation_id = '${simulationId}'`,
    ]),
  ) as {
    results: {
      id: number;
      type: "mc" | "gap";
      options: string | null;
      correctIndex: number | null;
      accepted: string | null;
    }[];
  }[];
  const keys: Record<string, Key> = {};
  for (const q of out[0]!.results) {
    if (q.type === "mc") {
      const options = JSON.parse(q.options ?? "[]") as string[];
      keys[q.id] = {
        type: "mc",
        correct: options[q.correctIndex ?? 0]!,
        wrong: options.filter((_, i) => i !== q.correctIndex),
      };
    } else {
      const accepted = JSON.parse(q.accepted ?? "[]") as string[];
      keys[q.id] = { type: "gap", correct: accepted[0] ?? "", wrong: ["0", "12", "non so"] };
    }
  }
  return keys;
}

type Reply = Record<string, unknown> & { phase: string };

function ask(worker: Worker, command: { run: string; waveSubject?: number }, phase: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Reply) => {
      if (m.phase !== phase) return;
      worker.off("message", onMessage);
      resolve(m);
    };
    worker.on("message", onMessage);
    worker.once("error", reject);
    worker.postMessage(command);
  });
}

const f1 = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : null);

export async function adminJson<T>(baseUrl: string, admin: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { "Content-Type": "application/json", cookie: admin, ...(init.headers as Record<string, string>) },
  });
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

type D1Usage = {
  queries: number;
  rowsRead: number;
  rowsWritten: number;
  /** The statements that read the most rows (the server's meter keeps the top 25). */
  statements?: { sql: string; queries: number; rowsRead: number; rowsWritten: number }[];
};

export async function benchNational(server: LocalServer) {
  const { baseUrl } = server;
  const load: { before: number[]; after?: number[] } = { before: loadavg().map((n) => Math.round(n * 100) / 100) };
  console.log(
    `\nNational sitting: ${CLIENTS} students (half listed, half in classes of ${CLASS_SIZE}), rooms of at most ${ROOM_CAPACITY}, ` +
      `3 subjects × ${SUBJECT_MIN} min, ${THREADS} client threads, ${WAVE_MODE === "room" ? "room 0's candidates all reconnecting at once" : `${Math.round(RECONNECT_SHARE * 100)} % reconnecting`} mid-subject 2; ` +
      `load average ${load.before.join(" ")}`,
  );
  const { students, classIds } = await prepareStudents(CLIENTS);
  const admin = await devCookie(baseUrl, "admin@example.com");
  const meter = await fetch(`${baseUrl}/api/admin/bench/d1`, { method: "DELETE", headers: { cookie: admin } });
  if (!meter.ok) throw new Error("the D1 meter is off: build with UNICUM_BENCH_D1_USAGE=1 (bench/run.ts sets it)");

  // The default edition's day: its subjects in its order, each a full paper (31 questions in 2026/27).
  const editions = await adminJson<{
    editions: { id: number; format: { questionTotal: number; subjects: { subjectId: number }[] } }[];
    defaultId: number;
  }>(baseUrl, admin, "/api/exam-editions");
  const edition = editions.editions.find((e) => e.id === editions.defaultId)!;
  const simId = `national-${Date.now()}`;
  const listed = students.filter((s) => s.listed).map((s) => s.id);
  const saved = await adminJson<{ drawNotes: string[] }>(baseUrl, admin, "/api/admin/simulations", {
    method: "POST",
    body: JSON.stringify({
      id: simId,
      title: "Simulazione nazionale",
      subjects: edition.format.subjects.map((s) => ({
        subjectId: s.subjectId,
        timeMin: SUBJECT_MIN,
        breakAfterMin: 0,
        questionCount: edition.format.questionTotal,
      })),
      allowedUsers: listed,
      allowedClasses: classIds,
    }),
  });
  const keys = answerKeys(simId);
  const questions = Object.keys(keys).length;

  const workers = Array.from({ length: THREADS }, (_, t) => {
    const slice = students.filter((_, i) => i % THREADS === t);
    return new Worker(new URL("./lib/national-client.ts", import.meta.url), {
      workerData: {
        baseUrl,
        simulationId: simId,
        users: slice,
        keys,
        answerShare: ANSWER_SHARE,
        changeShare: CHANGE_SHARE,
        reconnectShare: RECONNECT_SHARE,
        waveMode: WAVE_MODE,
      },
    });
  });
  try {
    // 1. Every student opens the page and its socket (to its room) and syncs its clock.
    const t0 = performance.now();
    const connectedReplies = await Promise.all(workers.map((w) => ask(w, { run: "connect" }, "connected")));
    const connected = connectedReplies.reduce((n, r) => n + Number(r.connected), 0);
    const connectSec = (performance.now() - t0) / 1000;
    console.log(`connected ${connected} in ${connectSec.toFixed(1)} s`);
    const offsetErrors = (await Promise.all(workers.map((w) => ask(w, { run: "resync" }, "resynced")))).flatMap(
      (r) => r.offsetErrors as number[],
    );

    // 2. Avvia; 3. the day (subjects, reconnect wave in subject 2, attempt, ranking).
    const sitting = Promise.all(workers.map((w) => ask(w, { run: "sit", waveSubject: 1 }, "sat")));
    const start = await adminJson<{ startTime: number; endsAt: number; shards: number }>(
      baseUrl,
      admin,
      `/api/admin/simulations/${simId}/start`,
      { method: "POST" },
    );
    const sat = await sitting;
    const usage = await adminJson<D1Usage>(baseUrl, admin, "/api/admin/bench/d1");
    load.after = loadavg().map((n) => Math.round(n * 100) / 100);

    const all = <T>(field: string) => sat.flatMap((r) => r[field] as T[]);
    const sum = (field: string) => sat.reduce((n, r) => n + Number(r[field]), 0);
    const receipts = all<number>("startReceipts");
    const endReceipts = all<number>("endReceipts");
    const ackLatencies = all<number>("ackLatencies");
    const rankingBytes = all<number>("rankingBytes");
    const httpCalls = all<number>("httpCalls");
    const waves = sat.map((r) => r.wave as { tried: number; reconnected: number; readBack: number });
    // Where the slow acks were: p99 per 10 s (NATIONAL_ACK_SLOT_S) of the day (seconds from the start instant), and refusals by reason.
    const bySlot: Record<string, number[]> = {};
    for (const r of sat)
      for (const [k, v] of Object.entries(r.ackBySlot as Record<string, number[]>)) (bySlot[k] ??= []).push(...v);
    const ackTimeline = Object.entries(bySlot)
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map(([k, v]) => `${k}s:${Math.round(percentile(v, 99))}(${v.length})`)
      .join(" ");
    const rejectedBy: Record<string, number> = {};
    for (const r of sat)
      for (const [k, v] of Object.entries(r.rejectedBy as Record<string, number>))
        rejectedBy[k] = (rejectedBy[k] ?? 0) + v;
    const httpErrors: Record<string, number> = {};
    for (const r of sat)
      for (const [k, v] of Object.entries(r.httpErrors as Record<string, number>))
        httpErrors[k] = (httpErrors[k] ?? 0) + v;
    // Grading: from the last deadline (the end plus the grace, when the rooms close it) to the last room's
    // simulation-end (sent once its attempts and question memories are written to D1).
    const deadline = start.endsAt + SIMULATION_GRACE_MS;
    const gradedAt = endReceipts.length ? Math.max(...endReceipts) : NaN;
    const result = {
      clients: CLIENTS,
      shards: start.shards,
      questions,
      subjectMin: SUBJECT_MIN,
      httpCallsPerClient: f1(httpCalls.reduce((a, b) => a + b, 0) / Math.max(1, httpCalls.length)),
      // Sealed prefetch (issue 31): subjects opened with the room's key, and those that fell back to the HTTP call.
      subjectsByKey: sum("keysOpened"),
      subjectsByPushedKey: sum("keysPushed"),
      subjectsByHttp: sat.reduce((n, r) => n + (r.keysFallback as number[]).reduce((a, b) => a + b, 0), 0),
      subjectsByHttpEach: [0, 1, 2]
        .map((i) => sat.reduce((n, r) => n + ((r.keysFallback as number[])[i] ?? 0), 0))
        .join("/"),
      keysRefused: sum("keysRefused"),
      keysTimedOut: sum("keysTimedOut"),
      // Per student who sat the day (connected), the admin's save and Avvia included.
      d1RowsReadPerClient: f1(usage.rowsRead / Math.max(1, connected)),
      d1RowsWrittenPerClient: f1(usage.rowsWritten / Math.max(1, connected)),
      d1QueriesPerClient: f1(usage.queries / Math.max(1, connected)),
      rankingBytesP95: percentile(rankingBytes, 95),
      offsetErrP95Ms: f1(percentile(offsetErrors, 95)),
      ackP50Ms: f1(percentile(ackLatencies, 50)),
      ackP99Ms: f1(percentile(ackLatencies, 99)),
      gradingS: Number.isFinite(gradedAt) ? f1((gradedAt - deadline) / 1000) : null,
      connected,
      answersSent: sum("answersSent"),
      acked: sum("acked"),
      rejected: sum("rejected"),
      movedAtStart: sum("moved"),
      resumedConnects: sum("resumed"),
      waveMode: WAVE_MODE,
      reconnectWave: waves.reduce((n, w) => n + w.tried, 0),
      reconnected: waves.reduce((n, w) => n + w.reconnected, 0),
      readBack: waves.reduce((n, w) => n + w.readBack, 0),
      // The runner's fallback while a socket is down (the wave): answers saved over HTTP into the same room.
      httpSaves: all<number>("httpSaveLatencies").length,
      httpSaveP99Ms: f1(percentile(all<number>("httpSaveLatencies"), 99)),
      httpSavesFailed: sum("httpSavesFailed"),
      graded: sum("graded"),
      rankedWithPosition: sum("positions"),
      startSpreadMs: receipts.length ? Math.max(...receipts) - Math.min(...receipts) : null,
      connectSec: f1(connectSec),
      threads: THREADS,
      drawNotes: saved.drawNotes.length,
      httpErrors,
      loadAverage: load,
    };
    const checks = {
      clients: CLIENTS >= 6000,
      connected: connected === CLIENTS,
      offsetErrP95Ms: (result.offsetErrP95Ms ?? Infinity) <= NATIONAL_GOALS.offsetErrP95Ms,
      d1RowsReadPerClient: (result.d1RowsReadPerClient ?? Infinity) <= NATIONAL_GOALS.d1RowsReadPerClient,
      rankingBytesP95:
        Number.isFinite(result.rankingBytesP95) && result.rankingBytesP95 <= NATIONAL_GOALS.rankingBytesP95,
      graded: result.graded === connected,
      // Every answer a student gave while their socket was down was saved over HTTP.
      httpSavesFailed: result.httpSavesFailed === 0,
    };
    const failed = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([k]) => k);
    const { httpErrors: errs, loadAverage, ...table } = result;
    console.log("\nNational sitting over loopback:");
    console.table([table]);
    if (Object.keys(errs).length) console.log("HTTP errors:", errs);
    console.log(`ack p99 ms (count) per ${process.env.NATIONAL_ACK_SLOT_S ?? 10} s from the start: ${ackTimeline}`);
    if (Object.keys(rejectedBy).length) console.log("answers refused by reason:", rejectedBy);
    if (usage.statements?.length) {
      console.log("D1 statements by rows read (per student):");
      console.table(
        usage.statements.slice(0, 12).map((s) => ({
          rowsRead: f1(s.rowsRead / Math.max(1, connected)),
          rowsWritten: f1(s.rowsWritten / Math.max(1, connected)),
          queries: f1(s.queries / Math.max(1, connected)),
          sql: s.sql.slice(0, 110),
        })),
      );
    }
    console.log(`load average before ${loadAverage.before.join(" ")}, after ${load.after?.join(" ")}`);
    console.log(
      `reported, not judged (the rig's): ack p50 / p99 ${result.ackP50Ms} / ${result.ackP99Ms} ms, grading ${result.gradingS} s`,
    );
    console.log(
      failed.length
        ? `FAIL national: ${failed.join(", ")} (goals: 6,000 clients, all connected and graded, no failed HTTP save, clock error p95 ≤ ${NATIONAL_GOALS.offsetErrP95Ms} ms, rows read per client ≤ ${NATIONAL_GOALS.d1RowsReadPerClient}, ranking ≤ 20 KB)`
        : "PASS national",
    );
    await fetch(`${baseUrl}/api/admin/simulations/${simId}`, { method: "DELETE", headers: { cookie: admin } });
    return { ...result, pass: failed.length === 0, failed };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
