// BENCH_ONLY=national npm run bench: one simulation with NATIONAL_CLIENTS students (default 6,000) over
// rooms of at most 1,000 (the production sharding), every student answering once at a random instant
// within 10 s of the start, then reconnecting and reading its answer back. The clients run in worker
// threads (NATIONAL_THREADS, default one per 1,500 clients, at most 4) so that the bench client is not
// the bottleneck. Students and their sessions are written straight into the bench database (loopback
// state only) and their session tokens signed with the local .dev.vars secret: 6,000 sign-ins through
// the API would measure the sign-in, not the room.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { SignJWT } from "jose";
import { SESSION_COOKIE, SIMULATION_GRACE_MS } from "../app/lib/constants.ts";
import { ROOM_CAPACITY } from "../app/lib/simulation-protocol.ts";
import { devCookie, type LocalServer } from "./lib/server.ts";
import { percentile } from "./lib/stats.ts";

const CLIENTS = Number(process.env.NATIONAL_CLIENTS ?? 6000);
const THREADS = Number(process.env.NATIONAL_THREADS ?? Math.min(4, Math.ceil(CLIENTS / 1500)));
const FIRST_ID = 5_000_001;
const QUESTION_ID = 2001; // Chimica, multiple choice
const SUBJECT_ID = 2;
const VALUE = "30"; // an option of question 2001
const ANSWER_WINDOW_MS = 10_000;

type Users = { id: number; cookie: string }[];

/** Writes the students and a session each into the bench database; returns their session cookies. */
async function prepareStudents(count: number): Promise<Users> {
  const secret = /^SESSION_SECRET=(.+)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.trim();
  if (!secret) throw new Error("SESSION_SECRET missing in .dev.vars");
  const key = new TextEncoder().encode(secret);
  const now = Date.now();
  const expires = now + 24 * 3600_000;
  const ids = Array.from({ length: count }, (_, i) => FIRST_ID + i);
  const statements: string[] = [];
  for (let i = 0; i < count; i += 500) {
    const part = ids.slice(i, i + 500);
    statements.push(
      `INSERT OR IGNORE INTO users (id, email, name) VALUES ${part.map((id) => `(${id}, 'naz-${id}@example.com', 'Naz ${id}')`).join(", ")};`,
    );
    statements.push(
      `INSERT OR IGNORE INTO sessions (id, user_id, created_at, expires_at) VALUES ${part.map((id) => `('naz-${id}', ${id}, ${now}, ${expires})`).join(", ")};`,
    );
  }
  const file = join(tmpdir(), `unicum-national-${process.pid}.sql`);
  writeFileSync(file, statements.join("\n"));
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", join(".wrangler", "bench-state"), "--file", file],
    {
      stdio: "ignore",
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    },
  );
  rmSync(file, { force: true });
  return Promise.all(
    ids.map(async (id) => {
      const token = await new SignJWT({ sid: `naz-${id}` })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(id))
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(expires / 1000))
        .sign(key);
      return { id, cookie: `${SESSION_COOKIE}=${token}` };
    }),
  );
}

type Reply = Record<string, unknown> & { phase: string };

