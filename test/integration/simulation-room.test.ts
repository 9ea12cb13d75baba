// The SimulationRoom Durable Object through its real socket route: start broadcast, late joiners,
// deadlines, autosave across eviction, one-time grading, allowed users, no answer keys before the end;
// and with nobody in memory: a crash inside the commit window, a stored alarm that fires with no socket connected,
// a hibernated room woken by an answer.
import {
  abortAllDurableObjects,
  env,
  evictDurableObject,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { SIMULATION_GRACE_MS } from "~/lib/constants";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";
import { moveStart, roomOf } from "./room-socket";
import { call, count, json, login, seed } from "./helpers";

let admin: string;
let student: string;
let friend: string;
const STUDENT_ID = 1;
const FRIEND_ID = 2;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  student = await login("studente@example.com");
  friend = await login("amico@example.com");
});

type Msg = Record<string, unknown> & { type: string };

/** A socket to a room, with every message it received and a way to wait for the next of a type. */
async function connect(simId: string, token?: string) {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await exports.default.fetch(`http://localhost/api/simulations/${simId}/ws`, { headers });
  if (response.status !== 101)
    return { response, ws: null, messages: [] as Msg[], next: async () => ({}) as Msg, send: () => {} };
  const ws = response.webSocket!;
  ws.accept();
  const messages: Msg[] = [];
  const waiters: { type: string; seen: number; resolve: (m: Msg) => void }[] = [];
  ws.addEventListener("message", (event) => {
    const m = JSON.parse(event.data as string) as Msg;
    messages.push(m);
    for (const w of [...waiters]) {
      const found = messages.filter((x) => x.type === w.type)[w.seen];
      if (found) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(found);
      }
    }
  });
  const consumed: Record<string, number> = {};
  const next = (type: string) =>
    new Promise<Msg>((resolve, reject) => {
      const seen = consumed[type] ?? 0;
      consumed[type] = seen + 1;
      const already = messages.filter((x) => x.type === type)[seen];
      if (already) return resolve(already);
      waiters.push({ type, seen, resolve });
      setTimeout(() => reject(new Error(`no ${type} message`)), 5000);
    });
  const send = (m: unknown) => ws.send(JSON.stringify(m));
  return { response, ws, messages, next, send };
}

async function createSimulation(
  id: string,
  subjects = [
    { subjectId: 2, timeMin: 1, questionCount: 4 },
    { subjectId: 4, timeMin: 1, questionCount: 4 },
  ],
) {
  const response = await call("POST", "/api/admin/simulations", {
    token: admin,
    json: { id, title: `Prova ${id}`, subjects, allowedUsers: [STUDENT_ID] },
  });
  expect(response.status).toBe(201);
  const flow = (await json<{ flow: { id: number }[] }>(await call("GET", `/api/simulations/${id}`, { token: student })))
    .flow;
  const keys = await env.DB.prepare(
    `SELECT q.id, q.type, q.options, q.correct_index, q.accepted_answers, sq.subject_position AS pos FROM simulation_questions sq
     JOIN questions q ON q.id = sq.question_id WHERE sq.simulation_id = ? ORDER BY sq.subject_position, sq.position`,
  )
    .bind(id)
    .all<{
      id: number;
      type: string;
      options: string | null;
      correct_index: number | null;
      accepted_answers: string | null;
      pos: number;
    }>();
  return { flow, questions: keys.results };
}

