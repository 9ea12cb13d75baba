// The deploy drill (issue 45): a release restarts a running room with every socket open. The room closes them all as a
// release does (1012, with the window to come back over) and loses everything it held in memory, including answers it
// had taken but not yet written (so never acknowledged). Each client then does what the browser's runner does
// (useSimulationRoom): it comes back within the window with its resume token and resends every answer still waiting
// for an ack. Every acknowledged answer must be in the hello of the restarted room, and the grades must equal those of
// the same sitting (same questions, same candidates, same answers) run without the restart.
import { abortAllDurableObjects, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SIMULATION_GRACE_MS } from "~/lib/constants";
import { ReconnectBackoff } from "~/lib/runner-timing";
import { comebackReason, comebackWindowOf, RESTART_CLOSE_CODE, type SavedAnswers } from "~/lib/simulation-protocol";
import type { TestSimulationRoom } from "../../workers/room/test-room";
import { call, login, seed } from "./helpers";
import { moveStart, type RoomMessage, roomOf } from "./room-socket";

const CANDIDATES = 6;
const FIRST_ID = 8_400_000 + Math.floor(Math.random() * 100_000);
/** The window the restarting room names: short here, so the drill takes a second. */
const COMEBACK_MS = 400;
let admin: string;
const tokens: string[] = [];

type Question = {
  id: number;
  subject: number;
  type: string;
  options: string | null;
  correct: number | null;
  accepted: string | null;
};

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  for (let i = 0; i < CANDIDATES; i++) {
    const id = FIRST_ID + i;
    await env.DB.prepare("INSERT INTO users (id, email, name, role, status) VALUES (?, ?, ?, 'studente', 'attivo')")
      .bind(id, `drill-${id}@example.com`, `Candidato ${i + 1}`)
      .run();
    tokens.push(await login(`drill-${id}@example.com`));
  }
});

/** A started simulation of one 1-minute subject for the drill's candidates; `sameAs`: with that one's questions. */
async function sitting(id: string, sameAs?: string): Promise<Question[]> {
  const allowedUsers = Array.from({ length: CANDIDATES }, (_, i) => FIRST_ID + i);
  const subjects = [{ subjectId: 2, timeMin: 1, questionCount: 6 }];
  const created = await call("POST", "/api/admin/simulations", {
    token: admin,
    json: { id, title: `Prova ${id}`, subjects, allowedUsers },
  });
  expect(created.status).toBe(201);
  if (sameAs) {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM simulation_questions WHERE simulation_id = ?").bind(id),
      env.DB.prepare(
        `INSERT INTO simulation_questions (simulation_id, subject_position, position, question_id)
         SELECT ?, subject_position, position, question_id FROM simulation_questions WHERE simulation_id = ?`,
      ).bind(id, sameAs),
      env.DB.prepare("UPDATE simulations SET plan_version = plan_version + 1 WHERE id = ?").bind(id),
    ]);
  }
  expect((await call("POST", `/api/admin/simulations/${id}/start`, { token: admin })).status).toBe(200);
  await moveStart(id, Date.now() - 1000);
  const { results } = await env.DB.prepare(
    `SELECT q.id, q.subject_id AS subject, q.type, q.options, q.correct_index AS correct, q.accepted_answers AS accepted
     FROM simulation_questions sq JOIN questions q ON q.id = sq.question_id WHERE sq.simulation_id = ?
     ORDER BY sq.subject_position, sq.position`,
  )
    .bind(id)
    .all<Question>();
  return results;
}

/**
 * Candidate `c`'s answer number `n` to `q`: right, wrong, or (n = 2) a clearing, differing between candidates. The
 * first candidate always answers right and the second always wrong, so their grades differ whichever questions the
 * sitting drew (with the others' alone, six candidates once all scored the same and the drill failed on a fresh clone).
 */
function answerOf(q: Question, c: number, n: number): string {
  if (n === 2) return "";
  const right = c === 0 || (c !== 1 && (c + q.id + n) % 3 !== 0);
  if (q.type === "mc") {
    const options = JSON.parse(q.options!) as string[];
    return options[right ? q.correct! : (q.correct! + 1 + n) % options.length]!;
  }
  return right ? (JSON.parse(q.accepted!) as string[])[0]! : `sbagliata ${n}`;
}

/** A candidate's browser, as far as the room can tell: the runner's pending answers, acks and resume token. */
class Candidate {
  ws: WebSocket | null = null;
  resume: string | undefined;
  messages: RoomMessage[] = [];
  closes: { code: number; reason: string }[] = [];
  private seq = 0;
  /** The latest answer per question not yet acknowledged (resent when the socket opens again). */
  pending = new Map<number, { seq: number; subjectId: number; questionId: number; value: string }>();
  /** What the room acknowledged: question → value ("" = cleared). */
  acked = new Map<number, { subject: number; value: string }>();

  constructor(
    private readonly simId: string,
    private readonly token: string,
  ) {}

  async open(): Promise<RoomMessage> {
    const query = this.resume ? `?resume=${encodeURIComponent(this.resume)}` : "";
    const response = await exports.default.fetch(`http://localhost/api/simulations/${this.simId}/ws${query}`, {
      headers: { Upgrade: "websocket", ...(this.resume ? {} : { Authorization: `Bearer ${this.token}` }) },
    });
    expect(response.status).toBe(101);
    const ws = response.webSocket!;
    ws.accept();
    this.messages = [];
    ws.addEventListener("message", (event) => {
      const m = JSON.parse(event.data as string) as RoomMessage;
      this.messages.push(m);
      if (m.type === "hello") this.resume = (m.resume as string | undefined) ?? this.resume;
      const p = m.type === "ack" ? this.pending.get(Number(m.questionId)) : undefined;
      if (p && p.seq === m.seq) {
        this.pending.delete(p.questionId);
        this.acked.set(p.questionId, { subject: p.subjectId, value: p.value });
      }
    });
    ws.addEventListener("close", (event) => {
      this.closes.push({ code: event.code, reason: event.reason });
    });
    this.ws = ws;
    const hello = await this.next("hello");
    for (const p of this.pending.values()) ws.send(JSON.stringify({ type: "answer", ...p })); // as the runner's onopen
    return hello;
  }

