// Dashboard cost against the number of students: server time of the dashboard loader (GET /dashboard,
// SSR, and GET /api/me/analytics, the same service) and of the learning engine's calls (GET /api/review/due,
// GET /api/me/forecast) for the demo student with the seed data, then again
// after adding 200,000 synthetic completed attempts from 5,000 students (with their answers) and
// refreshing the site aggregates in bulk, as recalc-stats does. Goal: after / before at most 1.5.
//
// The synthetic rows are written straight into a copy of the bench's local D1 (node:sqlite) while the
// server is stopped. The machine is shared, so the two databases are measured in alternating phases
// (seed, enlarged, seed, enlarged), each served by the same production build, and pooled.
import { cpSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { memoryColumns, replayMemory, type ReviewInput } from "../app/lib/fsrs-rating.ts";
import { REBUILD_AGGREGATES_SQL } from "../app/server/db/aggregate-sql.ts";
import { BENCH_STATE, devCookie, serveBuilt, type LocalServer } from "./lib/server.ts";
import { ms, percentile, timeRequests } from "./lib/stats.ts";
import { prng } from "../app/lib/prng.ts";

const STATE = BENCH_STATE;
const ENLARGED_STATE = `${BENCH_STATE}-200k`;
const PHASES = 2; // per database, alternating
const STUDENTS = 5_000;
const ATTEMPTS_PER_STUDENT = 40; // 200,000 attempts
const ANSWERS_PER_ATTEMPT = 5; // 1,000,000 answers
const FIRST_USER_ID = 1_000_000;
const REQUESTS = 100; // per endpoint and phase
const DAY = 86_400_000;

type Timing = { label: string; p50: number; p95: number };

// [label, path, who asks]. The admin's Utenti page is here too: it must not grow with the students either.
const ENDPOINTS = [
  ["GET /dashboard (SSR, signed in)", "/dashboard", "studente@example.com"],
  ["GET /api/me/analytics", "/api/me/analytics", "studente@example.com"],
  ["GET /api/admin/users?page=1 (Utenti tab)", "/api/admin/users?page=1&pageSize=50", "admin@example.com"],
  // Learning engine: the review of the day and the score forecast of the demo student.
  ["GET /api/review/due", "/api/review/due", "studente@example.com"],
  ["GET /api/me/forecast", "/api/me/forecast", "studente@example.com"],
] as const;

/** Request durations (ms) per endpoint, appended to `into`. */
async function sample(baseUrl: string, into: number[][]) {
  const cookies = new Map<string, string>();
  for (const [, , email] of ENDPOINTS) if (!cookies.has(email)) cookies.set(email, await devCookie(baseUrl, email));
  for (const [i, [, path, email]] of ENDPOINTS.entries()) {
    const cookie = cookies.get(email)!;
    into[i]!.push(...(await timeRequests(REQUESTS, () => fetch(`${baseUrl}${path}`, { headers: { cookie } }), 50)));
  }
}

const summarize = (samples: number[][]): Timing[] =>
  ENDPOINTS.map(([label], i) => ({ label, p50: percentile(samples[i]!, 50), p95: percentile(samples[i]!, 95) }));

function d1File(state: string): string {
  const dir = join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".sqlite") || name === "metadata.sqlite") continue;
    const db = new DatabaseSync(join(dir, name));
    const hasUsers = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'users'").get() as { n: number };
    db.close();
    if (hasUsers.n) return join(dir, name);
  }
  throw new Error(`no D1 database found in ${dir}`);
}