describe("SimulationRoom", () => {
  it("answers a time-sync ping with its own clock", async () => {
    await createSimulation("sim-ping");
    const s = await connect("sim-ping", student);
    expect(s.response.status).toBe(101);
    await s.next("hello");
    const before = Date.now();
    s.send({ type: "ping", t0: 123 });
    const pong = await s.next("pong");
    expect(pong.t0).toBe(123);
    expect(Number(pong.serverTime)).toBeGreaterThanOrEqual(before - 5);
    s.ws!.close(1000, "done");
  });

  it("refuses without a session (401), a plain HTTP request (426), an unknown simulation (404), a user not allowed (403)", async () => {
    await createSimulation("sim-guard");
    expect((await connect("sim-guard")).response.status).toBe(401);
    const plain = await exports.default.fetch("http://localhost/api/simulations/sim-guard/ws", {
      headers: { Authorization: `Bearer ${student}` },
    });
    expect(plain.status).toBe(426);
    expect((await connect("sim-nessuna", student)).response.status).toBe(404);
    const refused = await connect("sim-guard", friend);
    expect(refused.response.status).toBe(403);
    expect(await refused.response.json()).toEqual({ error: "Non sei abilitato a questa simulazione" });
    expect((await call("GET", "/api/simulations/sim-guard", { token: friend })).status).toBe(403);
  });

  it("broadcasts simulation-start {id, startTime} a few seconds ahead to every client; a late joiner gets it at once", async () => {
    await createSimulation("sim-start");
    const a = await connect("sim-start", student);
    const watcher = await connect("sim-start", admin);
    expect((await a.next("hello")).started).toBe(false);
    const before = Date.now();
    const started = await call("POST", "/api/admin/simulations/sim-start/start", { token: admin });
    expect(started.status).toBe(200);
    const startMsgA = await a.next("simulation-start");
    const startMsgW = await watcher.next("simulation-start");
    // The candidate's own start also says their extra time and when the room ends (the watcher is an admin).
    expect(startMsgA).toEqual({
      type: "simulation-start",
      id: "sim-start",
      startTime: startMsgW.startTime,
      extraTimePct: 0,
      roomEndsAt: Number(startMsgW.startTime) + 2 * 60_000,
      resume: expect.any(String), // reconnects during the day need no D1 (room-resume.test.ts)
    });
    expect(Number(startMsgA.startTime)).toBeGreaterThan(before + 2000);
    expect(Number(startMsgA.startTime)).toBeLessThan(before + 10_000);
    const late = await connect("sim-start", student);
    const hello = await late.next("hello");
    expect(hello).toMatchObject({ started: true, startTime: startMsgA.startTime, id: "sim-start" });
    // A second start is refused and does not move the start.
    expect((await call("POST", "/api/admin/simulations/sim-start/start", { token: admin })).status).toBe(409);
    const row = await env.DB.prepare("SELECT start_time FROM simulations WHERE id = 'sim-start'").first<{
      start_time: number;
    }>();
    expect(row!.start_time).toBe(startMsgA.startTime);
  });

  it("acknowledges answers of the open subject, refuses them before it opens and after it closes (2 s grace)", async () => {
    const { flow, questions } = await createSimulation("sim-deadline");
    await call("POST", "/api/admin/simulations/sim-deadline/start", { token: admin });
    const s = await connect("sim-deadline", student);
    await s.next("hello");
    const first = questions.filter((q) => q.pos === 0);
    const second = questions.filter((q) => q.pos === 1);
    const value = (q: (typeof questions)[number]) => (q.type === "mc" ? JSON.parse(q.options!)[0] : "prova");
    s.send({ type: "answer", seq: 1, subjectId: flow[0]!.id, questionId: first[0]!.id, value: value(first[0]!) });
    expect(await s.next("rejected")).toMatchObject({ seq: 1, error: "Questa materia non è ancora iniziata." });

    // Within the grace: the first subject ended 0.3 s ago, a message in flight is still taken. (First, while
    // the deadline's alarm is still 1.7 s away: once it has run, the refusal is final.)
    await moveStart("sim-deadline", Date.now() - 60_000 - 300);
    s.send({ type: "answer", seq: 5, subjectId: flow[0]!.id, questionId: first[1]!.id, value: value(first[1]!) });
    expect(await s.next("ack")).toMatchObject({ seq: 5 });

    // First subject over for 3 s (beyond the grace), second subject open.
    await moveStart("sim-deadline", Date.now() - 60_000 - 3000);
    s.send({ type: "answer", seq: 2, subjectId: flow[0]!.id, questionId: first[0]!.id, value: value(first[0]!) });
    expect(await s.next("rejected")).toMatchObject({
      seq: 2,
      error: "Tempo scaduto per questa materia: la risposta non è stata salvata.",
    });
    s.send({ type: "answer", seq: 3, subjectId: flow[1]!.id, questionId: second[0]!.id, value: value(second[0]!) });
    expect(await s.next("ack")).toMatchObject({ seq: 3, questionId: second[0]!.id });
    // A question of another subject is not accepted under this one.
    s.send({ type: "answer", seq: 4, subjectId: flow[1]!.id, questionId: first[1]!.id, value: "x" });
    expect(await s.next("rejected")).toMatchObject({ seq: 4, error: "Domanda non presente in questa simulazione." });

    // The alarm that closed the first subject makes the refusal final even if the clock were generous.
    await moveStart("sim-deadline", Date.now() - 60_000 - 2500);
    expect(await runDurableObjectAlarm(roomOf("sim-deadline"))).toBe(true);
    await moveStart("sim-deadline", Date.now() - 30_000);
    s.send({ type: "answer", seq: 6, subjectId: flow[0]!.id, questionId: first[2]!.id, value: value(first[2]!) });
    expect(await s.next("rejected")).toMatchObject({ seq: 6 });
  });

  it("takes answers over HTTP mid-exam (the fallback without WebSocket): open subject only, nothing graded yet", async () => {
    const { flow, questions } = await createSimulation("sim-http");
    await call("POST", "/api/admin/simulations/sim-http/start", { token: admin });
    await moveStart("sim-http", Date.now() - 60_000 - 3000); // first subject closed, second open
    const first = questions.find((q) => q.pos === 0)!;
    const second = questions.find((q) => q.pos === 1)!;
    const value = (q: (typeof questions)[number]) => (q.type === "mc" ? JSON.parse(q.options!)[0] : "prova");
    const response = await call("POST", "/api/simulations/sim-http/attempt", {
      token: student,
      json: {
        answers: { [flow[0]!.id]: { [first.id]: value(first) }, [flow[1]!.id]: { [second.id]: value(second) } },
        timeTaken: 0,
      },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ ok: true, pending: true, saved: 1 });
    const s = await connect("sim-http", student);
    expect((await s.next("hello")).answers).toEqual({ [String(flow[1]!.id)]: { [String(second.id)]: value(second) } });
    expect(await count("simulation_attempts", "simulation_id = 'sim-http'")).toBe(0);
  });

  it("acknowledges and stores every answer of a burst larger than one write (the last one to a question wins)", async () => {
    const { flow, questions } = await createSimulation("sim-raffica");
    await call("POST", "/api/admin/simulations/sim-raffica/start", { token: admin });
    await moveStart("sim-raffica", Date.now() - 1000);
    const s = await connect("sim-raffica", student);
    await s.next("hello");
    const first = questions.filter((q) => q.pos === 0);
    const answerOf = (q: (typeof questions)[number], i: number) =>
      q.type === "mc" ? JSON.parse(q.options!)[i % 4] : `parola${i}`;
    // 50 answers in the same instant: one batch of the room, more rows than one statement binds.
    const last: Record<string, string> = {};
    for (let i = 0; i < 50; i++) {
      const q = first[i % first.length]!;
      last[String(q.id)] = answerOf(q, i);
      s.send({ type: "answer", seq: i + 1, subjectId: flow[0]!.id, questionId: q.id, value: answerOf(q, i) });
    }
    const acks = await Promise.all(Array.from({ length: 50 }, () => s.next("ack")));
    expect(acks.map((a) => a.seq).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(s.messages.filter((m) => m.type === "rejected")).toEqual([]);
    const again = await connect("sim-raffica", student);
    expect((await again.next("hello")).answers).toEqual({ [String(flow[0]!.id)]: last });
  });

  it("keeps every acknowledged answer when the object is evicted; the reconnecting student gets them back", async () => {
    const { flow, questions } = await createSimulation("sim-evict");
    await call("POST", "/api/admin/simulations/sim-evict/start", { token: admin });
    await moveStart("sim-evict", Date.now() - 1000);
    const s = await connect("sim-evict", student);
    await s.next("hello");
    const first = questions.filter((q) => q.pos === 0);
    const sent: Record<string, string> = {};
    for (const [i, q] of first.entries()) {
      const value = q.type === "mc" ? JSON.parse(q.options!)[i % 5] : `parola${i}`;
      sent[String(q.id)] = value;
      s.send({ type: "answer", seq: i, subjectId: flow[0]!.id, questionId: q.id, value });
      await s.next("ack");
    }
    await evictDurableObject(roomOf("sim-evict"));
    const again = await connect("sim-evict", student);
    const hello = await again.next("hello");
    expect(hello.answers).toEqual({ [String(flow[0]!.id)]: sent });
    expect(hello.started).toBe(true);
  });

  it("grades on the server at the end and writes the attempts once, even when the alarm runs twice; no earlier message carries an answer key", async () => {
    const { flow, questions } = await createSimulation("sim-grade");
    await call("POST", "/api/admin/simulations/sim-grade/start", { token: admin });
    await moveStart("sim-grade", Date.now() - 1000);
    const s = await connect("sim-grade", student);
    await s.next("hello");
    // Answer every question of the first subject correctly, one of the second wrongly.
    const first = questions.filter((q) => q.pos === 0);
    for (const q of first) {
      const value = q.type === "mc" ? JSON.parse(q.options!)[q.correct_index!] : JSON.parse(q.accepted_answers!)[0];
      s.send({ type: "answer", subjectId: flow[0]!.id, questionId: q.id, value });
      await s.next("ack");
    }
    await moveStart("sim-grade", Date.now() - 61_000);
    const q2 = questions.find((q) => q.pos === 1)!;
    const wrong = q2.type === "mc" ? JSON.parse(q2.options!)[(q2.correct_index! + 1) % 5] : "sbagliata";
    s.send({ type: "answer", subjectId: flow[1]!.id, questionId: q2.id, value: wrong });
    await s.next("ack");
    const view = await (await call("GET", "/api/simulations/sim-grade", { token: student })).text();

    // Everything the student received so far, plus the HTTP view: no key, no explanation.
    const seen = JSON.stringify(s.messages) + view;
    expect(seen).not.toMatch(/correct|accepted|explanation|keys/i);
    // The options of multiple-choice questions are shown by design (and may equal a gap answer
    // such as "2"); everything else must not carry an accepted answer of a gap question.
    const withoutOptions = JSON.stringify([s.messages, JSON.parse(view)], (key, value) =>
      key === "options" ? undefined : value,
    );
    for (const q of questions.filter((x) => x.pos === 1 && x.type === "gap")) {
      for (const a of JSON.parse(q.accepted_answers!) as string[])
        expect(withoutOptions.toLowerCase()).not.toContain(`"${a.toLowerCase()}"`);
    }

    expect(await count("simulation_attempts", "simulation_id = 'sim-grade'")).toBe(0);
    await moveStart("sim-grade", Date.now() - 2 * 60_000 - 3000);
    const room = roomOf("sim-grade");
    await runDurableObjectAlarm(room);
    await runInDurableObject(room, async (r: SimulationRoom) => {
      await r.alarm();
    });
    await runDurableObjectAlarm(room);
    expect(await count("simulation_attempts", "simulation_id = 'sim-grade'")).toBe(1);
    const row = await env.DB.prepare("SELECT * FROM simulation_attempts WHERE simulation_id = 'sim-grade'").first<
      Record<string, unknown>
    >();
    expect(row!.user_id).toBe(STUDENT_ID);
    const subjects = JSON.parse(String(row!.subjects_result));
    expect(subjects[0]).toMatchObject({ score31: 31, perc: 100, correct: 4, wrong: 0, total: 4 });
    expect(subjects[1]).toMatchObject({ score31: 0, perc: 0, correct: 0, wrong: 1, total: 4 });
    expect(row!.score).toBe(16);
    expect(await s.next("simulation-end")).toMatchObject({ id: "sim-grade" });
    const graded = await env.DB.prepare("SELECT graded_at FROM simulations WHERE id = 'sim-grade'").first<{
      graded_at: number;
    }>();
    expect(graded!.graded_at).toBeGreaterThan(0);

    // After the end: ranking and a late, repeated submission give back the same stored attempt.
    const ranking = await json(await call("GET", "/api/simulations/sim-grade/ranking", { token: student }));
    expect(ranking).toMatchObject({ pos: 1, ranking: [{ userId: STUDENT_ID, pos: 1, score: 16 }] });
    const again = await call("POST", "/api/simulations/sim-grade/attempt", {
      token: student,
      json: { answers: {}, timeTaken: 120 },
    });
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ ok: true, attemptId: row!.id, result: { totale: 16 } });
    expect(await count("simulation_attempts", "simulation_id = 'sim-grade'")).toBe(1);
  });
});

