// The teacher's live view of a class simulation (issue 32, point 3) through the real socket route and room: the staff
// socket gets the room's state and each pupil's row as they connect and answer (counts only: no answer, key or
// verdict while it runs), the scores of a subject once it has closed for everybody; a pupil, another teacher, a
// signed-out caller and a bad room are refused, and a pupil cannot ask for a staff socket with a header of their own.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { moveStart, roomOf } from "./room-socket";
import { call, json, login } from "./helpers";
import { seed } from "./helpers";

type Msg = Record<string, unknown> & { type: string };

const base = 7_300_000 + Math.floor(Math.random() * 100_000);
const ids = { teacher: base, other: base + 1, a: base + 2, b: base + 3 };
let tokens: { teacher: string; other: string; a: string; b: string; admin: string };
let classId: number;

async function user(id: number, role: string, name: string) {
  await env.DB.prepare("INSERT INTO users (id, email, name, role, status) VALUES (?, ?, ?, ?, 'attivo')")
    .bind(id, `live-${id}@example.com`, name, role)
    .run();
  return login(`live-${id}@example.com`);
}

/** A socket with every message it received and a way to wait for the next one matching a test. */
async function connect(path: string, token?: string, headers: Record<string, string> = {}) {
  const all: Record<string, string> = { Upgrade: "websocket", ...headers };
  if (token) all.Authorization = `Bearer ${token}`;
  const response = await exports.default.fetch(`http://localhost${path}`, { headers: all });
  const messages: Msg[] = [];
  const raw: string[] = [];
  if (response.status !== 101) return { response, ws: null, messages, raw, until: async () => ({}) as Msg };
  const ws = response.webSocket!;
  ws.accept();
  const waiters: { test: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  ws.addEventListener("message", (event) => {
    raw.push(event.data as string);
    const m = JSON.parse(event.data as string) as Msg;
    messages.push(m);
    for (const w of [...waiters])
      if (w.test(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
  });
  /** The first message (already received or coming) that passes `test`. */
  const until = (test: (m: Msg) => boolean) =>
    new Promise<Msg>((resolve, reject) => {
      const found = messages.find(test);
      if (found) return resolve(found);
      waiters.push({ test, resolve });
      setTimeout(() => reject(new Error("no such message")), 5000);
    });
  return { response, ws, messages, raw, until };
}

const staffPath = (id: string, shard?: string) =>
  `/api/simulations/${id}/staff/ws${shard === undefined ? "" : `?shard=${shard}`}`;

/** A class simulation of the teacher: Chimica then Fisica, 1 minute each, two questions each. */
async function classSimulation(id: string) {
  const response = await call("POST", "/api/admin/simulations", {
    token: tokens.teacher,
    json: {
      id,
      title: `Dal vivo ${id}`,
      subjects: [
        { subjectId: 2, timeMin: 1, questionCount: 2 },
        { subjectId: 4, timeMin: 1, questionCount: 2 },
      ],
      allowedClasses: [classId],
    },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const keys = await env.DB.prepare(
    `SELECT q.id, q.subject_id, q.type, q.options, q.correct_index, q.accepted_answers, sq.subject_position AS pos
     FROM simulation_questions sq JOIN questions q ON q.id = sq.question_id WHERE sq.simulation_id = ?
     ORDER BY sq.subject_position, sq.position`,
  )
    .bind(id)
    .all<{
      id: number;
      subject_id: number;
      type: string;
      options: string | null;
      correct_index: number | null;
      accepted_answers: string | null;
      pos: number;
    }>();
  return keys.results;
}

beforeAll(async () => {
  await seed();
  tokens = {
    teacher: await user(ids.teacher, "docente", "Prof Diretta"),
    other: await user(ids.other, "docente", "Prof Vicina"),
    a: await user(ids.a, "studente", "Alba Diretta"),
    b: await user(ids.b, "studente", "Bea Diretta"),
    admin: await login("admin@example.com"),
  };
  const created = await call("POST", "/api/classes", { token: tokens.teacher, json: { name: "Diretta 5ªC" } });
  classId = (await json<{ id: number; code: string }>(created)).id;
  const code = (await env.DB.prepare("SELECT code FROM classes WHERE id = ?").bind(classId).first<{ code: string }>())!
    .code;
  for (const token of [tokens.a, tokens.b])
    expect((await call("POST", "/api/classes/join", { token, json: { code } })).status).toBe(200);
});

describe("the teacher's live view", () => {
  it("refuses a pupil, another teacher, no session, a plain request and a room that does not exist", async () => {
    await classSimulation("live-guard");
    const pupil = await connect(staffPath("live-guard"), tokens.a);
    expect(pupil.response.status).toBe(403);
    const other = await connect(staffPath("live-guard"), tokens.other);
    expect(other.response.status).toBe(403);
    expect(await other.response.json()).toEqual({ error: "Puoi gestire solo le simulazioni che hai creato." });
    expect((await connect(staffPath("live-guard"))).response.status).toBe(401);
    expect((await connect(staffPath("live-nessuna"), tokens.teacher)).response.status).toBe(404);
    const badShard = await connect(staffPath("live-guard", "3"), tokens.teacher);
    expect(badShard.response.status).toBe(400);
    expect(((await badShard.response.json()) as { error: string }).error).toMatch(/Stanza non valida/);
    const plain = await exports.default.fetch(`http://localhost${staffPath("live-guard")}`, {
      headers: { Authorization: `Bearer ${tokens.teacher}` },
    });
    expect(plain.status).toBe(426);
    // The teacher and an admin get the room's state.
    for (const token of [tokens.teacher, tokens.admin]) {
      const ok = await connect(staffPath("live-guard", "0"), token);
      expect(ok.response.status).toBe(101);
      expect(await ok.until((m) => m.type === "live-state")).toMatchObject({ started: false, pupils: [] });
      ok.ws!.close(1000, "fine");
    }
    // A pupil asking for a staff socket with their own header gets a candidate's socket, not the class's state.
    const forged = await connect("/api/simulations/live-guard/ws", tokens.a, { "X-Unicum-Staff": "1" });
    expect(forged.response.status).toBe(101);
    await forged.until((m) => m.type === "hello");
    expect(forged.messages.some((m) => m.type === "live-state")).toBe(false);
    forged.ws!.close(1000, "fine");
  });

  it("shows pupils connecting and answering (counts only), then the scores of the first subject once it has closed", async () => {
    const questions = await classSimulation("live-run");
    const staff = await connect(staffPath("live-run"), tokens.teacher);
    expect(staff.response.status).toBe(101);
    await staff.until((m) => m.type === "live-state");

    const a = await connect("/api/simulations/live-run/ws", tokens.a);
    await a.until((m) => m.type === "hello");
    expect(
      await staff.until((m) => m.type === "live-pupil" && (m.pupil as { userId: number }).userId === ids.a),
    ).toMatchObject({ pupil: { userId: ids.a, connected: true, submitted: false } });
    const b = await connect("/api/simulations/live-run/ws", tokens.b);
    await b.until((m) => m.type === "hello");
    await staff.until((m) => m.type === "live-pupil" && (m.pupil as { userId: number }).userId === ids.b);

    expect((await call("POST", "/api/admin/simulations/live-run/start", { token: tokens.teacher })).status).toBe(200);
    await staff.until((m) => m.type === "simulation-start");
    await moveStart("live-run", Date.now() - 1000);

    // A answers both Chimica questions right, B one wrong.
    const chem = questions.filter((q) => q.pos === 0);
    const right = (q: (typeof questions)[number]) =>
      q.type === "mc" ? JSON.parse(q.options!)[q.correct_index!] : JSON.parse(q.accepted_answers!)[0];
    const wrong = (q: (typeof questions)[number]) =>
      q.type === "mc" ? JSON.parse(q.options!)[(q.correct_index! + 1) % JSON.parse(q.options!).length] : "sbagliata";
    for (const [i, q] of chem.entries()) {
      a.ws!.send(
        JSON.stringify({ type: "answer", seq: i, subjectId: q.subject_id, questionId: q.id, value: right(q) }),
      );
      await a.until((m) => m.type === "ack" && m.seq === i);
    }
    b.ws!.send(
      JSON.stringify({
        type: "answer",
        seq: 1,
        subjectId: chem[0]!.subject_id,
        questionId: chem[0]!.id,
        value: wrong(chem[0]!),
      }),
    );
    await b.until((m) => m.type === "ack");
    const rowA = await staff.until(
      (m) => m.type === "live-pupil" && (m.pupil as { userId: number; answered: number[] }).answered[0] === 2,
    );
    expect(rowA).toEqual({
      type: "live-pupil",
      pupil: { userId: ids.a, connected: true, submitted: false, answered: [2, 0], closedThrough: 0 },
    });
    await staff.until(
      (m) =>
        m.type === "live-pupil" &&
        (m.pupil as { userId: number; answered: number[] }).userId === ids.b &&
        (m.pupil as { answered: number[] }).answered[0] === 1,
    );

    // The staff socket cannot answer.
    staff.ws!.send(
      JSON.stringify({ type: "answer", seq: 9, subjectId: chem[1]!.subject_id, questionId: chem[1]!.id, value: "x" }),
    );
    expect(await staff.until((m) => m.type === "error")).toEqual({ type: "error", error: "Messaggio non valido." });

    // B leaves: the teacher sees it.
    b.ws!.close(1000, "via");
    await staff.until(
      (m) =>
        m.type === "live-pupil" &&
        (m.pupil as { userId: number; connected: boolean }).userId === ids.b &&
        !(m.pupil as { connected: boolean }).connected,
    );

    // Nothing sent so far carries an answer, a key or a verdict.
    const secrets = chem.flatMap((q) => [right(q), wrong(q)]).filter((v) => v.length > 3);
    for (const text of staff.raw) {
      for (const secret of secrets) expect(text).not.toContain(JSON.stringify(secret));
      expect(text).not.toMatch(/correct|accepted|options|scores":\[\{/);
    }

    // Chimica closes for everybody: the state carries each participant's score in it (A 31, B −0,1 → 0).
    await moveStart("live-run", Date.now() - 60_000 - 3000);
    expect(await runDurableObjectAlarm(roomOf("live-run"))).toBe(true);
    const state = await staff.until((m) => m.type === "live-state" && m.closedThrough === 1);
    expect((state.scores as { userId: number; scores: number[] }[]).sort((x, y) => x.userId - y.userId)).toEqual([
      { userId: ids.a, scores: [31] },
      { userId: ids.b, scores: [0] },
    ]);
    expect(state.pupils).toEqual(
      expect.arrayContaining([
        { userId: ids.a, connected: true, submitted: false, answered: [2, 0], closedThrough: 1 },
        { userId: ids.b, connected: false, submitted: false, answered: [1, 0], closedThrough: 1 },
      ]),
    );

    // The admin's summary does not count the teacher's socket as a candidate.
    const live = await json<{ total: { connected: number } }>(
      await call("GET", "/api/admin/simulations/live-run/live", { token: tokens.admin }),
    );
    expect(live.total.connected).toBe(1);
    for (const s of [a, staff]) s.ws!.close(1000, "fine");
  });
});