function loadSyntheticAttempts(file: string): { attempts: number; answers: number; memories: number; seconds: number } {
  const started = performance.now();
  const db = new DatabaseSync(file);
  const rand = prng(42);
  const questions = db.prepare("SELECT id, subject_id AS subjectId FROM questions WHERE active = 1").all() as {
    id: number;
    subjectId: number;
  }[];
  const bySubject = new Map<number, number[]>();
  for (const q of questions) bySubject.set(q.subjectId, [...(bySubject.get(q.subjectId) ?? []), q.id]);
  const subjects = [...bySubject.keys()];
  const now = Date.now();
  const firstAttempt = (db.prepare("SELECT coalesce(max(id), 0) + 1 AS n FROM attempts").get() as { n: number }).n;
  const firstAnswer = (db.prepare("SELECT coalesce(max(id), 0) + 1 AS n FROM attempt_answers").get() as { n: number })
    .n;
  const insertUser = db.prepare(
    "INSERT INTO users (id, email, name, username, role, status, share_code, created_at) VALUES (?, ?, ?, ?, 'studente', 'attivo', ?, ?)",
  );
  const insertAttempt = db.prepare(
    "INSERT INTO attempts (id, user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score) VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, ?, ?, 0, ?)",
  );
  const insertAnswer = db.prepare(
    "INSERT INTO attempt_answers (id, attempt_id, position, question_id, option_id, correct, time_sec, answered_at) VALUES (?, ?, ?, ?, 0, ?, 30, ?)",
  );
  const insertMemory = db.prepare(
    `INSERT INTO question_memory (user_id, question_id, due, stability, difficulty, scheduled_days, learning_steps, reps, lapses, state, last_review, last_correct)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let attemptId = firstAttempt;
  let answerId = firstAnswer;
  let memories = 0;
  db.exec("BEGIN");
  for (let s = 0; s < STUDENTS; s++) {
    const userId = FIRST_USER_ID + s;
    insertUser.run(
      userId,
      `bench${s}@bench.unicum.it`,
      `Studente Bench ${s}`,
      `bench${s}`,
      `B${userId}`,
      now - 90 * DAY,
    );
    const ability = 0.3 + rand() * 0.6;
    const reviews = new Map<number, ReviewInput[]>();
    for (let k = 0; k < ATTEMPTS_PER_STUDENT; k++) {
      const subjectId = subjects[Math.floor(rand() * subjects.length)]!;
      const pool = bySubject.get(subjectId)!;
      const total = 10;
      let correct = 0;
      const startedAt = Math.round(now - rand() * 60 * DAY);
      const id = attemptId++;
      const answers: [number, boolean][] = [];
      for (let i = 0; i < total; i++) {
        const ok = rand() < ability;
        if (ok) correct++;
        if (i < ANSWERS_PER_ATTEMPT) answers.push([pool[Math.floor(rand() * pool.length)]!, ok]);
      }
      const wrong = total - correct;
      const score = Math.round((correct * 31 * 10) / total - wrong) / 10;
      insertAttempt.run(id, userId, subjectId, startedAt, startedAt + 300_000, 300, total, correct, wrong, score);
      answers.forEach(([questionId, ok], position) => {
        insertAnswer.run(answerId++, id, position, questionId, ok ? 1 : 0, startedAt);
        reviews.set(questionId, [...(reviews.get(questionId) ?? []), { correct: ok, timeSec: 30, at: startedAt }]);
      });
    }
    // The learning engine's memories, replayed as recalc-stats does.
    for (const [questionId, list] of reviews) {
      const m = replayMemory(list)!;
      insertMemory.run(userId, questionId, ...memoryColumns(m));
      memories++;
    }
  }
  db.exec("COMMIT");
  // Bulk refresh of the site aggregates (what recalc-stats does after an import).
  for (const statement of REBUILD_AGGREGATES_SQL) db.exec(statement);
  db.close();
  return {
    attempts: attemptId - firstAttempt,
    answers: answerId - firstAnswer,
    memories,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Runs last: it stops `server` and serves the same build on the seed and on the enlarged database. */
export async function benchDashboard(server: LocalServer) {
  const port = Number(new URL(server.baseUrl).port);
  const seedSamples: number[][] = ENDPOINTS.map(() => []);
  const bigSamples: number[][] = ENDPOINTS.map(() => []);
  await sample(server.baseUrl, seedSamples);
  await server.stop();
  await new Promise((r) => setTimeout(r, 1000));

  rmSync(ENLARGED_STATE, { recursive: true, force: true });
  cpSync(STATE, ENLARGED_STATE, { recursive: true });
  const load = loadSyntheticAttempts(d1File(ENLARGED_STATE));
  console.log(
    `\nLoaded ${load.attempts.toLocaleString("en")} synthetic attempts from ${STUDENTS.toLocaleString("en")} students ` +
      `(${load.answers.toLocaleString("en")} answers, ${load.memories.toLocaleString("en")} question memories) and rebuilt the aggregates in ${load.seconds.toFixed(1)} s.`,
  );

  // Phases: seed (done above), enlarged, seed, enlarged.
  const order = [ENLARGED_STATE, STATE, ENLARGED_STATE];
  try {
    for (const state of order) {
      const running = await serveBuilt(port, state);
      try {
        await sample(running.baseUrl, state === STATE ? seedSamples : bigSamples);
      } finally {
        await running.stop();
      }
    }
  } finally {
    rmSync(ENLARGED_STATE, { recursive: true, force: true });
  }
  const before = summarize(seedSamples);
  const after = summarize(bigSamples);

  const rows = before.map((b, i) => {
    const a = after[i]!;
    return {
      what: b.label,
      requests: `${REQUESTS * PHASES} + ${REQUESTS * PHASES}`,
      "p95 seed": ms(b.p95),
      "p95 +200k attempts": ms(a.p95),
      "p95 ratio": (a.p95 / b.p95).toFixed(2),
      "p50 ratio": (a.p50 / b.p50).toFixed(2),
    };
  });
  console.log(
    "Server time, seed data vs +200,000 attempts from 5,000 students, alternating phases (goal: p95 ratio ≤ 1.5):",
  );
  console.table(rows);
  return {
    students: STUDENTS,
    attempts: load.attempts,
    answers: load.answers,
    before,
    after,
    ratioP95: rows.map((r) => ({ what: r.what, ratio: Number(r["p95 ratio"]) })),
  };
}