  answer(q: Question, value: string) {
    const entry = { seq: ++this.seq, subjectId: q.subject, questionId: q.id, value };
    this.pending.set(q.id, entry);
    this.ws!.send(JSON.stringify({ type: "answer", ...entry }));
  }

  /** The room has taken everything sent before: a ping behind it came back. */
  async taken() {
    const t0 = Math.random();
    this.ws!.send(JSON.stringify({ type: "ping", t0 }));
    await this.next("pong", (m) => m.t0 === t0);
  }

  async next(type: string, where: (m: RoomMessage) => boolean = () => true): Promise<RoomMessage> {
    await expect.poll(() => this.messages.some((m) => m.type === type && where(m)), { timeout: 5000 }).toBe(true);
    return this.messages.find((m) => m.type === type && where(m))!;
  }

  async allAcked() {
    await expect.poll(() => this.pending.size, { timeout: 5000 }).toBe(0);
  }

  /** The acknowledged answers as a hello carries them (cleared ones absent). */
  ackedAnswers(): SavedAnswers {
    const saved: SavedAnswers = {};
    for (const [questionId, { subject, value }] of this.acked)
      if (value !== "") (saved[String(subject)] ??= {})[String(questionId)] = value;
    return saved;
  }
}

/** Each candidate's n-th round of answers: every other question from round 1 on, so later rounds change earlier ones. */
function round(candidates: Candidate[], questions: Question[], n: number) {
  for (const [c, candidate] of candidates.entries())
    for (const [i, q] of questions.entries())
      if (n === 0 || (i + c + n) % 2 === 0) candidate.answer(q, answerOf(q, c, n));
}

/** The sitting's end: the subject and its grace are over, the room's alarm grades and writes the attempts. */
async function gradesOf(id: string): Promise<Map<number, { score: number; subjects: unknown }>> {
  await moveStart(id, Date.now() - 60_000 - SIMULATION_GRACE_MS - 1000);
  await runDurableObjectAlarm(roomOf(id));
  const { results } = await env.DB.prepare(
    "SELECT user_id, score, subjects_result FROM simulation_attempts WHERE simulation_id = ? ORDER BY user_id",
  )
    .bind(id)
    .all<{ user_id: number; score: number; subjects_result: string }>();
  return new Map(results.map((r) => [r.user_id, { score: r.score, subjects: JSON.parse(r.subjects_result) }]));
}

describe("the deploy drill", () => {
  it("restarts a running room with every socket open: acknowledged answers kept, the rest resent, the same grades as without the restart", async () => {
    // The sitting without a restart: three rounds of answers, each acknowledged.
    const questions = await sitting("drill-calm");
    const calm = tokens.map((token) => new Candidate("drill-calm", token));
    for (const c of calm) await c.open();
    for (const n of [0, 1, 2]) {
      round(calm, questions, n);
      for (const c of calm) await c.allAcked();
    }
    const expected = await gradesOf("drill-calm");
    expect(expected.size).toBe(CANDIDATES);
    expect(new Set([...expected.values()].map((g) => g.score)).size).toBeGreaterThan(1); // the answers differ

    // The same sitting, restarted between the second round's arrival and its write.
    expect(await sitting("drill-deploy", "drill-calm")).toEqual(questions);
    const room = () => roomOf("drill-deploy");
    const candidates = tokens.map((token) => new Candidate("drill-deploy", token));
    for (const c of candidates) await c.open();
    round(candidates, questions, 0);
    for (const c of candidates) await c.allAcked();
    await runInDurableObject(room(), (r: TestSimulationRoom) => r.setAnswerBatchForTest(60_000));
    round(candidates, questions, 1);
    for (const c of candidates) await c.taken();
    expect(candidates.every((c) => c.pending.size > 0)).toBe(true); // taken by the room, not yet acknowledged

    // The release: every socket closed with the window to come back over, then the instance dies where it stands.
    await runInDurableObject(room(), (_r, state) => {
      for (const ws of state.getWebSockets()) ws.close(RESTART_CLOSE_CODE, comebackReason(COMEBACK_MS));
    });
    await abortAllDurableObjects();
    for (const c of candidates) await expect.poll(() => c.closes.length).toBe(1);

    // Each comes back as the runner does: within the room's window, with its resume token, resending what waits.
    await Promise.all(
      candidates.map(async (c) => {
        const close = c.closes[0]!;
        expect(close.code).toBe(RESTART_CLOSE_CODE);
        expect(comebackWindowOf(close.code, close.reason)).toBe(COMEBACK_MS);
        const { delayMs } = new ReconnectBackoff().afterClose(close.code, close.reason, 0);
        expect(delayMs).toBeLessThan(COMEBACK_MS);
        await new Promise((r) => setTimeout(r, delayMs));
        const hello = await c.open();
        // Every acknowledged answer survived the restart; nothing that was not acknowledged came back.
        expect(hello.answers).toEqual(c.ackedAnswers());
        await c.allAcked();
      }),
    );
    round(candidates, questions, 2);
    for (const c of candidates) await c.allAcked();
    expect(await gradesOf("drill-deploy")).toEqual(expected);
  });
});
