// Fault drill: the local server process is killed (SIGKILL, the whole process group) in the middle of a
// sharded simulation and started again on the same state. The clients reconnect to their rooms; every
// acknowledged answer is in the final grading, nobody is graded twice, and the deadline still holds
// (the room's alarm closes the subject and grades on time after the restart).
// It runs its own `vite preview` (port E2E_PORT + 100, state .wrangler/drill-state) on the build the
// e2e web server has just made, so that killing it does not disturb the other tests.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 4319) + 100;
const BASE = `http://localhost:${PORT}`;
const STATE = join(".wrangler", "drill-state");
const CROWD = 1000; // with the demo students, more than 1,000 allowed: two rooms
const CROWD_FIRST_ID = 900_001;
const GRACE_MS = 2000;
const env = { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

type Msg = Record<string, unknown> & { type: string };

function startServer(): ChildProcess {
  return spawn(join("node_modules", ".bin", "vite"), ["preview", "--port", String(PORT), "--strictPort"], {
    stdio: "ignore",
    detached: true,
    env: { ...env, UNICUM_STATE_DIR: STATE },
  });
}

async function whenServing(child: ChildProcess) {
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        return fetch(`${BASE}/login`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(true);
}

function kill(child: ChildProcess) {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

/** A student's socket: every message with its arrival time, reconnectable after the crash. */
class Student {
  ws: WebSocket | null = null;
  messages: (Msg & { at: number })[] = [];
  constructor(
    readonly userId: number,
    readonly cookie: string,
    readonly simId: string,
  ) {}

  async connect() {
    this.messages = [];
    const ws = new WebSocket(`${BASE.replace("http", "ws")}/api/simulations/${this.simId}/ws`, {
      headers: { cookie: this.cookie },
    } as unknown as string[]);
    ws.onmessage = (event) => this.messages.push({ ...(JSON.parse(String(event.data)) as Msg), at: Date.now() });
    this.ws = ws;
    return this.next("hello");
  }

  async next(type: string, match: (m: Msg) => boolean = () => true, timeout = 20_000) {
    let found: Msg | undefined;
    await expect
      .poll(() => (found = this.messages.find((m) => m.type === type && match(m))) !== undefined, {
        timeout,
        intervals: [50],
      })
      .toBe(true);
    return found as Msg & { at: number };
  }

  send(m: unknown) {
    this.ws!.send(JSON.stringify(m));
  }
}

async function signIn(email: string) {
  const response = await fetch(`${BASE}/api/auth/dev`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: number } };
  return { id: body.user.id, cookie: response.headers.get("set-cookie")!.split(";")[0]! };
}

test("fault drill: the server is killed mid-simulation and restarted; acknowledged answers are graded once and the deadline holds", async () => {
  test.setTimeout(180_000);
  rmSync(STATE, { recursive: true, force: true });
  execFileSync(process.execPath, ["scripts/db-setup.ts", "--persist-to", STATE], { stdio: "ignore", env });
  const values = Array.from(
    { length: CROWD },
    (_, i) => `(${CROWD_FIRST_ID + i}, 'prova-${i}@example.com', 'Prova ${i}')`,
  ).join(",\n");
  const file = join(tmpdir(), `unicum-drill-${process.pid}.sql`);
  writeFileSync(file, `INSERT OR IGNORE INTO users (id, email, name) VALUES\n${values};`);
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", STATE, "--file", file],
    { stdio: "ignore", env },
  );
  rmSync(file, { force: true });

  let server = startServer();
  try {
    await whenServing(server);
    const admin = await signIn("admin@example.com");
    // Six students, three per room (shard = user id % 2).
    const people = [await signIn("studente@example.com"), await signIn("amico@example.com")];
    for (let i = 0; i < 4; i++) people.push(await signIn(`prova-${i}@example.com`));
    const simId = `drill-${Date.now()}`;
    const created = await fetch(`${BASE}/api/admin/simulations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", cookie: admin.cookie },
      body: JSON.stringify({
        id: simId,
        title: "Esercitazione guasto",
        subjects: [{ subjectId: 2, timeMin: 1, questions: [2001, 2005] }],
        allowedUsers: [1, 2, ...Array.from({ length: CROWD }, (_, i) => CROWD_FIRST_ID + i)],
      }),
    });
    expect(created.status).toBe(201);
    const students = people.map((p) => new Student(p.id, p.cookie, simId));
    await Promise.all(students.map((s) => s.connect()));

    const started = await fetch(`${BASE}/api/admin/simulations/${simId}/start`, {
      method: "POST",
      headers: { cookie: admin.cookie },
    });
    const { startTime, shards, endsAt } = (await started.json()) as {
      startTime: number;
      shards: number;
      endsAt: number;
    };
    expect(shards).toBe(2);
    for (const s of students) expect((await s.next("simulation-start")).startTime).toBe(startTime);
    await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(startTime + 100);

    // The questions as a student sees them (no key): one option of the mc question.
    const view = (await (
      await fetch(`${BASE}/api/simulations/${simId}`, { headers: { cookie: people[0]!.cookie } })
    ).json()) as {
      flow: { questions: { id: number; options?: string[] }[] }[];
    };
    const options = view.flow[0]!.questions.find((q) => q.id === 2001)!.options!;
    // Every student answers the mc question; the room acknowledges each.
    for (const [i, s] of students.entries())
      s.send({ type: "answer", seq: 1, subjectId: 2, questionId: 2001, value: options[i % options.length] });
    for (const s of students) await s.next("ack", (m) => m.seq === 1);

    // Crash: the whole server process group, without a chance to clean up. Then start it again.
    kill(server);
    await expect
      .poll(
        () =>
          fetch(`${BASE}/login`).then(
            () => "up",
            () => "down",
          ),
        { timeout: 15_000 },
      )
      .toBe("down");
    server = startServer();
    await whenServing(server);
    expect(Date.now()).toBeLessThan(endsAt - 5000); // the restart happened within the subject

    // Everyone reconnects to the same room and finds the acknowledged answer in its hello.
    for (const [i, s] of students.entries()) {
      const hello = await s.connect();
      expect(hello).toMatchObject({
        started: true,
        startTime,
        graded: false,
        answers: { "2": { "2001": options[i % options.length] } },
      });
    }
    for (const s of students) s.send({ type: "answer", seq: 2, subjectId: 2, questionId: 2005, value: "neutroni" });
    for (const s of students) await s.next("ack", (m) => m.seq === 2);

    // The deadline holds: the room closes the subject at endsAt + grace and grades, by its own alarm.
    for (const s of students) {
      const end = await s.next("simulation-end", () => true, endsAt + GRACE_MS + 30_000 - Date.now());
      expect(end.at).toBeGreaterThanOrEqual(endsAt + GRACE_MS);
      expect(end.at).toBeLessThan(endsAt + GRACE_MS + 15_000);
    }
    students[0]!.send({ type: "answer", seq: 3, subjectId: 2, questionId: 2005, value: "protoni" });
    expect(await students[0]!.next("rejected", (m) => m.seq === 3)).toMatchObject({
      error: "Tempo scaduto per questa materia: la risposta non è stata salvata.",
    });

    // One attempt per student, each with both acknowledged answers graded (2 of 2 answered).
    const attempts = (await (
      await fetch(`${BASE}/api/admin/simulations/${simId}/attempts`, { headers: { cookie: admin.cookie } })
    ).json()) as { userId: number }[];
    expect(attempts.map((a) => a.userId).sort((a, b) => a - b)).toEqual(people.map((p) => p.id).sort((a, b) => a - b));
    for (const p of people) {
      const mine = await fetch(`${BASE}/api/simulations/${simId}/attempt`, {
        method: "POST",
        headers: { "Content-Type": "application/json", cookie: p.cookie },
        body: JSON.stringify({ answers: {}, timeTaken: 60 }),
      });
      expect(mine.status).toBe(200);
      const { result } = (await mine.json()) as {
        result: { subjects: { correct: number; wrong: number; total: number }[] };
      };
      expect(result.subjects[0]!.correct + result.subjects[0]!.wrong).toBe(2);
      expect(result.subjects[0]!.correct).toBeGreaterThanOrEqual(1); // "neutroni" is right
    }
    const live = (await (
      await fetch(`${BASE}/api/admin/simulations/${simId}/live`, { headers: { cookie: admin.cookie } })
    ).json()) as { total: { gradedRooms: number; attempts: number } };
    expect(live.total).toMatchObject({ gradedRooms: 2, attempts: people.length });
    for (const s of students) s.ws?.close();
  } finally {
    kill(server);
  }
});