function ask(worker: Worker, command: string, phase: string): Promise<Reply> {
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

export async function benchNational(server: LocalServer) {
  const { baseUrl } = server;
  console.log(
    `\nNational sitting: ${CLIENTS} students in rooms of at most ${ROOM_CAPACITY}, ${THREADS} client threads`,
  );
  const users = await prepareStudents(CLIENTS);
  const admin = await devCookie(baseUrl, "admin@example.com");
  const simId = `national-${Date.now()}`;
  const created = await fetch(`${baseUrl}/api/admin/simulations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", cookie: admin },
    body: JSON.stringify({
      id: simId,
      title: "Simulazione nazionale",
      subjects: [{ subjectId: SUBJECT_ID, timeMin: 1, questions: [QUESTION_ID] }],
      allowedUsers: users.map((u) => u.id),
    }),
  });
  if (!created.ok) throw new Error(`create simulation: ${created.status} ${await created.text()}`);
  const wsUrl = `${baseUrl.replace(/^http/, "ws")}/api/simulations/${simId}/ws`;

  const workers = Array.from({ length: THREADS }, (_, t) => {
    const slice = users.filter((_, i) => i % THREADS === t);
    return new Worker(new URL("./lib/national-client.ts", import.meta.url), {
      workerData: {
        wsUrl,
        users: slice,
        questionId: QUESTION_ID,
        subjectId: SUBJECT_ID,
        value: VALUE,
        answerWindowMs: ANSWER_WINDOW_MS,
      },
    });
  });
  try {
    // 1. Every student connects (to its own room) and syncs its clock.
    const t0 = performance.now();
    const connected = await Promise.all(workers.map((w) => ask(w, "connect", "connected")));
    const connectSec = (performance.now() - t0) / 1000;
    console.log(`connected ${connected.reduce((n, r) => n + Number(r.connected), 0)} in ${connectSec.toFixed(1)} s`);
    // The browser's 30-second re-sync, once every student is in (offset from the fastest of both rounds).
    const offsetErrors = (await Promise.all(workers.map((w) => ask(w, "resync", "resynced")))).flatMap(
      (r) => r.offsetErrors as number[],
    );

    // 2. Avvia: one start fanned out to every room; 3. every student answers once within 10 s.
    const answering = Promise.all(workers.map((w) => ask(w, "answer", "answered")));
    const startResponse = await fetch(`${baseUrl}/api/admin/simulations/${simId}/start`, {
      method: "POST",
      headers: { cookie: admin },
    });
    if (!startResponse.ok) throw new Error(`start: ${startResponse.status} ${await startResponse.text()}`);
    const start = (await startResponse.json()) as { startTime: number; endsAt: number; shards: number };
    // 5. Grading, watched from now on (it may overlap the read-back): from the last deadline (the subject's
    // end plus the grace, when the rooms close it) to the moment every room has written its attempts to D1.
    const deadline = start.endsAt + SIMULATION_GRACE_MS;
    const grading = (async () => {
      for (;;) {
        const live = (await (
          await fetch(`${baseUrl}/api/admin/simulations/${simId}/live`, { headers: { cookie: admin } })
        ).json()) as {
          total: { gradedRooms: number; attempts: number };
        };
        if (live.total.gradedRooms >= start.shards) return { at: Date.now(), attempts: live.total.attempts };
        if (Date.now() > deadline + 120_000) return { at: NaN, attempts: live.total.attempts };
        await new Promise((r) => setTimeout(r, Date.now() < deadline - 1000 ? 1000 : 100));
      }
    })();
    const answered = await answering;
    const receipts = answered.flatMap((r) => r.startReceipts as number[]);
    const ackLatencies = answered.flatMap((r) => r.ackLatencies as number[]);

    // 4. Everyone reconnects and reads the answer back from the room.
    const readBack = (await Promise.all(workers.map((w) => ask(w, "read-back", "read-back")))).reduce(
      (n, r) => n + Number(r.readBack),
      0,
    );

    const { at: gradedAt, attempts } = await grading;
    const result = {
      clients: CLIENTS,
      shards: start.shards,
      connected: connected.reduce((n, r) => n + Number(r.connected), 0),
      acked: answered.reduce((n, r) => n + Number(r.acked), 0),
      readBack,
      startSpreadMs: receipts.length ? Math.max(...receipts) - Math.min(...receipts) : null,
      offsetErrP95Ms: f1(percentile(offsetErrors, 95)),
      ackP50Ms: f1(percentile(ackLatencies, 50)),
      ackP99Ms: f1(percentile(ackLatencies, 99)),
      gradeMs: Number.isFinite(gradedAt) ? gradedAt - deadline : null,
      attemptsWritten: attempts,
      startLeadMs: start.startTime - Math.min(...receipts),
      connectSec: f1(connectSec),
      threads: THREADS,
    };
    console.log("\nNational sitting over loopback (start spread: first to last receipt of simulation-start):");
    console.table([result]);
    await fetch(`${baseUrl}/api/admin/simulations/${simId}`, { method: "DELETE", headers: { cookie: admin } });
    return result;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
