// Fair to the last candidate (issue 44), through the real routes, D1 and rooms: one stored timeline (the seal holds
// while a +50 % candidate still writes the last paper), one seal policy (a teacher's simulation seals for its
// audience only, needs a pupil, at most two at once), one ranking key (no client number decides an order; an
// edition's day ranks by section), and a started plan that no Save can rewrite.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { rankingFor } from "~/server/simulation/ranking.server";
import { storedResult } from "~/server/simulation/results.server";
import { mySimulations } from "~/server/simulation/mine.server";
import { saveSimulation } from "~/server/simulation/admin.server";
import { startSimulation } from "~/server/simulation/start.server";
import { writeGradedAttempts } from "~/server/simulation/grading.server";
import { readSeal } from "~/server/simulation/seal.server";
import { getDb } from "~/server/db/client.server";
import type { SimulationResult } from "~/lib/simulation";
import { call, count, json, login, seed } from "./helpers";
import { connectRoom, moveStart, roomOf } from "./room-socket";

const STUDENT_ID = 1;
const FRIEND_ID = 2;
const FRESH_ID = 9440;
const LONELY_TEACHER_ID = 9441;
let admin: string;
let teacher: string;
let lonelyTeacher: string;
let student: string;
let friend: string;
let fresh: string;

beforeAll(async () => {
  await seed();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT OR IGNORE INTO users (id, email, name, username, role, status, share_code)
       VALUES (${FRESH_ID}, 'nuovo.fair@example.com', 'Nuovo Account', 'nuovo.fair', 'studente', 'attivo', 'U09440')`,
    ),
    env.DB.prepare(
      `INSERT OR IGNORE INTO users (id, email, name, username, role, status, share_code)
       VALUES (${LONELY_TEACHER_ID}, 'docente.solo@example.com', 'Sola Docente', 'sola.docente', 'docente', 'attivo', 'U09441')`,
    ),
  ]);
  [admin, teacher, lonelyTeacher, student, friend, fresh] = await Promise.all([
    login("admin@example.com"),
    login("docente@example.com"),
    login("docente.solo@example.com"),
    login("studente@example.com"),
    login("amico@example.com"),
    login("nuovo.fair@example.com"),
  ]);
});

async function create(token: string, body: Record<string, unknown>) {
  const response = await call("POST", "/api/admin/simulations", { token, json: body });
  expect(response.status, await response.clone().text()).toBe(201);
}

const start = (token: string, id: string) => call("POST", `/api/admin/simulations/${id}/start`, { token });

async function questionsOf(id: string, subjectPosition?: number): Promise<number[]> {
  const where = subjectPosition === undefined ? "" : ` AND subject_position = ${subjectPosition}`;
  const rows = await env.DB.prepare(
    `SELECT question_id AS id FROM simulation_questions WHERE simulation_id = ?${where} ORDER BY subject_position, position`,
  )
    .bind(id)
    .all<{ id: number }>();
  return rows.results.map((r) => r.id);
}

describe("one sitting timeline", () => {
  it("keeps the day sealed for every account while a +50 % candidate writes the last paper after the common end", async () => {
    await env.DB.prepare("UPDATE users SET extra_time_pct = 50 WHERE id = ?").bind(FRIEND_ID).run();
    const id = "fair-timeline";
    // Three 1-minute subjects, no breaks: the common end at 3′; +50 % ends at 4′30″.
    await create(admin, {
      id,
      title: "Giorno intero",
      subjects: [2, 4, 1].map((subjectId) => ({ subjectId, timeMin: 1, questionCount: 5, breakAfterMin: 0 })),
      allowedUsers: [STUDENT_ID, FRIEND_ID],
    });
    const started = await start(admin, id);
    expect(started.status).toBe(200);
    const { startTime, endsAt } = await json<{ startTime: number; endsAt: number }>(started);
    // Stored at Avvia: the latest candidate's end and the seal's lift (the end, the 2-s grace and a minute).
    const row = await env.DB.prepare("SELECT ends_at, seal_until, seal_scope FROM simulations WHERE id = ?")
      .bind(id)
      .first<{ ends_at: number; seal_until: number; seal_scope: string }>();
    expect(row).toEqual({
      ends_at: startTime + 270_000,
      seal_until: startTime + 270_000 + 62_000,
      seal_scope: "all",
    });
    expect(endsAt).toBe(startTime + 270_000);

    // 4′15″ in: everyone without extra time finished 75 s ago (the old seal lifted at 4′02″); the friend is in Biologia.
    await moveStart(id, Date.now() - 255_000);
    const biologia = await questionsOf(id, 2);
    const f = await connectRoom(id, friend);
    expect(await f.next("hello")).toMatchObject({ extraTimePct: 50, closedThrough: 2 });
    const first = await env.DB.prepare("SELECT type, options FROM questions WHERE id = ?")
      .bind(biologia[0])
      .first<{ type: string; options: string | null }>();
    const value = first!.type === "mc" ? (JSON.parse(first!.options!) as string[])[0] : "x";
    f.send({ type: "answer", seq: 1, subjectId: 1, questionId: biologia[0], value });
    expect(await f.next("ack")).toMatchObject({ seq: 1, questionId: biologia[0] });

    // A fresh account, outside the audience: all of the friend's paper is sealed, and no topic draw holds any of it.
    const seal = await readSeal(getDb(env.DB), FRESH_ID);
    for (const q of biologia) expect(seal.get(q), `question ${q}`).toBe("simulation");
    const topics = await env.DB.prepare(
      `SELECT DISTINCT topic_id AS topic FROM questions WHERE id IN (${biologia.join(",")})`,
    ).all<{ topic: number }>();
    let drawn = 0;
    for (const { topic } of topics.results.slice(0, 2)) {
      const response = await call("GET", `/api/quiz?subjectId=1&topicId=${topic}&count=31`, { token: fresh });
      if (response.status !== 200) continue; // a topic too small once sealed: nothing drawn, nothing shown
      const quiz = await json<{ questions: { id: number }[] }>(response);
      drawn += quiz.questions.length;
      expect(quiz.questions.map((q) => q.id).filter((q) => biologia.includes(q))).toEqual([]);
    }
    expect(drawn).toBeGreaterThan(0);
    // /simulazioni: over for the student (their own end has passed), live for the friend; both read the stored end.
    const stored = await env.DB.prepare("SELECT ends_at FROM simulations WHERE id = ?")
      .bind(id)
      .first<number>("ends_at");
    const mine = await mySimulations(getDb(env.DB), STUDENT_ID, Date.now());
    const theirs = await mySimulations(getDb(env.DB), FRIEND_ID, Date.now());
    expect(mine.past.find((s) => s.id === id)).toMatchObject({ sittingEndsAt: stored });
    expect(theirs.live.find((s) => s.id === id)).toMatchObject({ sittingEndsAt: stored, extraTimePct: 50 });
    f.ws.close(1000, "done");
    await env.DB.prepare("UPDATE users SET extra_time_pct = 0 WHERE id = ?").bind(FRIEND_ID).run();
    // Over (graded): it seals nothing for the tests that follow.
    await env.DB.prepare("UPDATE simulations SET graded_at = ? WHERE id = ?").bind(Date.now(), id).run();
  });
});

describe("one seal policy", () => {
  it("seals a teacher's simulation for its audience only", async () => {
    const id = "fair-class";
    const cls = await call("POST", "/api/classes", { token: teacher, json: { name: "Classe equa" } });
    const { id: classId } = await json<{ id: number }>(cls);
    await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, ?)").bind(classId, STUDENT_ID).run();
    await create(teacher, {
      id,
      title: "Verifica di classe",
      subjects: [{ subjectId: 2, timeMin: 30, questionCount: 10, breakAfterMin: 0 }],
      allowedClasses: [classId],
    });
    expect((await start(teacher, id)).status).toBe(200);
    const ids = await questionsOf(id);
    const pupil = await readSeal(getDb(env.DB), STUDENT_ID);
    const outsider = await readSeal(getDb(env.DB), FRESH_ID);
    for (const q of ids) {
      expect(pupil.get(q)).toBe("simulation");
      expect(outsider.has(q)).toBe(false);
    }
    expect(await env.DB.prepare("SELECT seal_scope FROM simulations WHERE id = ?").bind(id).first("seal_scope")).toBe(
      "audience",
    );
    // Leaving the class mid-sitting does not lift it: the pupil still has a seat in the room.
    await env.DB.prepare("DELETE FROM class_members WHERE class_id = ? AND user_id = ?")
      .bind(classId, STUDENT_ID)
      .run();
    const left = await readSeal(getDb(env.DB), STUDENT_ID);
    for (const q of ids) expect(left.get(q)).toBe("simulation");
    await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, ?)").bind(classId, STUDENT_ID).run();
  });

  it("refuses the Avvia of a teacher without pupils, and a third running simulation", async () => {
    // Six simulations of a pupil-less teacher: none starts, so none seals anything.
    for (let i = 0; i < 6; i++) {
      const id = `fair-lonely-${i}`;
      await create(lonelyTeacher, {
        id,
        title: `Vuota ${i}`,
        subjects: [{ subjectId: 1, timeMin: 90, questionCount: 31, breakAfterMin: 0 }],
      });
      const refused = await start(lonelyTeacher, id);
      expect(refused.status).toBe(409);
      expect((await json(refused)).error).toMatch(/almeno uno studente/);
    }
    expect(await count("simulations", "id LIKE 'fair-lonely-%' AND started = 1")).toBe(0);

    // A teacher with pupils runs at most two at once (one is already running: fair-class).
    const cls = await call("POST", "/api/classes", { token: teacher, json: { name: "Classe tre" } });
    const { id: classId } = await json<{ id: number }>(cls);
    await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, ?)").bind(classId, FRIEND_ID).run();
    for (const id of ["fair-two", "fair-three"])
      await create(teacher, {
        id,
        title: id,
        subjects: [{ subjectId: 4, timeMin: 10, questionCount: 5, breakAfterMin: 0 }],
        allowedClasses: [classId],
      });
    expect((await start(teacher, "fair-two")).status).toBe(200);
    const third = await start(teacher, "fair-three");
    expect(third.status).toBe(409);
    expect((await json(third)).error).toMatch(/già 2 simulazioni in corso/);
    // Breaks of a teacher's simulation stay short.
    const long = await call("POST", "/api/admin/simulations", {
      token: teacher,
      json: {
        id: "fair-break",
        title: "Pausa lunga",
        subjects: [
          { subjectId: 2, timeMin: 10, questionCount: 5, breakAfterMin: 31 },
          { subjectId: 4, timeMin: 10, questionCount: 5, breakAfterMin: 0 },
        ],
        allowedClasses: [classId],
      },
    });
    expect(long.status).toBe(400);
    expect((await json(long)).error).toMatch(/pause di al massimo 30 minuti/);
  });
});

describe("one ranking key", () => {
  it("lets no client-sent time move anyone: equal answers share a position", async () => {
    const id = "fair-time";
    await create(admin, {
      id,
      title: "Tempo",
      subjects: [{ subjectId: 2, timeMin: 1, questionCount: 3, breakAfterMin: 0 }],
      allowedUsers: [STUDENT_ID, FRIEND_ID],
    });
    expect((await start(admin, id)).status).toBe(200);
    const [q] = await questionsOf(id);
    const key = await env.DB.prepare(
      "SELECT type, options, correct_index, accepted_answers FROM questions WHERE id = ?",
    )
      .bind(q)
      .first<{ type: string; options: string | null; correct_index: number | null; accepted_answers: string | null }>();
    const right =
      key!.type === "mc" ? JSON.parse(key!.options!)[key!.correct_index!] : JSON.parse(key!.accepted_answers!)[0];
    // 55 s in: both hand in the same answer; one claims it took no time at all, the other the whole minute.
    await moveStart(id, Date.now() - 55_000);
    const answers = { "2": { [String(q)]: right } };
    // Together (the room grades once the first hand-in has waited out the grace: the second is in by then).
    const handIns = await Promise.all(
      (
        [
          [student, 0],
          [friend, 60],
        ] as const
      ).map(([token, timeTaken]) =>
        call("POST", `/api/simulations/${id}/attempt`, { token, json: { answers, timeTaken } }),
      ),
    );
    for (const r of handIns) expect(r.status, await r.clone().text()).toBeLessThan(300);
    const times = await env.DB.prepare(
      `SELECT user_id, time_sec FROM simulation_attempts WHERE simulation_id = ? ORDER BY user_id`,
    )
      .bind(id)
      .all<{ user_id: number; time_sec: number }>();
    // The claimed times are stored as they came (the student's 0 among them): they order nothing.
    expect(times.results.find((r) => r.user_id === STUDENT_ID)?.time_sec).toBe(0);
    await moveStart(id, Date.now() - 5 * 60_000);
    await runDurableObjectAlarm(roomOf(id));
    for (let i = 0; i < 100 && (await count("simulation_attempts", `simulation_id = '${id}'`)) < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
    const db = getDb(env.DB);
    const [a, b] = await Promise.all([rankingFor(db, id, STUDENT_ID), rankingFor(db, id, FRIEND_ID)]);
    expect(a).toMatchObject({ final: true, pos: 1 });
    expect(b).toMatchObject({ final: true, pos: 1, score: a.score });
  });

  it("ranks an edition's day by section: 18 + 18 + 18 above 30 + 30 + 17,8, and the result shows the section", async () => {
    const id = "fair-sections";
    const edition = await env.DB.prepare("SELECT id FROM exam_editions WHERE is_default = 1").first<{ id: number }>();
    await env.DB.prepare(
      `INSERT INTO simulations (id, title, started, start_time, graded_at, created_by, shards, edition_id, created_at)
       VALUES (?, 'Sezioni', 1, ?, NULL, NULL, 1, ?, ?)`,
    )
      .bind(id, Date.now() - 4 * 3_600_000, edition!.id, Date.now())
      .run();
    // 19 right and 10 wrong: 18,0 → 18; 30 right and 1 wrong: 29,9 → 30; 19 right and 12 wrong: 17,8 (not passed).
    const subject = (sid: number, correct: number, wrong: number) => ({
      id: sid,
      name: String(sid),
      score31: Math.round(correct - wrong * 0.1),
      perc: Math.round((correct / 31) * 100),
      correct,
      wrong,
      total: 31,
    });
    const result = (subjects: ReturnType<typeof subject>[]): SimulationResult => ({
      totale: Math.round(subjects.reduce((s, x) => s + x.score31, 0) / subjects.length),
      percTot: 60,
      subjects,
    });
    const threePassed = result([subject(2, 19, 10), subject(4, 19, 10), subject(1, 19, 10)]);
    const twoPassed = result([subject(2, 30, 1), subject(4, 30, 1), subject(1, 19, 12)]);
    // The old order (the total out of 31, then the time) put 26 above 18.
    expect(twoPassed.totale).toBeGreaterThan(threePassed.totale);
    await writeGradedAttempts(env.DB, id, 0, [
      { userId: STUDENT_ID, answers: {}, result: threePassed, timeSec: 9000 },
      { userId: FRIEND_ID, answers: {}, result: twoPassed, timeSec: 10 },
    ]);
    const db = getDb(env.DB);
    expect(await rankingFor(db, id, STUDENT_ID)).toMatchObject({ final: true, pos: 1, score: 354 });
    expect(await rankingFor(db, id, FRIEND_ID)).toMatchObject({ final: true, pos: 2, score: 260 });
    const attempt = await env.DB.prepare("SELECT id FROM simulation_attempts WHERE simulation_id = ? AND user_id = ?")
      .bind(id, FRIEND_ID)
      .first<{ id: number }>();
    const shown = await storedResult(db, id, attempt!.id, {
      id: FRIEND_ID,
      effectiveRole: "studente",
    } as Parameters<typeof storedResult>[3]);
    expect(shown?.rank).toEqual({ key: 260, section: 200, passed: 2, gradesSum: 60 });
    expect(shown?.subjects.map((s) => (s as { grade?: { text: string } }).grade?.text)).toEqual([
      "30/30",
      "30/30",
      "17,8/30 — non superato",
    ]);
    // The staff page and the CSV: the same ranking score and section.
    const staff = await json<{ userId: number; pos: number; score: number; section: number }[]>(
      await call("GET", `/api/admin/simulations/${id}/attempts?page=1`, { token: admin }),
    );
    expect(staff.map((r) => [r.userId, r.pos, r.score, r.section])).toEqual([
      [STUDENT_ID, 1, 354, 300],
      [FRIEND_ID, 2, 260, 200],
    ]);
    const csv = await (await call("GET", `/api/admin/simulations/${id}/attempts?format=csv`, { token: admin })).text();
    expect(csv).toContain("Punteggio in graduatoria,Sezione");
    expect(csv.split("\r\n")[1]).toMatch(/^1,1,[^,]*,354,300,/);
  });
});

describe("a Rush's tie-break", () => {
  it("is the server's own time since the draw, never the client's timeTaken", async () => {
    const now = Date.now();
    const event = await env.DB.prepare(
      "INSERT INTO rush_events (title, starts_at, ends_at, published) VALUES ('Rush equo', ?, ?, 1) RETURNING id",
    )
      .bind(now - 3_600_000, now + 3_600_000)
      .first<{ id: number }>();
    const drawn = await call("POST", "/api/quiz", {
      token: fresh,
      json: { subjectId: "4", count: "3", rushEventId: String(event!.id) },
    });
    expect(drawn.status, await drawn.clone().text()).toBe(200);
    const { quizId } = await json<{ quizId: number }>(drawn);
    // 100 s have passed since the draw (as the server saw it); the client claims it took no time at all.
    await env.DB.prepare("UPDATE attempts SET started_at = started_at - 100000 WHERE quiz_id = ?").bind(quizId).run();
    const submitted = await call("POST", `/api/quiz/${quizId}/attempt`, {
      token: fresh,
      json: { answers: [], timeTaken: 0 },
    });
    expect(submitted.status, await submitted.clone().text()).toBe(200);
    const row = await env.DB.prepare("SELECT time_sec FROM rush_progress WHERE event_id = ? AND user_id = ?")
      .bind(event!.id, FRESH_ID)
      .first<{ time_sec: number }>();
    expect(row!.time_sec).toBeGreaterThanOrEqual(100);
  });
});

describe("a started plan", () => {
  it("is the plan Avvia read: a Save landing between Avvia's read and its write makes Avvia refuse (409), nothing starts", async () => {
    const id = "fair-race-back";
    await create(admin, {
      id,
      title: "Gara inversa",
      subjects: [{ subjectId: 4, timeMin: 10, questionCount: 5, breakAfterMin: 0 }],
      allowedUsers: [STUDENT_ID],
    });
    const db = getDb(env.DB);
    const manager = { id: 0, effectiveRole: "admin" as const };
    // Avvia has read the 10-minute plan; before its write, a Save makes it 90 minutes.
    let saved = false;
    const late = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "update" && !saved)
          return (...args: Parameters<typeof db.update>) => {
            const builder = target.update(...args);
            return new Proxy(builder, {
              get(b, p, r) {
                const value = Reflect.get(b, p, r);
                if (p !== "set" || typeof value !== "function") return value;
                return (...setArgs: unknown[]) => {
                  const chain = (value as (...a: unknown[]) => unknown).apply(b, setArgs) as {
                    where: (...w: unknown[]) => { returning: (...x: unknown[]) => Promise<unknown> };
                  };
                  return {
                    where: (...w: unknown[]) => ({
                      returning: async (...x: unknown[]) => {
                        saved = true;
                        await saveSimulation(
                          db,
                          {
                            id,
                            title: "Gara inversa",
                            subjects: [{ subjectId: 4, timeMin: 90, questionCount: 5, breakAfterMin: 0 }],
                            allowedUsers: [STUDENT_ID],
                            allowedClasses: [],
                          },
                          manager,
                        );
                        return chain.where(...w).returning(...x);
                      },
                    }),
                  };
                };
              },
            });
          };
        return Reflect.get(target, prop, receiver);
      },
    });
    await expect(startSimulation(late, env as unknown as Env, id, manager)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/modificata mentre la avviavi/),
    });
    expect(saved).toBe(true);
    const row = await env.DB.prepare(
      "SELECT started, ends_at, (SELECT time_min FROM simulation_subjects WHERE simulation_id = s.id) AS minutes FROM simulations s WHERE id = ?",
    )
      .bind(id)
      .first();
    // Not started, no timeline of the old plan; the new plan is there, and the next Avvia starts it.
    expect(row).toEqual({ started: 0, ends_at: null, minutes: 90 });
    const again = await startSimulation(db, env as unknown as Env, id, manager);
    expect(again.endsAt - again.startTime).toBe(90 * 60_000);
  });

  it("cannot change when a Save races Avvia: the Save is refused and the plan stays as it was", async () => {
    const id = "fair-race";
    await create(admin, {
      id,
      title: "Gara",
      subjects: [{ subjectId: 4, timeMin: 10, questionCount: 5, breakAfterMin: 0 }],
      allowedUsers: [STUDENT_ID],
    });
    const before = await questionsOf(id);
    const db = getDb(env.DB);
    // The Save reads "not started", then its write waits until Avvia has landed (the race, made certain).
    let started!: Promise<unknown>;
    const late = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "batch")
          return async (...args: Parameters<typeof db.batch>) => {
            started = startSimulation(db, env as unknown as Env, id, { id: 0, effectiveRole: "admin" });
            await started;
            return target.batch(...args);
          };
        return Reflect.get(target, prop, receiver);
      },
    });
    const save = saveSimulation(
      late,
      {
        id,
        title: "Riscritta",
        subjects: [{ subjectId: 4, timeMin: 90, questionCount: 7, breakAfterMin: 0 }],
        allowedUsers: [STUDENT_ID],
        allowedClasses: [],
      },
      { id: 0, effectiveRole: "admin" },
    );
    await expect(save).rejects.toMatchObject({ status: 409 });
    await started;
    expect(await questionsOf(id)).toEqual(before);
    const row = await env.DB.prepare(
      "SELECT title, started, (SELECT time_min FROM simulation_subjects WHERE simulation_id = s.id) AS minutes FROM simulations s WHERE id = ?",
    )
      .bind(id)
      .first();
    expect(row).toEqual({ title: "Gara", started: 1, minutes: 10 });
    // And no direct write reaches a started plan either (the trigger).
    await expect(
      env.DB.prepare("DELETE FROM simulation_questions WHERE simulation_id = ?").bind(id).run(),
    ).rejects.toThrow(/simulation_started/);
    // Deleting the simulation itself still removes its plan.
    expect((await call("DELETE", `/api/admin/simulations/${id}`, { token: admin })).status).toBeLessThan(300);
    expect(await count("simulation_questions", `simulation_id = '${id}'`)).toBe(0);
  });
});