describe("SimulationRoom with nobody in memory", () => {
  it("crashes inside its commit window: the answer it had taken but not written is lost and was never acknowledged; the acknowledged one survives", async () => {
    const { flow, questions } = await createSimulation("sim-crash", [{ subjectId: 2, timeMin: 1, questionCount: 3 }]);
    await call("POST", "/api/admin/simulations/sim-crash/start", { token: admin });
    await moveStart("sim-crash", Date.now() - 1000);
    const s = await connect("sim-crash", student);
    await s.next("hello");
    const value = (q: (typeof questions)[number], i: number) =>
      q.type === "mc" ? JSON.parse(q.options!)[i % 4] : `parola${i}`;
    const [q1, q2] = questions as [(typeof questions)[number], (typeof questions)[number]];
    s.send({ type: "answer", seq: 1, subjectId: flow[0]!.id, questionId: q1.id, value: value(q1, 1) });
    expect(await s.next("ack")).toMatchObject({ seq: 1 });
    // A fresh stub each time: the crash breaks the stubs made before it.
    const stored = () =>
      runInDurableObject(roomOf("sim-crash"), (_r, state) =>
        state.storage.sql
          .exec<{ question_id: number }>("SELECT question_id FROM answers ORDER BY question_id")
          .toArray()
          .map((r) => r.question_id),
      );
    expect(await stored()).toEqual([q1.id]);

    // Time stands still inside the window: the room takes the answer and waits for its batch timer, which does not
    // fire. The ping sent behind the answer is answered at once, so the room has taken the answer.
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      s.send({ type: "answer", seq: 2, subjectId: flow[0]!.id, questionId: q2.id, value: value(q2, 2) });
      s.send({ type: "ping", t0: 7 });
      expect(await s.next("pong")).toMatchObject({ t0: 7 });
      expect(s.messages.filter((m) => m.type === "ack" && m.seq === 2)).toEqual([]);
      expect(await stored()).toEqual([q1.id]);
      // The crash: every instance dies where it stands, storage stays as it was.
      await abortAllDurableObjects();
    } finally {
      vi.useRealTimers();
    }
    expect(s.messages.filter((m) => m.type === "ack" && m.seq === 2)).toEqual([]);
    // Back up: only the acknowledged answer is there. The unacknowledged one is the client's to resend (the
    // browser keeps it as pending and resends it when its socket opens again: useSimulationRoom).
    const again = await connect("sim-crash", student);
    expect((await again.next("hello")).answers).toEqual({ [String(flow[0]!.id)]: { [String(q1.id)]: value(q1, 1) } });
    again.send({ type: "answer", seq: 2, subjectId: flow[0]!.id, questionId: q2.id, value: value(q2, 2) });
    expect(await again.next("ack")).toMatchObject({ seq: 2, questionId: q2.id });
    expect(await stored()).toEqual([q1.id, q2.id].sort((a, b) => a - b));
    again.ws!.close(1000, "bye");
  });

  it("its stored alarm fires with no socket connected and no instance awake: it closes the subject and grades", async () => {
    const { flow, questions } = await createSimulation("sim-alone", [{ subjectId: 2, timeMin: 1, questionCount: 3 }]);
    await call("POST", "/api/admin/simulations/sim-alone/start", { token: admin });
    await moveStart("sim-alone", Date.now() - 1000);
    const s = await connect("sim-alone", student);
    await s.next("hello");
    const q = questions[0]!;
    const right = q.type === "mc" ? JSON.parse(q.options!)[q.correct_index!] : JSON.parse(q.accepted_answers!)[0];
    s.send({ type: "answer", seq: 1, subjectId: flow[0]!.id, questionId: q.id, value: right });
    await s.next("ack");
    s.ws!.close(1000, "bye");
    const room = roomOf("sim-alone");
    await expect.poll(() => runInDurableObject(room, (r: SimulationRoom) => r.connectedUserIds().length)).toBe(0);

    // The subject (1 minute) ends, with its grace, 1.5 s from now: the deadline stored as the room's alarm.
    await moveStart("sim-alone", Date.now() - 60_000 - SIMULATION_GRACE_MS + 1500);
    const alarm = await runInDurableObject(room, (_r, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now());
    // Nothing in memory either: the alarm wakes a fresh instance that has only its storage.
    await evictDurableObject(room);
    expect(await count("simulation_attempts", "simulation_id = 'sim-alone'")).toBe(0);

    // The runtime fires the alarm by itself (no runDurableObjectAlarm): the attempt is graded and written.
    await expect
      .poll(() => count("simulation_attempts", "simulation_id = 'sim-alone'"), { timeout: 15_000, interval: 200 })
      .toBe(1);
    const row = await env.DB.prepare(
      "SELECT user_id, subjects_result FROM simulation_attempts WHERE simulation_id = 'sim-alone'",
    ).first<{ user_id: number; subjects_result: string }>();
    expect(row!.user_id).toBe(STUDENT_ID);
    expect(JSON.parse(row!.subjects_result)[0]).toMatchObject({ correct: 1, wrong: 0, total: 3 });
    const sim = await env.DB.prepare("SELECT graded_at FROM simulations WHERE id = 'sim-alone'").first<{
      graded_at: number | null;
    }>();
    expect(sim!.graded_at).toBeGreaterThan(0);
    // A student who comes back finds the subject closed and the simulation graded.
    const back = await connect("sim-alone", student);
    expect(await back.next("hello")).toMatchObject({ graded: true, closedThrough: 1 });
    back.ws!.close(1000, "bye");
  });

  it("a hibernated room wakes for the next answer on the same socket: it is acknowledged, stored, and nothing is lost", async () => {
    const { flow, questions } = await createSimulation("sim-hibernate", [
      { subjectId: 2, timeMin: 1, questionCount: 3 },
    ]);
    await call("POST", "/api/admin/simulations/sim-hibernate/start", { token: admin });
    await moveStart("sim-hibernate", Date.now() - 1000);
    const s = await connect("sim-hibernate", student);
    await s.next("hello");
    const value = (q: (typeof questions)[number], i: number) =>
      q.type === "mc" ? JSON.parse(q.options!)[i % 4] : `parola${i}`;
    const [q1, q2] = questions as [(typeof questions)[number], (typeof questions)[number]];
    s.send({ type: "answer", seq: 1, subjectId: flow[0]!.id, questionId: q1.id, value: value(q1, 1) });
    expect(await s.next("ack")).toMatchObject({ seq: 1 });

    // Hibernate: the instance is torn down (its in-memory plan, caches and batch with it), the socket stays open.
    const room = roomOf("sim-hibernate");
    await runInDurableObject(room, (r: SimulationRoom) => {
      (r as unknown as { beforeHibernation?: boolean }).beforeHibernation = true;
    });
    await evictDurableObject(room, { webSockets: "hibernate" });
    expect(s.ws!.readyState).toBe(WebSocket.OPEN);

    // The next answer on the same socket wakes a new instance, which takes it and acknowledges it.
    s.send({ type: "answer", seq: 2, subjectId: flow[0]!.id, questionId: q2.id, value: value(q2, 2) });
    expect(await s.next("ack")).toMatchObject({ seq: 2, questionId: q2.id });
    expect(s.messages.filter((m) => m.type === "hello")).toHaveLength(1); // no reconnection
    expect(
      await runInDurableObject(room, (r: SimulationRoom) => ({
        fresh: (r as unknown as { beforeHibernation?: boolean }).beforeHibernation === undefined,
        connected: r.connectedUserIds(),
      })),
    ).toEqual({ fresh: true, connected: [STUDENT_ID] });
    // Both answers are in the room's storage: a second device of the student gets them in its hello.
    const other = await connect("sim-hibernate", student);
    expect((await other.next("hello")).answers).toEqual({
      [String(flow[0]!.id)]: { [String(q1.id)]: value(q1, 1), [String(q2.id)]: value(q2, 2) },
    });
    other.ws!.close(1000, "bye");
    s.ws!.close(1000, "bye");
  });
});
