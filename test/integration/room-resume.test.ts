// Reconnect without D1 (issue 31): a started room signs a resume token into each candidate's start message and hello;
// the socket route lets that candidate back into the same room with it and no D1 at all, and ignores any token that
// is forged, expired, another simulation's, or a session token (the session then decides, as for a first connection).
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { RESUME_AFTER_END_MS, signResume, verifyResume } from "../../app/server/simulation/room-resume.server";
import { routeSimulationSocket } from "../../workers/simulation-socket";
import { countingD1 } from "./d1-counter";
import { call, login, seed } from "./helpers";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";
import { moveStart, type RoomMessage, roomOf } from "./room-socket";

let admin: string;
let student: string;
const STUDENT_ID = 1;
const FRIEND_ID = 2;

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  student = await login("studente@example.com");
});

/** Opens the socket through the Worker's route with a D1 that counts; the status, the messages, the D1 statements. */
async function open(simId: string, options: { token?: string; resume?: string }) {
  const counter = countingD1();
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const query = options.resume ? `?resume=${encodeURIComponent(options.resume)}` : "";
  const request = new Request(`http://localhost/api/simulations/${simId}/ws${query}`, { headers });
  const response = (await routeSimulationSocket(request, { ...env, DB: counter.db } as Env))!;
  const messages: RoomMessage[] = [];
  const ws = response.webSocket;
  if (ws) {
    ws.accept();
    ws.addEventListener("message", (event) => messages.push(JSON.parse(event.data as string) as RoomMessage));
  }
  const next = async (type: string) => {
    await expect.poll(() => messages.some((m) => m.type === type), { timeout: 5000 }).toBe(true);
    return messages.find((m) => m.type === type)!;
  };
  return { response, ws, messages, next, statements: counter.statements().length };
}

async function startedSimulation(id: string, allowedUsers = [STUDENT_ID, FRIEND_ID]) {
  const created = await call("POST", "/api/admin/simulations", {
    token: admin,
    json: { id, title: `Prova ${id}`, subjects: [{ subjectId: 2, timeMin: 1, questionCount: 4 }], allowedUsers },
  });
  expect(created.status).toBe(201);
  const started = await call("POST", `/api/admin/simulations/${id}/start`, { token: admin });
  expect(started.status).toBe(200);
  await moveStart(id, Date.now() - 1000);
}

type SimQuestion = { id: number; subject: number; type: string; options: string | null };

/** The first `count` questions of a simulation, in its order. */
async function questionsOf(simId: string, count: number): Promise<SimQuestion[]> {
  const { results } = await env.DB.prepare(
    `SELECT sq.question_id AS id, q.subject_id AS subject, q.type, q.options FROM simulation_questions sq
     JOIN questions q ON q.id = sq.question_id WHERE sq.simulation_id = ? ORDER BY sq.position LIMIT ?`,
  )
    .bind(simId, count)
    .all<SimQuestion>();
  expect(results).toHaveLength(count);
  return results;
}

/** A valid answer to `q`: its option `n`, or a text for a gap. */
const choice = (q: SimQuestion, n: number) =>
  q.type === "mc" ? (JSON.parse(q.options!) as string[])[n]! : `prova ${n}`;

