// The exam day as the real one (issue 29, point 3), through the real routes, D1 and rooms: a teacher's class
// simulation from the edition's template; each candidate's own question and option order (stable on reload);
// a pupil's accommodation set by their teacher only; an accommodated candidate's answer taken after the common end
// and graded, another's at the same instant refused; grades out of 30 from the edition.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { connectRoom, moveStart, roomOf } from "./room-socket";
import { call, count, json, login, seed, classOfDemoPupils } from "./helpers";

const STUDENT_ID = 1;
const FRIEND_ID = 2;
const OTHER_TEACHER_ID = 9710;
let admin: string;
let teacher: string;
let otherTeacher: string;
let student: string;
let friend: string;
let classId: number;

beforeAll(async () => {
  await seed();
  await env.DB.prepare(
    `INSERT OR IGNORE INTO users (id, email, name, username, role, status, share_code)
     VALUES (${OTHER_TEACHER_ID}, 'docente.giorno@example.com', 'Dora Verdi', 'dora.verdi', 'docente', 'attivo', 'U09710')`,
  ).run();
  [admin, teacher, otherTeacher, student, friend] = await Promise.all([
    login("admin@example.com"),
    login("docente@example.com"),
    login("docente.giorno@example.com"),
    login("studente@example.com"),
    login("amico@example.com"),
  ]);
  classId = await classOfDemoPupils(teacher, "5ªA giorno d'esame");
});

type View = {
  extraTimePct: number;
  flow: { id: number; questions: { id: number; type: string; options?: string[] }[] }[];
};
const view = async (id: string, token: string) => json<View>(await call("GET", `/api/simulations/${id}`, { token }));

/** The edition's day (Chimica → Fisica → Biologia, full papers) with 1-minute subjects and no breaks. */
async function createDay(id: string) {
  const subjects = [2, 4, 1].map((subjectId) => ({ subjectId, timeMin: 1, questionCount: 31, breakAfterMin: 0 }));
  const response = await call("POST", "/api/admin/simulations", {
    token: teacher,
    json: { id, title: "Giorno d'esame", subjects, allowedClasses: [classId] },
  });
  expect(response.status).toBe(201);
}

async function setExtra(token: string, userId: number, pct: unknown, cls = classId) {
  return call("PATCH", `/api/classes/${cls}/members/${userId}`, { token, json: { extraTimePct: pct } });
}

describe("accommodations", () => {
  it("are set by the class's teacher (audited) and admins, never by another teacher or a pupil", async () => {
    expect((await setExtra(otherTeacher, FRIEND_ID, 30)).status).toBe(403);
    expect((await setExtra(student, FRIEND_ID, 30)).status).toBe(403);
    const bad = await setExtra(teacher, FRIEND_ID, 150);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatch(/percentuale intera da 0 a 100/);
    expect((await setExtra(teacher, OTHER_TEACHER_ID, 30)).status).toBe(404);
    expect(await count("class_members", `extra_time_pct > 0`)).toBe(0);

    const set = await setExtra(teacher, FRIEND_ID, 30);
    expect(set.status).toBe(200);
    expect(await json(set)).toEqual({ classId, userId: FRIEND_ID, extraTimePct: 30 });
    expect(await count("audit_log", `action = 'accommodation.update'`)).toBe(1);
    // An admin may set it too (any class), and a user's own accommodation through the user dialog's call.
    expect((await setExtra(admin, FRIEND_ID, 30)).status).toBe(200);
    const own = await call("PUT", `/api/admin/users/${STUDENT_ID}`, { token: admin, json: { extraTimePct: 120 } });
    expect(own.status).toBe(400);
    expect((await json(own)).error).toMatch(/percentuale intera/);
    expect(
      (await call("PUT", `/api/admin/users/${STUDENT_ID}`, { token: teacher, json: { extraTimePct: 50 } })).status,
    ).toBe(403);
  });

  it("extend practice timers only for a pupil who chose so on /profilo (never a Rush)", async () => {
    const timeLimit = async (token: string) => {
      const response = await call("GET", "/api/quiz?subjectId=2&count=10&time=400", { token });
      expect(response.status).toBe(200);
      const { quizId } = await json<{ quizId: number }>(response);
      const row = await env.DB.prepare("SELECT time_limit_sec FROM quizzes WHERE id = ?")
        .bind(quizId)
        .first<{ time_limit_sec: number }>();
      return row!.time_limit_sec;
    };
    expect(await timeLimit(friend)).toBe(400);
    await env.DB.prepare("UPDATE users SET extra_time_practice = 1 WHERE id = ?").bind(FRIEND_ID).run();
    expect(await timeLimit(friend)).toBe(520);
    await env.DB.prepare("UPDATE users SET extra_time_practice = 1 WHERE id = ?").bind(STUDENT_ID).run();
    expect(await timeLimit(student)).toBe(400); // chose it, but has no accommodation
    await env.DB.prepare("UPDATE users SET extra_time_practice = 0").run();
  });
});

