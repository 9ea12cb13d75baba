// Sealed prefetch (issue 31), through the real routes, D1 and rooms: GET /api/simulations/{id} carries, in the lobby
// and after Avvia, an AES-GCM copy of each subject not yet open for the caller, and none of that subject's texts,
// options or ids in clear; the room sends a subject's key over the socket (unasked at the opening, or when asked) only
// once it has opened for THAT candidate (their own windows, accommodation included), and the key opens exactly what
// the open subject then returns.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { openSealedSubject, type SealedSubject } from "~/lib/sealed-subject";
import { moveStart } from "./room-socket";
import { call, classOfDemoPupils, login, seed } from "./helpers";

const STUDENT_ID = 1;
const FRIEND_ID = 2;
let teacher: string;
let student: string;
let friend: string;
let classId: number;

type Question = { id: number; type: string; text: string; options?: string[] };
type View = {
  started: boolean;
  flow: { id: number; questionCount: number; questions: Question[] }[];
  subjects: { questions: Question[] }[];
  sealed: SealedSubject[];
};

beforeAll(async () => {
  await seed();
  [teacher, student, friend] = await Promise.all([
    login("docente@example.com"),
    login("studente@example.com"),
    login("amico@example.com"),
  ]);
  classId = await classOfDemoPupils(teacher, "5ªB chiavi");
});

/**
 * The teacher's Avvia, their earlier simulations of this file over first: a teacher runs at most two at once (issue 44),
 * and each test here starts its own.
 */
async function startAlone(id: string) {
  await env.DB.prepare(
    "UPDATE simulations SET graded_at = ?1 WHERE id <> ?2 AND started = 1 AND graded_at IS NULL AND created_by = (SELECT created_by FROM simulations WHERE id = ?2)",
  )
    .bind(Date.now(), id)
    .run();
  return call("POST", `/api/admin/simulations/${id}/start`, { token: teacher });
}

const view = async (id: string, token: string) => {
  const response = await call("GET", `/api/simulations/${id}`, { token });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, body: JSON.parse(text) as View };
};

/** Three 1-minute subjects of 4 questions, no breaks: subject i opens at start + i minutes (for a 0 % candidate). */
async function createSimulation(
  id: string,
  audience: { allowedUsers?: number[]; allowedClasses?: number[] },
  status = 201,
) {
  const subjects = [2, 4, 1].map((subjectId) => ({ subjectId, timeMin: 1, questionCount: 4, breakAfterMin: 0 }));
  const response = await call("POST", "/api/admin/simulations", {
    token: teacher,
    json: { id, title: `Prova ${id}`, subjects, allowedUsers: [], allowedClasses: [], ...audience },
  });
  expect(response.status).toBe(status);
}

/** Every question of the simulation by subject position: stem, options and id, straight from D1. */
async function planOf(id: string) {
  const rows = await env.DB.prepare(
    `SELECT q.id, q.stem, q.options, sq.subject_position AS pos FROM simulation_questions sq
     JOIN questions q ON q.id = sq.question_id WHERE sq.simulation_id = ? ORDER BY sq.subject_position, sq.position`,
  )
    .bind(id)
    .all<{ id: number; stem: string; options: string | null; pos: number }>();
  const bySubject: { id: number; stem: string; options: string[] }[][] = [[], [], []];
  for (const r of rows.results)
    bySubject[r.pos]!.push({ id: r.id, stem: r.stem, options: r.options ? (JSON.parse(r.options) as string[]) : [] });
  return bySubject;
}

/**
 * What of subject `index` shows in clear in a response's text: its stems and options (as JSON strings; an option that
 * an open subject also has is left out), its question ids as JSON numbers. Base64 never holds a quote or a comma.
 */
function clearLeaks(text: string, plan: Awaited<ReturnType<typeof planOf>>, index: number, open: number[]): string[] {
  const openOptions = new Set(open.flatMap((i) => plan[i]!.flatMap((q) => q.options)));
  const found: string[] = [];
  for (const q of plan[index]!) {
    if (text.includes(JSON.stringify(q.stem).slice(1, -1))) found.push(`stem of ${q.id}`);
    for (const option of q.options)
      if (!openOptions.has(option) && text.includes(JSON.stringify(option))) found.push(`option ${option} of ${q.id}`);
    if (new RegExp(`[\\[:,]\\s*${q.id}\\s*[,\\]}]`).test(text)) found.push(`id ${q.id}`);
  }
  return found;
}

