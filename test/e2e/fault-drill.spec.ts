// Fault drill: the local server process is killed (SIGKILL, the whole process group) and started again on the
// same state.
// 1. In the middle of a sharded simulation: the clients reconnect to their rooms; every acknowledged answer is in
//    the final grading, nobody is graded twice, and the deadline still holds (the room's alarm closes the subject and
//    grades on time after the restart).
// 2. Right after the room took a browser's answer (workers/room/answers.ts: an accepted answer waits
//    ANSWER_BATCH_MS for others, then is written, then acknowledged): the test relays the page's socket, sends a
//    ping behind the answer and kills the process when the pong comes back, so the room had taken the answer and
//    the browser has no ack. The acknowledged answer survives; the unacknowledged one is resent by the browser when
//    its socket comes back, and the room keeps it. Whether the process died before the write (inside the 4 ms
//    window) or just after it depends on the machine's scheduling, through two processes: the drill reads the
//    storage after the restart and checks each case. The page's socket is closed as a release closes it (1012 with the
//    window to come back over, app/lib/simulation-protocol.ts): however long the outage, the browser is back within
//    that window once the server is. The crash inside the window made exact (time held still),
//    a stored alarm that fires with nobody connected, and a hibernated room woken by an answer are in
//    test/integration/simulation-room.test.ts, where the runtime's timers, eviction and alarms can be driven; a
//    release restarting a room with every socket open is test/integration/deploy-drill.test.ts.
// It runs its own `vite preview` (its project's port + 100, state .wrangler/drill-state-<project>: test/e2e/servers.ts)
// on the build the e2e web server has just made, so that killing it does not disturb the other tests.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WebSocketRoute } from "@playwright/test";
import { comebackReason, RESTART_CLOSE_CODE } from "../../app/lib/simulation-protocol.ts";
import { allowConsoleError, expect, test } from "./fixtures";
import { drillServer, SEED_DIR } from "./servers";

// Set in beforeAll from the running project's server (two projects run at once, each with its own drill server).
let PORT = 0;
let BASE = "";
let STATE = "";
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

async function whenDown() {
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

// The drill's own state: the seed and a crowd of students (with the demo ones, more than 1,000: two rooms).
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern
test.beforeAll(({}, testInfo) => {
  ({ port: PORT, baseURL: BASE, state: STATE } = drillServer(testInfo.project.use.baseURL!, testInfo.project.name));
  rmSync(STATE, { recursive: true, force: true });
  // A copy of the seed the e2e web server made (test/e2e/serve.ts --keep-seed); seeded afresh when there is none.
  if (existsSync(SEED_DIR)) cpSync(SEED_DIR, STATE, { recursive: true });
  else execFileSync(process.execPath, ["scripts/db-setup.ts", "--persist-to", STATE], { stdio: "ignore", env });
  const values = Array.from(
    { length: CROWD },
    (_, i) => `(${CROWD_FIRST_ID + i}, 'prova-${i}@example.com', 'Prova ${i}')`,
  ).join(",\n");
  const file = join(tmpdir(), `unicum-drill-${process.pid}.sql`);
  writeFileSync(file, `INSERT OR IGNORE INTO users (id, email, name) VALUES\n${values};`);
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", STATE, "--file", file, "--config", "wrangler.jsonc"],
    { stdio: "ignore", env },
  );
  rmSync(file, { force: true });
});