describe("resume tokens", () => {
  it("come in the start message and the hello of a started room, never in the lobby", async () => {
    const created = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: {
        id: "ripresa-avvio",
        title: "Ripresa",
        subjects: [{ subjectId: 2, timeMin: 1, questionCount: 4 }],
        allowedUsers: [STUDENT_ID],
      },
    });
    expect(created.status).toBe(201);
    const lobby = await open("ripresa-avvio", { token: student });
    expect(lobby.response.status).toBe(101);
    const hello = await lobby.next("hello");
    expect(hello.started).toBe(false);
    expect(hello.resume).toBeUndefined();
    expect((await call("POST", "/api/admin/simulations/ripresa-avvio/start", { token: admin })).status).toBe(200);
    const start = await lobby.next("simulation-start");
    expect(typeof start.resume).toBe("string");
    lobby.ws!.close(1000);
  });

  it("let the same candidate back into their room with no D1 query, their saved answers in the hello", async () => {
    await startedSimulation("ripresa-ok");
    const [question] = (await questionsOf("ripresa-ok", 1)) as [SimQuestion];
    const value = choice(question, 0);
    const first = await open("ripresa-ok", { token: student });
    expect(first.statements).toBeGreaterThan(0); // the session and the door, read in D1
    const hello = await first.next("hello");
    const resume = String(hello.resume);
    expect(resume.length).toBeGreaterThan(20);
    const subjectId = question.subject;
    const questionId = question.id;
    first.ws!.send(JSON.stringify({ type: "answer", seq: 1, subjectId, questionId, value }));
    expect(await first.next("ack")).toMatchObject({ seq: 1, questionId });
    first.ws!.close(1000);

    // No session at all: the token alone lets the candidate back, and the route reads nothing in D1.
    const again = await open("ripresa-ok", { resume });
    expect(again.response.status).toBe(101);
    expect(again.statements).toBe(0);
    const back = await again.next("hello");
    expect(back.answers).toEqual({ [String(subjectId)]: { [String(questionId)]: value } });
    expect(typeof back.resume).toBe("string");
    again.ws!.close(1000);
  });

  it("ignore a forged, an expired, another simulation's or a session token: the session decides", async () => {
    await startedSimulation("ripresa-a");
    await startedSimulation("ripresa-b", [FRIEND_ID]);
    const secret = env.SESSION_SECRET!;
    const startTime = (await env.DB.prepare("SELECT start_time FROM simulations WHERE id = 'ripresa-a'").first<{
      start_time: number;
    }>())!.start_time;
    const claims = { userId: STUDENT_ID, role: "studente", simulationId: "ripresa-a", shard: 0, startTime };
    const valid = await signResume(secret, claims, Date.now() + 60_000);
    const [head, body, signature] = valid.split(".");
    const bad = {
      "another secret": await signResume("x".repeat(40), claims, Date.now() + 60_000),
      expired: await signResume(secret, claims, Date.now() - RESUME_AFTER_END_MS),
      "altered body": `${head}.${btoa(JSON.stringify({ sub: "2", aud: "unicum/room-resume", sim: "ripresa-a", shard: 0, role: "admin", exp: 9e9 })).replace(/=+$/, "")}.${signature}`,
      "another user's id, same signature": `${head}.${body}x.${signature}`,
      "a session token": student,
      garbage: "non-un-token",
    };
    for (const [what, resume] of Object.entries(bad)) {
      const refused = await open("ripresa-a", { resume });
      expect(refused.response.status, what).toBe(401);
      expect(refused.ws, what).toBeNull();
    }
    // Simulation A's valid token on simulation B's door: ignored, so a student not listed for B stays out.
    const elsewhere = await open("ripresa-b", { resume: valid });
    expect(elsewhere.response.status).toBe(401);
    const listedElsewhere = await open("ripresa-b", { resume: valid, token: student });
    expect(listedElsewhere.response.status).toBe(403);
    // With a session, a token that does not verify changes nothing: the candidate gets in as without one.
    const withSession = await open("ripresa-a", { resume: bad.expired, token: student });
    expect(withSession.response.status).toBe(101);
    expect(withSession.statements).toBeGreaterThan(0);
    withSession.ws!.close(1000);
    // Signed for another sitting under the same id (deleted and made again): the room refuses it, the session decides.
    const otherSitting = await signResume(secret, { ...claims, startTime: startTime - 3_600_000 }, Date.now() + 60_000);
    expect((await open("ripresa-a", { resume: otherSitting })).response.status).toBe(401);
    const otherWithSession = await open("ripresa-a", { resume: otherSitting, token: student });
    expect(otherWithSession.response.status).toBe(101);
    otherWithSession.ws!.close(1000);
    // The valid one still works.
    const ok = await open("ripresa-a", { resume: valid });
    expect(ok.response.status).toBe(101);
    expect((await ok.next("hello")).started).toBe(true);
    ok.ws!.close(1000);
  });

  it("a reconnect right after a change or a clearing reads back the latest value of each answer", async () => {
    await startedSimulation("ripresa-lotto");
    const [a, b, c] = (await questionsOf("ripresa-lotto", 3)) as [SimQuestion, SimQuestion, SimQuestion];
    const first = await open("ripresa-lotto", { token: student });
    const resume = String((await first.next("hello")).resume);
    // Sent together (one batch in the room, held 1.5 s here): a, then a changed, b, then b cleared, c. The second socket
    // opens while they wait to be written: its hello holds them, without writing them before their time.
    await runInDurableObject(roomOf("ripresa-lotto"), async (room: SimulationRoom) => room.setAnswerBatchForTest(1500));
    const frames = [
      { seq: 1, q: a, value: choice(a, 0) },
      { seq: 2, q: b, value: choice(b, 0) },
      { seq: 3, q: a, value: choice(a, 1) },
      { seq: 4, q: b, value: "" },
      { seq: 5, q: c, value: choice(c, 2) },
    ];
    for (const f of frames)
      first.ws!.send(
        JSON.stringify({ type: "answer", seq: f.seq, subjectId: f.q.subject, questionId: f.q.id, value: f.value }),
      );
    // A ping after them: its pong means the room has taken all five.
    first.ws!.send(JSON.stringify({ type: "ping", t0: 1 }));
    await first.next("pong");
    const again = await open("ripresa-lotto", { resume });
    const hello = await again.next("hello");
    expect(first.messages.filter((m) => m.type === "ack")).toEqual([]); // still waiting
    expect(hello.answers).toEqual({
      [String(a.subject)]: { [String(a.id)]: choice(a, 1), [String(c.id)]: choice(c, 2) },
    });
    // And the first socket still gets every ack (the batch was written).
    await expect.poll(() => first.messages.filter((m) => m.type === "ack").length, { timeout: 5000 }).toBe(5);
    first.ws!.close(1000);
    again.ws!.close(1000);
  });

  it("a reconnect's hello after a clearing and an answer saved over HTTP holds exactly what the room stored", async () => {
    await startedSimulation("ripresa-http");
    const [a, b, c] = (await questionsOf("ripresa-http", 3)) as [SimQuestion, SimQuestion, SimQuestion];
    // Two answers, then a clearing and a change, each acknowledged.
    const first = await open("ripresa-http", { token: student });
    const resume = String((await first.next("hello")).resume);
    const send = (seq: number, q: typeof a, value: string) =>
      first.ws!.send(JSON.stringify({ type: "answer", seq, subjectId: q.subject, questionId: q.id, value }));
    send(1, a, choice(a, 0));
    send(2, b, choice(b, 0));
    await expect.poll(() => first.messages.filter((m) => m.type === "ack").length, { timeout: 5000 }).toBe(2);
    send(3, a, ""); // cleared alone: its own delete
    send(4, b, choice(b, 1)); // changed
    await expect.poll(() => first.messages.filter((m) => m.type === "ack").length, { timeout: 5000 }).toBe(4);
    first.ws!.close(1000);
    // A reconnect writes nothing in the room (in a wave, each write would be a storage commit per socket): it reads its
    // answers, once.
    const sql = await runInDurableObject(roomOf("ripresa-http"), async (_room, state) => {
      const storage = state.storage.sql;
      const exec = storage.exec.bind(storage);
      const seen: string[] = [];
      storage.exec = ((query: string, ...bindings: unknown[]) => {
        seen.push(query);
        return exec(query, ...bindings);
      }) as typeof storage.exec;
      return { seen, restore: () => (storage.exec = exec) };
    });
    const quiet = await open("ripresa-http", { resume });
    expect((await quiet.next("hello")).answers).toEqual({ [String(b.subject)]: { [String(b.id)]: choice(b, 1) } });
    expect(sql.seen).toHaveLength(1);
    expect(sql.seen[0]).toMatch(/^SELECT /);
    sql.restore();
    quiet.ws!.close(1000);
    // The socket is down: the browser saves over HTTP, into the same room.
    const saved = await call("POST", "/api/simulations/ripresa-http/attempt", {
      token: student,
      json: { answers: { [c.subject]: { [c.id]: choice(c, 2) } }, timeTaken: 0 },
    });
    expect(saved.status).toBe(200);
    const again = await open("ripresa-http", { resume });
    const hello = await again.next("hello");
    const expected = { [String(b.subject)]: { [String(b.id)]: choice(b, 1), [String(c.id)]: choice(c, 2) } };
    expect(hello.answers).toEqual(expected);
    // The same as the room's own table.
    const stored = await runInDurableObject(roomOf("ripresa-http"), async (_room, state) =>
      state.storage.sql
        .exec<{ q: number; v: string }>(
          `SELECT question_id AS q, value AS v FROM answers WHERE user_id = ?`,
          STUDENT_ID,
        )
        .toArray(),
    );
    expect(Object.fromEntries(stored.map((r) => [String(r.q), r.v]))).toEqual(expected[String(b.subject)]);
    again.ws!.close(1000);
  });

  it("expire a few minutes after the room's last end", async () => {
    await startedSimulation("ripresa-fine");
    const first = await open("ripresa-fine", { token: student });
    const hello = await first.next("hello");
    first.ws!.close(1000);
    // Valid until a few minutes after the room's end, for this candidate and this simulation only; then refused.
    const token = String(hello.resume);
    const end = Number(hello.roomEndsAt) + RESUME_AFTER_END_MS;
    expect(await verifyResume(env, token, "ripresa-fine", end - 1000)).toMatchObject({
      simulationId: "ripresa-fine",
      userId: STUDENT_ID,
    });
    expect(await verifyResume(env, token, "ripresa-fine", end + 1000)).toBeNull();
    expect(await verifyResume(env, token, "ripresa-a", end - 1000)).toBeNull();
  });
});