describe("the exam day of a class", () => {
  it("stores the edition, gives each candidate their own stable order, and never a key", async () => {
    await createDay("giorno-ordine");
    const row = await env.DB.prepare("SELECT edition_id FROM simulations WHERE id = 'giorno-ordine'").first<{
      edition_id: number | null;
    }>();
    const edition = await env.DB.prepare("SELECT id FROM exam_editions WHERE is_default = 1").first<{ id: number }>();
    expect(row!.edition_id).toBe(edition!.id);

    // Before the start: no questions; the accommodation that would apply is shown.
    expect((await view("giorno-ordine", friend)).flow[0]!.questions).toEqual([]);
    expect((await view("giorno-ordine", friend)).extraTimePct).toBe(30);

    expect((await call("POST", "/api/admin/simulations/giorno-ordine/start", { token: teacher })).status).toBe(200);
    await moveStart("giorno-ordine", Date.now() - 1000);
    const mine = await view("giorno-ordine", student);
    const again = await view("giorno-ordine", student);
    const theirs = await view("giorno-ordine", friend);
    expect(mine.extraTimePct).toBe(0);
    expect(theirs.extraTimePct).toBe(30);
    const ids = (v: View) => v.flow[0]!.questions.map((q) => q.id);
    expect(ids(mine)).toHaveLength(31);
    expect(ids(again)).toEqual(ids(mine));
    expect(ids(theirs)).not.toEqual(ids(mine));
    expect([...ids(theirs)].sort()).toEqual([...ids(mine)].sort());
    expect(again.flow[0]!.questions).toEqual(mine.flow[0]!.questions);
    // The same question's options, per candidate: the same set, and some question shows them in another order.
    const options = (v: View) => new Map(v.flow[0]!.questions.map((q) => [q.id, q.options ?? []]));
    const a = options(mine);
    const b = options(theirs);
    let reordered = 0;
    for (const [id, opts] of a) {
      expect([...b.get(id)!].sort()).toEqual([...opts].sort());
      if (b.get(id)!.join("|") !== opts.join("|")) reordered++;
    }
    expect(reordered).toBeGreaterThan(0);
    const text = JSON.stringify(mine);
    expect(text).not.toMatch(/correct|accepted|explanation/i);
    // Subjects after the first stay withheld.
    expect(mine.flow[1]!.questions).toEqual([]);
  });

  it("takes an accommodated candidate's answer after the common end, refuses another's, grades both right out of 30", async () => {
    await createDay("giorno-tempo");
    expect((await call("POST", "/api/admin/simulations/giorno-tempo/start", { token: teacher })).status).toBe(200);
    expect(await count("simulation_accommodations", `simulation_id = 'giorno-tempo' AND user_id = ${FRIEND_ID}`)).toBe(
      1,
    );
    const keys = await env.DB.prepare(
      `SELECT q.id, q.type, q.options, q.correct_index FROM simulation_questions sq JOIN questions q ON q.id = sq.question_id
       WHERE sq.simulation_id = 'giorno-tempo' AND sq.subject_position = 0 AND q.type = 'mc' ORDER BY sq.position LIMIT 2`,
    ).all<{ id: number; options: string; correct_index: number }>();
    const [q1, q2] = keys.results;
    const right = (q: { options: string; correct_index: number }) => JSON.parse(q.options)[q.correct_index] as string;

    // Chimica began 63 s ago: the common 1′ (plus the 2 s grace) is over; +30 % of 1′ = 18 s more for the pupil.
    await moveStart("giorno-tempo", Date.now() - 63_000);
    const s = await connectRoom("giorno-tempo", student);
    const f = await connectRoom("giorno-tempo", friend);
    expect(await s.next("hello")).toMatchObject({ closedThrough: 1, extraTimePct: 0 });
    expect(await f.next("hello")).toMatchObject({ closedThrough: 0, extraTimePct: 30 });
    f.send({ type: "answer", seq: 1, subjectId: 2, questionId: q1!.id, value: right(q1!) });
    s.send({ type: "answer", seq: 1, subjectId: 2, questionId: q1!.id, value: right(q1!) });
    expect(await f.next("ack")).toMatchObject({ seq: 1, questionId: q1!.id });
    expect(await s.next("rejected")).toMatchObject({
      seq: 1,
      error: "Tempo scaduto per questa materia: la risposta non è stata salvata.",
    });
    // A wrong answer of the pupil too, to check the grade's arithmetic.
    const wrong = JSON.parse(q2!.options).find((_: string, i: number) => i !== q2!.correct_index) as string;
    f.send({ type: "answer", seq: 2, subjectId: 2, questionId: q2!.id, value: wrong });
    expect(await f.next("ack", (m) => m.seq === 2)).toMatchObject({ questionId: q2!.id });

    // Everyone's day is over: the room grades after the last deadline.
    await moveStart("giorno-tempo", Date.now() - 20 * 60_000);
    await runDurableObjectAlarm(roomOf("giorno-tempo"));
    for (let i = 0; i < 100 && (await count("simulation_attempts", "simulation_id = 'giorno-tempo'")) < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
    const attempt = async (token: string) =>
      json<{
        result: {
          subjects: { id: number; correct: number; wrong: number; total: number; grade?: { text: string } }[];
        };
      }>(await call("POST", "/api/simulations/giorno-tempo/attempt", { token, json: { answers: {}, timeTaken: 0 } }));
    const pupil = (await attempt(friend)).result.subjects[0]!;
    const other = (await attempt(student)).result.subjects[0]!;
    expect(pupil).toMatchObject({ correct: 1, wrong: 1, total: 31 });
    expect(other).toMatchObject({ correct: 0, wrong: 0, total: 31 });
    // 1 − 0,1 = 0,9 out of 31 → 0,9/30, failed; nothing answered → 0/30.
    expect(pupil.grade?.text).toBe("0,9/30 — non superato");
    expect(other.grade?.text).toBe("0/30 — non superato");
    s.ws.close(1000, "done");
    f.ws.close(1000, "done");
  });
});