test("fault drill: the server is killed mid-simulation and restarted; acknowledged answers are graded once and the deadline holds", async () => {
  test.setTimeout(180_000);
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
    await whenDown();
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

/** A frame on a routed socket: which socket (1, 2, … in the order the page opened them), which way, what. */
type Frame = { socket: number; from: "browser" | "room"; m: Msg };
/** The ping the drill sends behind an answer; its pong is not passed on to the page (its clock would take it). */
const PROBE = -424242;
/** The page's socket is closed as a release closes it: come back within this window. */
const RELEASE_WINDOW_MS = 2000;
const RELEASE_CLOSE = { code: RESTART_CLOSE_CODE, reason: comebackReason(RELEASE_WINDOW_MS) };

test("fault drill: the server is killed right after the room took an answer; the acknowledged answer survives, the browser resends the other", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // While the server is down the page's polls fail: the browser logs the refused connections.
  allowConsoleError(/ERR_CONNECTION_REFUSED|Failed to fetch|NetworkError|ERR_EMPTY_RESPONSE/);
  let server = startServer();
  try {
    await whenServing(server);
    const admin = await signIn("admin@example.com");
    const simId = `drill-commit-${Date.now()}`;
    const created = await fetch(`${BASE}/api/admin/simulations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", cookie: admin.cookie },
      body: JSON.stringify({
        id: simId,
        title: "Esercitazione guasto al salvataggio",
        subjects: [{ subjectId: 2, timeMin: 5, questions: [2001, 2002, 2003] }],
        allowedUsers: [1],
      }),
    });
    expect(created.status).toBe(201);

    // The student's browser, its socket relayed by the test (a socket of the test's own to the room, with the
    // browser's cookie): every frame is seen, and the process is killed as soon as the room has answered. While
    // `gate` is shut, a socket the page opens is closed at once (the server is down).
    const context = await browser.newContext({ baseURL: BASE });
    const student = await context.request.post("/api/auth/dev", { data: { email: "studente@example.com" } });
    expect(student.status()).toBe(200);
    const cookie = (await context.cookies(BASE)).map((c) => `${c.name}=${c.value}`).join("; ");
    const page = await context.newPage();
    const frames: Frame[] = [];
    const wire = {
      sockets: 0,
      gate: true,
      /** The question whose answer the process is killed behind, once the room has taken it. */
      armed: null as number | null,
      /** The socket the armed answer went through. */
      armedSocket: 0,
      killed: false,
      /** An ack of the armed answer the room sent before it died: the browser never gets it (lost with the process). */
      withheld: [] as Msg[],
      /** The address of each socket the page opened (a reconnect after the start carries ?resume=), and when. */
      urls: [] as string[],
      openedAt: [] as number[],
    };
    // A reconnect carries the room's resume token (?resume=): relayed as the page sent it.
    await page.routeWebSocket(/\/api\/simulations\/[^/]+\/ws(\?.*)?$/, (ws: WebSocketRoute) => {
      const socket = ++wire.sockets;
      wire.urls.push(ws.url());
      wire.openedAt.push(Date.now());
      if (!wire.gate) {
        void ws.close(RELEASE_CLOSE);
        return;
      }
      const room = new WebSocket(
        `${BASE.replace("http", "ws")}/api/simulations/${simId}/ws${new URL(ws.url()).search}`,
        {
          headers: { cookie },
        } as unknown as string[],
      );
      const queued: string[] = [];
      const toRoom = (text: string) => (room.readyState === WebSocket.OPEN ? room.send(text) : queued.push(text));
      room.onopen = () => {
        for (const text of queued.splice(0)) room.send(text);
      };
      ws.onMessage((message) => {
        const m = JSON.parse(String(message)) as Msg;
        frames.push({ socket, from: "browser", m });
        toRoom(String(message));
        // Right behind the armed answer, on the same socket, a ping: the room answers it at once, while the answer
        // it has just taken waits (ANSWER_BATCH_MS) for its batch to be written. The pong is the moment to kill.
        if (m.type === "answer" && m.questionId === wire.armed && !wire.killed) {
          wire.armedSocket = socket;
          toRoom(JSON.stringify({ type: "ping", t0: PROBE }));
        }
      });
      room.onmessage = (event) => {
        const m = JSON.parse(String(event.data)) as Msg;
        if (m.type === "pong" && m.t0 === PROBE) {
          if (wire.armed !== null && !wire.killed) {
            kill(server);
            wire.killed = true;
          }
          return;
        }
        if (socket === wire.armedSocket && m.type === "ack" && m.questionId === wire.armed) {
          wire.withheld.push(m);
          return;
        }
        frames.push({ socket, from: "room", m });
        void ws.send(String(event.data));
      };
      room.onclose = () => void ws.close(RELEASE_CLOSE);
      ws.onClose(() => room.close());
    });
    const answersSent = (socket: (n: number) => boolean, questionId: number) =>
      frames.filter(
        (f) => socket(f.socket) && f.from === "browser" && f.m.type === "answer" && f.m.questionId === questionId,
      );
    const acks = (socket: (n: number) => boolean, questionId: number) =>
      frames.filter(
        (f) => socket(f.socket) && f.from === "room" && f.m.type === "ack" && f.m.questionId === questionId,
      );

    await page.goto(`/simulazione?id=${simId}`);
    await expect(page.getByTestId("sim-waiting")).toBeVisible();
    const started = await fetch(`${BASE}/api/admin/simulations/${simId}/start`, {
      method: "POST",
      headers: { cookie: admin.cookie },
    });
    expect(started.status).toBe(200);
    await expect(page.getByTestId("sim-exam")).toBeVisible({ timeout: 20_000 });

    /** Option `n` of the question on screen: the question's id, the value it sends, and a click on it. */
    const choose = async (n: number) => {
      const option = page.getByRole("radiogroup").locator("label").nth(n);
      const questionId = Number((await option.locator("input").getAttribute("name"))!.slice("q-".length));
      const value = (await option.locator("span").nth(1).textContent())!;
      return { questionId, value, click: () => option.click() };
    };

    // First question: answered and acknowledged ("Salvata").
    const first = await choose(0);
    await first.click();
    await expect(page.getByTestId("sim-save-state")).toHaveAttribute("data-state", "saved");
    expect(acks(() => true, first.questionId)).toHaveLength(1);

    // Second question: the process is killed once the room has taken the answer (its pong came back).
    await page.getByRole("button", { name: "Avanti" }).click();
    const second = await choose(1);
    wire.armed = second.questionId;
    await second.click();
    await expect.poll(() => wire.killed, { timeout: 10_000 }).toBe(true);
    wire.gate = false;
    const killedSocket = wire.sockets;
    await whenDown();
    expect(answersSent((n) => n === killedSocket, second.questionId).map((f) => f.m.value)).toEqual([second.value]);
    // The browser got no ack for it: it still says "Salvataggio…".
    expect(acks(() => true, second.questionId)).toEqual([]);
    await expect(page.getByTestId("sim-save-state")).toHaveAttribute("data-state", "pending");

    server = startServer();
    await whenServing(server);
    // Before the browser is let back in, the room's storage (what another device of the student reads in its
    // hello): the acknowledged answer survived. The other is there only if the room wrote it before it died (the
    // ack, if sent, died with the connection); killed inside the commit window it is not there.
    const me = await signIn("studente@example.com");
    const probe = new Student(me.id, me.cookie, simId);
    const stored = (await probe.connect()).answers as Record<string, Record<string, string>>;
    probe.ws!.close();
    const insideWindow = stored["2"]?.[second.questionId] === undefined;
    expect(stored).toEqual({
      "2": { [first.questionId]: first.value, ...(insideWindow ? {} : { [second.questionId]: second.value }) },
    });
    // An ack the room sent before it died (withheld from the browser, as if lost in transit) means it was written.
    if (wire.withheld.length) expect(insideWindow, "the room acknowledged an answer it had not kept").toBe(false);
    console.log(
      insideWindow
        ? "fault drill: the process died inside the commit window (the answer was taken, not written)"
        : "fault drill: the process died after the write, before its ack reached the browser",
    );

    // The browser's socket comes back by itself, within the release's window however long the outage was: it resends
    // the unacknowledged answer (only that one), and the room acknowledges it.
    wire.gate = true;
    const reopenedAt = Date.now();
    await expect(page.getByTestId("sim-save-summary")).toHaveText("Tutte le risposte sono salvate", {
      timeout: 60_000,
    });
    await expect(page.getByTestId("sim-save-state")).toHaveAttribute("data-state", "saved");
    const after = (n: number) => n > killedSocket;
    expect(answersSent(after, second.questionId).map((f) => f.m.value)).toContain(second.value);
    expect(acks(after, second.questionId).length).toBeGreaterThan(0);
    expect(answersSent(after, first.questionId)).toEqual([]);
    const back = wire.openedAt.find((at) => at >= reopenedAt)!;
    expect(back - reopenedAt).toBeLessThan(RELEASE_WINDOW_MS + 3000); // its timers' slack on a busy machine
    // It came back with the resume token the room gave at the start (no session lookup), valid across the restart.
    expect(wire.urls.slice(killedSocket).some((url) => new URL(url).searchParams.has("resume"))).toBe(true);

    // The room keeps both: what another device of the student reads in its hello.
    const check = new Student(me.id, me.cookie, simId);
    expect((await check.connect()).answers).toEqual({
      "2": { [first.questionId]: first.value, [second.questionId]: second.value },
    });
    check.ws!.close();
    await context.close();
  } finally {
    kill(server);
  }
});