type Msg = Record<string, unknown> & { type: string };

/** A socket to the room through the Worker's own route (a candidate's, or the staff's live view). */
async function connect(simId: string, token: string, staff = false) {
  const path = staff ? `/api/simulations/${simId}/staff/ws?shard=0` : `/api/simulations/${simId}/ws`;
  const response = await exports.default.fetch(`http://localhost${path}`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
  });
  if (response.status !== 101) return { status: response.status, body: await response.json(), ask: null, close: null };
  const ws = response.webSocket!;
  ws.accept();
  const messages: Msg[] = [];
  ws.addEventListener("message", (event) => {
    messages.push(JSON.parse(event.data as string) as Msg);
  });
  let read = 0;
  /**
   * Sends a key request and waits for the room's answer to it (subject-key or key-refused for that subject, or a
   * protocol error); keys the room sends unasked for other subjects are skipped.
   */
  const ask = async (subject: unknown): Promise<Msg> => {
    ws.send(JSON.stringify({ type: "key", subject }));
    for (let i = 0; i < 200; i++) {
      while (read < messages.length) {
        const m = messages[read++]!;
        if (m.type === "error" || ((m.type === "subject-key" || m.type === "key-refused") && m.subject === subject))
          return m;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("no answer to the key request");
  };
  /** Every message of a type received so far (the socket never asked for any key here). */
  const received = (type: string) => messages.filter((m) => m.type === type);
  /** Waits up to `ms` for a message of a type matching `where`; null when none came. */
  const waitFor = async (type: string, where: (m: Msg) => boolean, ms: number): Promise<Msg | null> => {
    for (const end = Date.now() + ms; Date.now() < end; ) {
      const found = messages.find((m) => m.type === type && where(m));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    return messages.find((m) => m.type === type && where(m)) ?? null;
  };
  return { status: 101, body: null, ask, received, waitFor, close: () => ws.close(1000, "done") };
}

const sealedOf = (v: View, index: number) => v.sealed.find((s) => s.subject === index);

describe("sealed prefetch", () => {
  it("seals every subject in the lobby, nothing in clear, no key before Avvia; a later save's key does not open the lobby's copies", async () => {
    await createSimulation("sp-prima", { allowedUsers: [STUDENT_ID] });
    const before = await planOf("sp-prima");
    const lobby = await view("sp-prima", student);
    expect(lobby.body.started).toBe(false);
    expect(lobby.body.sealed.map((s) => s.subject)).toEqual([0, 1, 2]);
    for (const i of [0, 1, 2]) {
      expect(lobby.body.flow[i]!.questions).toEqual([]);
      expect(clearLeaks(lobby.text, before, i, [])).toEqual([]);
    }
    const socket = await connect("sp-prima", student);
    expect(await socket.ask!(0)).toEqual({
      type: "key-refused",
      subject: 0,
      error: "La simulazione non è ancora iniziata.",
    });
    socket.close!();
    // The teacher saves again (a new draw): the lobby now seals the new plan, not a copy kept from before.
    await createSimulation("sp-prima", { allowedUsers: [STUDENT_ID] }, 200);
    const after = await planOf("sp-prima");
    expect(after[0]!.map((q) => q.id)).not.toEqual(before[0]!.map((q) => q.id));
    const relobby = await view("sp-prima", student);
    expect((await startAlone("sp-prima")).status).toBe(200);
    await moveStart("sp-prima", Date.now() - 1_000);
    const again = await connect("sp-prima", student);
    const answer = await again.ask!(0);
    expect(answer).toMatchObject({ type: "subject-key", subject: 0 });
    // The copy sealed before the second save does not open (the runner then asks the server); the new one does.
    expect(await openSealedSubject(String(answer.key), sealedOf(lobby.body, 0)!)).toBeNull();
    const opened = await openSealedSubject(String(answer.key), sealedOf(relobby.body, 0)!);
    expect(opened).toEqual((await view("sp-prima", student)).body.flow[0]!.questions);
    again.close!();
  });

  it("a question edited in the lobby (same id): the copy sealed before the edit does not open with the room's key; the open subject and a copy sealed after show the new text", async () => {
    await createSimulation("sp-modifica", { allowedUsers: [STUDENT_ID] });
    const plan = await planOf("sp-modifica");
    const lobby = await view("sp-modifica", student);
    // The admin fixes a question of subjects 0 and 2 before Avvia (as the question editor or an import would): same
    // ids, same draw, new text.
    const [first, third] = [plan[0]![1]!, plan[2]![2]!];
    const fixed = (q: { stem: string }) => `${q.stem} (testo corretto)`;
    await env.DB.batch(
      [first, third].map((q) => env.DB.prepare("UPDATE questions SET stem = ? WHERE id = ?").bind(fixed(q), q.id)),
    );
    expect((await startAlone("sp-modifica")).status).toBe(200);
    await moveStart("sp-modifica", Date.now() - 1_000);
    const socket = await connect("sp-modifica", student);
    const key0 = await socket.ask!(0);
    expect(key0).toMatchObject({ type: "subject-key", subject: 0 });
    // The lobby's copy holds the old text: it does not open, so the runner asks the server, which shows the new one.
    expect(await openSealedSubject(String(key0.key), sealedOf(lobby.body, 0)!)).toBeNull();
    const started = (await view("sp-modifica", student)).body;
    expect(started.flow[0]!.questions.find((q) => q.id === first.id)?.text).toBe(fixed(first));
    // Subject 1 was not edited: the lobby's copy still opens (no call needed at its opening).
    await moveStart("sp-modifica", Date.now() - 61_000);
    const key1 = await socket.ask!(1);
    expect(await openSealedSubject(String(key1.key), sealedOf(lobby.body, 1)!)).toEqual(
      (await view("sp-modifica", student)).body.flow[1]!.questions,
    );
    // Subject 2: the lobby's copy does not open; the one sealed after the edit (after Avvia) opens to the new text.
    await moveStart("sp-modifica", Date.now() - 121_000);
    const key2 = await socket.ask!(2);
    expect(key2).toMatchObject({ type: "subject-key", subject: 2 });
    expect(await openSealedSubject(String(key2.key), sealedOf(lobby.body, 2)!)).toBeNull();
    const opened = (await openSealedSubject(String(key2.key), sealedOf(started, 2)!)) as Question[] | null;
    expect(opened?.find((q) => q.id === third.id)?.text).toBe(fixed(third));
    socket.close!();
  });

  it("the room sends each candidate the key unasked at their own opening, and the start with their own extra time", async () => {
    const extra = await call("PATCH", `/api/classes/${classId}/members/${FRIEND_ID}`, {
      token: teacher,
      json: { extraTimePct: 30 },
    });
    expect(extra.status).toBe(200);
    await createSimulation("sp-spinta", { allowedClasses: [classId] });
    const lobby = { student: (await view("sp-spinta", student)).body, friend: (await view("sp-spinta", friend)).body };
    const s = await connect("sp-spinta", student);
    const f = await connect("sp-spinta", friend);
    expect((await startAlone("sp-spinta")).status).toBe(200);
    const startOf = async (socket: typeof s) => socket.waitFor!("simulation-start", () => true, 5_000);
    expect(await startOf(s)).toMatchObject({ type: "simulation-start", extraTimePct: 0 });
    expect(await startOf(f)).toMatchObject({ type: "simulation-start", extraTimePct: 30 });
    // Subject 1 opens in a second and a half for the student; for the pupil with +30 % at 78 s, much later.
    const t0 = Date.now();
    await moveStart("sp-spinta", t0 - 60_000 + 1_500);
    const pushed = await s.waitFor!("subject-key", (m) => m.subject === 1, 15_000);
    expect(pushed).toMatchObject({ type: "subject-key", subject: 1 });
    expect(Date.now()).toBeGreaterThanOrEqual(t0 + 1_400);
    const questions = await openSealedSubject(String(pushed!.key), sealedOf(lobby.student, 1)!);
    expect(questions).toEqual((await view("sp-spinta", student)).body.flow[1]!.questions);
    expect(f.received!("subject-key").filter((m) => m.subject === 1)).toEqual([]);
    // Their own opening comes: their key, unasked.
    await moveStart("sp-spinta", Date.now() - 78_000 + 1_500);
    const theirs = await f.waitFor!("subject-key", (m) => m.subject === 1, 15_000);
    expect(theirs).toMatchObject({ type: "subject-key", subject: 1 });
    expect(await openSealedSubject(String(theirs!.key), sealedOf(lobby.friend, 1)!)).toEqual(
      (await view("sp-spinta", friend)).body.flow[1]!.questions,
    );
    s.close!();
    f.close!();
    await call("PATCH", `/api/classes/${classId}/members/${FRIEND_ID}`, { token: teacher, json: { extraTimePct: 0 } });
  });

  it("every subject, for two candidates: sealed and absent in clear until it opens; refused before, then the key opens exactly the open subject", async () => {
    await createSimulation("sp-giro", { allowedUsers: [STUDENT_ID, FRIEND_ID] });
    expect((await startAlone("sp-giro")).status).toBe(200);
    const plan = await planOf("sp-giro");
    const sockets = { student: await connect("sp-giro", student), friend: await connect("sp-giro", friend) };
    const held: Record<string, View> = {};
    for (let index = 0; index < 3; index++) {
      // Just before subject `index` opens: it is sealed for both, and its key is refused.
      const t0 = Date.now();
      await moveStart("sp-giro", t0 - index * 60_000 + 5_000);
      for (const [who, token] of [
        ["student", student],
        ["friend", friend],
      ] as const) {
        const { text, body } = await view("sp-giro", token);
        held[who] = body;
        const open = [...Array(index).keys()];
        expect(body.sealed.map((s) => s.subject)).toEqual([0, 1, 2].filter((i) => i >= index));
        for (const i of [0, 1, 2].filter((i) => i >= index)) {
          expect(body.flow[i]!.questions).toEqual([]);
          expect(body.subjects[i]!.questions).toEqual([]);
          expect(clearLeaks(text, plan, i, open), `${who}, subject ${i}`).toEqual([]);
        }
        for (const i of open) expect(body.flow[i]!.questions).toHaveLength(4);
        expect(await sockets[who].ask!(index)).toEqual({
          type: "key-refused",
          subject: index,
          error: "Questa materia non è ancora iniziata.",
        });
      }
      // It opens: each candidate gets the key, and their own sealed copy opens to exactly their clear questions.
      await moveStart("sp-giro", Date.now() - index * 60_000 - 1_000);
      const opened: Record<string, unknown> = {};
      for (const [who, token] of [
        ["student", student],
        ["friend", friend],
      ] as const) {
        const answer = await sockets[who].ask!(index);
        expect(answer).toMatchObject({ type: "subject-key", subject: index });
        const questions = await openSealedSubject(String(answer.key), sealedOf(held[who]!, index)!);
        const now = (await view("sp-giro", token)).body;
        expect(now.flow[index]!.questions).toHaveLength(4);
        expect(questions).toEqual(now.flow[index]!.questions);
        expect(sealedOf(now, index)).toBeUndefined();
        opened[who] = questions;
      }
      // The same key, their own order: two different copies of the same questions.
      expect(opened.student).not.toEqual(opened.friend);
      // A key opens only its own subject.
      const next = sealedOf(held.student!, index + 1);
      if (next) {
        const key = (await sockets.student.ask!(index)).key as string;
        expect(await openSealedSubject(key, next)).toBeNull();
      }
    }
    sockets.student.close!();
    sockets.friend.close!();
  });

  it("each response seals with a fresh IV", async () => {
    await createSimulation("sp-iv", { allowedUsers: [STUDENT_ID] });
    expect((await startAlone("sp-iv")).status).toBe(200);
    const a = (await view("sp-iv", student)).body.sealed;
    const b = (await view("sp-iv", student)).body.sealed;
    expect(a.map((s) => s.subject)).toEqual(b.map((s) => s.subject));
    expect(a.length).toBeGreaterThan(0);
    for (const [i, s] of a.entries()) {
      expect(s.iv).not.toBe(b[i]!.iv);
      expect(s.data).not.toBe(b[i]!.data);
    }
  });

  it("refuses a subject out of range, a malformed request, the staff's live view, and a non-participant at the door", async () => {
    await createSimulation("sp-rifiuti", { allowedUsers: [STUDENT_ID] });
    expect((await startAlone("sp-rifiuti")).status).toBe(200);
    await moveStart("sp-rifiuti", Date.now() - 150_000); // subject 2 opened 30 s ago
    const socket = await connect("sp-rifiuti", student);
    const unknown = { error: "Materia inesistente in questa simulazione." };
    expect(await socket.ask!(3)).toMatchObject({ type: "key-refused", subject: 3, ...unknown });
    expect(await socket.ask!(-1)).toMatchObject({ type: "key-refused", subject: -1, ...unknown });
    expect(await socket.ask!(1.5)).toEqual({ type: "error", error: "Messaggio non valido." });
    expect(await socket.ask!("0")).toEqual({ type: "error", error: "Messaggio non valido." });
    // Every subject is open by now: the candidate gets each key.
    for (const i of [0, 1, 2]) expect(await socket.ask!(i)).toMatchObject({ type: "subject-key", subject: i });
    // The teacher's live view is no candidate.
    const staff = await connect("sp-rifiuti", teacher, true);
    expect(staff.status).toBe(101);
    expect(await staff.ask!(0)).toEqual({
      type: "key-refused",
      subject: 0,
      error: "Le domande delle materie si aprono solo per i candidati.",
    });
    // A student outside the audience never reaches the room, and gets no flow either.
    const outsider = await connect("sp-rifiuti", friend);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ error: "Non sei abilitato a questa simulazione" });
    expect((await call("GET", "/api/simulations/sp-rifiuti", { token: friend })).status).toBe(403);
    socket.close!();
    staff.close?.();
  });

  it("gives an accommodated candidate the key at their own opening, not at the others'", async () => {
    const extra = await call("PATCH", `/api/classes/${classId}/members/${FRIEND_ID}`, {
      token: teacher,
      json: { extraTimePct: 30 },
    });
    expect(extra.status).toBe(200);
    await createSimulation("sp-tempo", { allowedClasses: [classId] });
    expect((await startAlone("sp-tempo")).status).toBe(200);
    const plan = await planOf("sp-tempo");
    // 65 s in: subject 1 opened at 60 s for everybody else; for the pupil with +30 % it opens at 78 s.
    const t0 = Date.now();
    await moveStart("sp-tempo", t0 - 65_000);
    const mine = await view("sp-tempo", student);
    const theirs = await view("sp-tempo", friend);
    expect(mine.body.flow[1]!.questions).toHaveLength(4);
    expect(theirs.body.flow[1]!.questions).toEqual([]);
    expect(sealedOf(theirs.body, 1)).toBeDefined();
    expect(clearLeaks(theirs.text, plan, 1, [0])).toEqual([]);
    const s = await connect("sp-tempo", student);
    const f = await connect("sp-tempo", friend);
    expect(await s.ask!(1)).toMatchObject({ type: "subject-key", subject: 1 });
    expect(await f.ask!(1)).toEqual({
      type: "key-refused",
      subject: 1,
      error: "Questa materia non è ancora iniziata.",
    });
    // 80 s in: their own opening has come.
    await moveStart("sp-tempo", t0 - 80_000);
    const answer = await f.ask!(1);
    expect(answer).toMatchObject({ type: "subject-key", subject: 1 });
    const opened = await openSealedSubject(String(answer.key), sealedOf(theirs.body, 1)!);
    expect(opened).toEqual((await view("sp-tempo", friend)).body.flow[1]!.questions);
    s.close!();
    f.close!();
    await call("PATCH", `/api/classes/${classId}/members/${FRIEND_ID}`, { token: teacher, json: { extraTimePct: 0 } });
  });
});
