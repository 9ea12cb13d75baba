// Classes and teachers (issue 11): every class call × signed out / student / member / other teacher /
// admin, bad input writing nothing, invitations by e-mail (issue 28: teachers-and-invitations.test.ts), the join code and link, simulations opened to classes (the allowed
// set read when the student opens it: page, JSON and socket), teacher ownership of simulations, and
// the class results of a finished simulation.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { tabsFor } from "~/lib/admin-tabs";
import { JOIN_CODE_ALPHABET, newJoinCode } from "~/server/classes.server";
import { writeGradedAttempts } from "../../app/server/simulation/grading.server";
import { call, count, json, login, seed } from "./helpers";

const TEACHER_ID = 6;
const STUDENT_ID = 1;
const FRIEND_ID = 2;
let teacher: string;
let otherTeacher: string;
let student: string; // will be a member of the test class
let outsider: string; // never a member (the friend)
let admin: string;
let moderator: string;
let run = 0;

type Cls = { id: number; name: string; code: string };

beforeAll(async () => {
  await seed();
  // A second teacher, made here so the test owns its rows.
  await env.DB.prepare(
    "INSERT OR IGNORE INTO users (id, email, name, username, role, status, share_code) VALUES (9001, 'docente2@example.com', 'Bruno Neri', 'bruno.neri', 'docente', 'attivo', 'U09001')",
  ).run();
  [teacher, otherTeacher, student, outsider, admin, moderator] = await Promise.all([
    login("docente@example.com"),
    login("docente2@example.com"),
    login("studente@example.com"),
    login("amico@example.com"),
    login("admin@example.com"),
    login("moderatore@example.com"),
  ]);
});

async function createClass(token = teacher, name = `Classe di prova ${++run}`): Promise<Cls> {
  const response = await call("POST", "/api/classes", { token, json: { name } });
  expect(response.status).toBe(201);
  return json<Cls>(response);
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error?: string }).error ?? "";
}

const simBody = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Simulazione ${id}`,
  subjects: [{ subjectId: 1, timeMin: 5, questionCount: 3 }],
  ...extra,
});

describe("join codes", () => {
  it("are at least 6 characters from an alphabet without 0/O and 1/I", () => {
    expect(JOIN_CODE_ALPHABET).not.toMatch(/[0O1I]/);
    expect(JOIN_CODE_ALPHABET).toHaveLength(32);
    for (let i = 0; i < 500; i++) expect(newJoinCode()).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
  });
});

describe("POST /api/classes", () => {
  it("creates a class for a teacher or an admin with a readable code", async () => {
    const cls = await createClass(teacher, "  3ªA Liceo Galilei  ");
    expect(cls).toMatchObject({ name: "3ªA Liceo Galilei" });
    expect(cls.code).toMatch(/^[A-HJ-NP-Z2-9]{6,}$/);
    const byAdmin = await createClass(admin, "Classe dell'admin");
    expect(byAdmin.id).toBeGreaterThan(0);
  });

  it("is refused to signed-out visitors (401), students and moderators (403), writing nothing", async () => {
    const before = await count("classes");
    expect((await call("POST", "/api/classes", { json: { name: "X" } })).status).toBe(401);
    for (const token of [student, moderator]) {
      const response = await call("POST", "/api/classes", { token, json: { name: "X" } });
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatch(/permessi/);
    }
    expect(await count("classes")).toBe(before);
  });

  it("refuses an empty name, a name over 80 characters and a missing body, in Italian, writing nothing", async () => {
    const before = await count("classes");
    for (const [body, message] of [
      [{ name: "" }, /obbligatorio/],
      [{ name: "   " }, /obbligatorio/],
      [{}, /obbligatorio/],
      [{ name: "x".repeat(81) }, /troppo lungo.*80/],
      [{ name: 42 }, /obbligatorio/],
    ] as const) {
      const response = await call("POST", "/api/classes", { token: teacher, json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response)).toMatch(message);
    }
    expect(
      (
        await call("POST", "/api/classes", {
          token: teacher,
          body: "{",
          headers: { "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(400);
    expect(await count("classes")).toBe(before);
    // Exactly 80 is fine.
    expect((await call("POST", "/api/classes", { token: teacher, json: { name: "y".repeat(80) } })).status).toBe(201);
  });
});

describe("joining", () => {
  it("joins with the code (twice is harmless), 404 in Italian for an unknown code, 400 for a malformed one", async () => {
    const cls = await createClass();
    const first = await call("POST", "/api/classes/join", { token: student, json: { code: cls.code.toLowerCase() } });
    expect(first.status).toBe(200);
    expect(await json(first)).toMatchObject({ id: cls.id, name: cls.name, joined: true });
    const again = await call("POST", "/api/classes/join", { token: student, json: { code: cls.code } });
    expect(await json(again)).toMatchObject({ id: cls.id, joined: false });
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(1);

    const before = await count("class_members");
    const unknown = await call("POST", "/api/classes/join", {
      token: student,
      json: { code: "ZZZZZZ" === cls.code ? "YYYYYY" : "ZZZZZZ" },
    });
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatch(/Nessuna classe con questo codice/);
    for (const code of ["", "ABC", "O0O0O0", "I1I1I1", "ABC$%&", "x".repeat(50)]) {
      const bad = await call("POST", "/api/classes/join", { token: student, json: { code } });
      expect(bad.status, code).toBe(400);
      expect(await errorOf(bad)).toMatch(/Codice classe non valido/);
    }
    expect((await call("POST", "/api/classes/join", { json: { code: cls.code } })).status).toBe(401);
    expect(await count("class_members")).toBe(before);
  });

  it("the link /classi/unisciti/:code sends a signed-out visitor to /login and back, then joins on confirmation", async () => {
    const cls = await createClass();
    const signedOut = await call("GET", `/classi/unisciti/${cls.code}`);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toBe(`/login?next=${encodeURIComponent(`/classi/unisciti/${cls.code}`)}`);

    const page = await call("GET", `/classi/unisciti/${cls.code}`, { token: student });
    expect(page.status).toBe(200);
    expect(await json(page)).toMatchObject({
      cls: { id: cls.id, name: cls.name, teacher: "Anna Moretti", member: false },
    });
    // Opening the link changes nothing: joining takes the button (a POST).
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(0);
    const joined = await call("POST", `/classi/unisciti/${cls.code}`, {
      token: student,
      body: "",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(await json(joined)).toMatchObject({ joined: { id: cls.id, joined: true } });
    expect(await count("class_members", `class_id = ${cls.id} AND user_id = ${STUDENT_ID}`)).toBe(1);

    const unknown = await call("GET", "/classi/unisciti/ZZZZZZZZ", { token: student });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ error: expect.stringMatching(/Nessuna classe/) });
    expect((await call("GET", "/classi/unisciti/0OO0", { token: student })).status).toBe(400);
  });
});

describe("GET /api/classes", () => {
  it("lists a teacher's own classes with member counts, every class for an admin, joined classes for a student", async () => {
    const mine = await createClass();
    const theirs = await createClass(otherTeacher);
    await call("POST", "/api/classes/join", { token: student, json: { code: mine.code } });
    await call("POST", "/api/classes/join", { token: outsider, json: { code: mine.code } });

    const forTeacher = await json<{ id: number; memberCount: number; code: string }[]>(
      await call("GET", "/api/classes", { token: teacher }),
    );
    expect(forTeacher.find((c) => c.id === mine.id)).toMatchObject({ memberCount: 2, code: mine.code });
    expect(forTeacher.some((c) => c.id === theirs.id)).toBe(false);

    const forAdmin = await json<{ id: number }[]>(await call("GET", "/api/classes", { token: admin }));
    expect(forAdmin.map((c) => c.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));

    const forStudent = await json<{ id: number; name: string; teacher: string; code?: string }[]>(
      await call("GET", "/api/classes", { token: student }),
    );
    const joined = forStudent.find((c) => c.id === mine.id);
    expect(joined).toMatchObject({ name: mine.name, teacher: "Anna Moretti" });
    expect(joined).not.toHaveProperty("code");
    expect(forStudent.some((c) => c.id === theirs.id)).toBe(false);
    expect((await call("GET", "/api/classes")).status).toBe(401);
  });
});

describe("managing a class", () => {
  it("members, add by e-mail, remove, new code and delete: the owner and admins only", async () => {
    const cls = await createClass();
    await call("POST", "/api/classes/join", { token: student, json: { code: cls.code } });
    const path = `/api/classes/${cls.id}`;

    // Signed out 401; student, member, moderator and another teacher 403; nothing written.
    for (const [method, sub, body] of [
      ["GET", "/members", undefined],
      ["POST", "/members", { emails: "amico@example.com" }],
      ["POST", "/code", {}],
      ["DELETE", "", undefined],
      ["DELETE", `/members/${STUDENT_ID}`, undefined],
    ] as const) {
      expect((await call(method, `${path}${sub}`, { json: body })).status, `${method} ${sub} signed out`).toBe(401);
      const refusedTo = sub.startsWith("/members/")
        ? [outsider, otherTeacher]
        : [student, outsider, otherTeacher, moderator];
      for (const token of refusedTo) {
        const response = await call(method, `${path}${sub}`, { token, json: body });
        expect(response.status, `${method} ${sub}`).toBe(403);
        expect(await errorOf(response)).toMatch(/permessi|Non gestisci|Non fai parte/);
      }
    }
    const still = await json<{ code: string }[]>(await call("GET", "/api/classes", { token: teacher }));
    expect(still.find((c) => c.code === cls.code)).toBeTruthy();
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(1);

    // The owner: members, invitations by pasted e-mails (accepted by the pupil), remove.
    const members = await json<{ userId: number; email: string }[]>(
      await call("GET", `${path}/members`, { token: teacher }),
    );
    expect(members.map((m) => m.userId)).toEqual([STUDENT_ID]);
    const added = await call("POST", `${path}/members`, {
      token: teacher,
      json: { emails: "Marco <AMICO@example.com>\nstudente@example.com; nessuno@example.com, non-una-email\n\n" },
    });
    expect(await json(added)).toEqual({ invited: 2, alreadyMembers: 1, malformed: ["non-una-email"] });
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(1);
    const invitation = (
      await json<{ id: number; classId: number }[]>(await call("GET", "/api/classes/invitations", { token: outsider }))
    ).find((i) => i.classId === cls.id)!;
    expect((await call("POST", `/api/classes/invitations/${invitation.id}/accept`, { token: outsider })).status).toBe(
      200,
    );
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(2);
    const empty = await call("POST", `${path}/members`, { token: teacher, json: { emails: "  \n " } });
    expect(empty.status).toBe(400);
    expect(await errorOf(empty)).toMatch(/almeno un indirizzo/);
    expect((await call("POST", `${path}/members`, { token: teacher, json: { emails: 5 } })).status).toBe(400);

    expect((await call("DELETE", `${path}/members/${FRIEND_ID}`, { token: teacher })).status).toBe(200);
    expect((await call("DELETE", `${path}/members/${FRIEND_ID}`, { token: teacher })).status).toBe(404);

    // A new code: the old one stops working.
    const renewed = await json<{ code: string }>(await call("POST", `${path}/code`, { token: teacher }));
    expect(renewed.code).not.toBe(cls.code);
    expect((await call("POST", "/api/classes/join", { token: outsider, json: { code: cls.code } })).status).toBe(404);
    expect((await call("POST", "/api/classes/join", { token: outsider, json: { code: renewed.code } })).status).toBe(
      200,
    );

    // An admin manages any class.
    expect((await call("GET", `${path}/members`, { token: admin })).status).toBe(200);
    expect((await call("DELETE", `${path}/members/${FRIEND_ID}`, { token: admin })).status).toBe(200);

    // Unknown class: 404; bad id: 400.
    expect((await call("GET", "/api/classes/999999/members", { token: teacher })).status).toBe(404);
    expect((await call("GET", "/api/classes/abc/members", { token: teacher })).status).toBe(400);

    expect((await call("DELETE", path, { token: teacher })).status).toBe(200);
    expect(await count("classes", `id = ${cls.id}`)).toBe(0);
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(0);
  });

  it("a member leaves a class (and only themselves)", async () => {
    const cls = await createClass();
    await call("POST", "/api/classes/join", { token: student, json: { code: cls.code } });
    await call("POST", "/api/classes/join", { token: outsider, json: { code: cls.code } });
    const removeOther = await call("DELETE", `/api/classes/${cls.id}/members/${FRIEND_ID}`, { token: student });
    expect(removeOther.status).toBe(403);
    expect((await call("DELETE", `/api/classes/${cls.id}/members/${STUDENT_ID}`, { token: student })).status).toBe(200);
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(1);
    // Not a member any more: leaving again is a 403.
    expect((await call("DELETE", `/api/classes/${cls.id}/members/${STUDENT_ID}`, { token: student })).status).toBe(403);
  });
});

/** A socket to a simulation room: the status of the upgrade. */
async function socketStatus(simId: string, token: string) {
  const response = await exports.default.fetch(`http://localhost/api/simulations/${simId}/ws`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` },
  });
  if (response.status === 101) {
    response.webSocket!.accept();
    response.webSocket!.close(1000, "done");
  }
  return response.status;
}

describe("simulations for classes", () => {
  it("the allowed set is users ∪ class members, read when the student opens it; outsiders get 403 on page, JSON and socket", async () => {
    const cls = await createClass();
    const id = `cls-sim-${run}`;
    const created = await call("POST", "/api/admin/simulations", {
      token: teacher,
      json: simBody(id, { allowedClasses: [cls.id] }),
    });
    expect(created.status).toBe(201);

    // Nobody is in the class yet: the student is refused everywhere.
    const refused = async (token: string) => {
      const page = await call("GET", `/simulazione?id=${id}`, { token });
      expect(page.status).toBe(403);
      expect(await json(page)).toMatchObject({ denied: "Non sei abilitato a questa simulazione" });
      for (const [method, sub] of [
        ["GET", ""],
        ["GET", "/ranking"],
        ["POST", "/attempt"],
      ] as const) {
        const response = await call(method, `/api/simulations/${id}${sub}`, {
          token,
          json: method === "POST" ? { answers: {}, timeTaken: 1 } : undefined,
        });
        expect(response.status, `${method} ${sub}`).toBe(403);
        expect(await errorOf(response)).toBe("Non sei abilitato a questa simulazione");
      }
      expect(await socketStatus(id, token)).toBe(403);
    };
    await refused(student);

    // The student joins the class after the simulation was created: now they get in.
    await call("POST", "/api/classes/join", { token: student, json: { code: cls.code } });
    expect((await call("GET", `/simulazione?id=${id}`, { token: student })).status).toBe(200);
    expect((await call("GET", `/api/simulations/${id}`, { token: student })).status).toBe(200);
    expect(await socketStatus(id, student)).toBe(101);

    // The friend, not in the class, is still out; an admin's direct pick lets them in; the other teacher is out.
    await refused(outsider);
    await refused(otherTeacher);
    const edit = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: simBody(id, { allowedClasses: [cls.id], allowedUsers: [FRIEND_ID] }),
    });
    expect(edit.status).toBe(200);
    expect((await call("GET", `/api/simulations/${id}`, { token: outsider })).status).toBe(200);

    // Leaving the class takes the student out again.
    await call("DELETE", `/api/classes/${cls.id}/members/${STUDENT_ID}`, { token: student });
    await refused(student);
  });

  it("a teacher creates, edits, starts, deletes and reads only their own simulations, for their own classes", async () => {
    const mine = await createClass();
    const theirs = await createClass(otherTeacher);
    const id = `own-sim-${run}`;
    expect(
      (
        await call("POST", "/api/admin/simulations", {
          token: teacher,
          json: simBody(id, { allowedClasses: [mine.id] }),
        })
      ).status,
    ).toBe(201);

    // Another teacher's class cannot be opened, an unknown class is a 400; nothing changes.
    const before = await count("simulation_allowed_classes", `simulation_id = '${id}'`);
    const foreign = await call("POST", "/api/admin/simulations", {
      token: teacher,
      json: simBody(id, { allowedClasses: [theirs.id] }),
    });
    expect(foreign.status).toBe(403);
    expect(await errorOf(foreign)).toMatch(/classi che gestisci/);
    const unknown = await call("POST", "/api/admin/simulations", {
      token: teacher,
      json: simBody(id, { allowedClasses: [999999] }),
    });
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toMatch(/Classe abilitata inesistente/);
    const badType = await call("POST", "/api/admin/simulations", {
      token: teacher,
      json: simBody(id, { allowedClasses: ["x"] }),
    });
    expect(badType.status).toBe(400);
    expect(await count("simulation_allowed_classes", `simulation_id = '${id}' AND class_id = ${mine.id}`)).toBe(before);

    // The other teacher cannot see, edit, start, read or delete it.
    const list = await json<{ id: string }[]>(await call("GET", "/api/admin/simulations", { token: otherTeacher }));
    expect(list.some((s) => s.id === id)).toBe(false);
    for (const [method, path, body] of [
      ["POST", "/api/admin/simulations", simBody(id)],
      ["POST", `/api/admin/simulations/${id}/start`, undefined],
      ["GET", `/api/admin/simulations/${id}/attempts`, undefined],
      ["GET", `/api/admin/simulations/${id}/classes`, undefined],
      ["DELETE", `/api/admin/simulations/${id}`, undefined],
    ] as const) {
      const response = await call(method, path, { token: otherTeacher, json: body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await errorOf(response)).toMatch(/solo le simulazioni che hai creato/);
    }
    expect(await count("simulations", `id = '${id}' AND started = 0`)).toBe(1);

    // Its teacher sees it with the class's name for the picker's chips; an admin sees everything.
    const own = await json<
      { id: string; allowedClasses: number[]; allowedClassLabels: { id: number; label: string }[] }[]
    >(await call("GET", "/api/admin/simulations", { token: teacher }));
    expect(own.find((s) => s.id === id)).toMatchObject({
      allowedClasses: [mine.id],
      allowedClassLabels: [{ id: mine.id, label: mine.name }],
    });
    expect(
      own.every(
        (s) =>
          s.id === id ||
          s.id.startsWith("demo-") ||
          s.id.startsWith("cls-") ||
          s.id.startsWith("own-") ||
          s.id.startsWith("res-"),
      ),
    ).toBe(true);
    const all = await json<{ id: string }[]>(await call("GET", "/api/admin/simulations", { token: admin }));
    expect(all.some((s) => s.id === id)).toBe(true);

    // A teacher's simulation starts only with a pupil in its audience (issue 44): the class has one now.
    await env.DB.prepare("INSERT INTO class_members (class_id, user_id) VALUES (?, 1)").bind(mine.id).run();
    expect((await call("POST", `/api/admin/simulations/${id}/start`, { token: teacher })).status).toBe(200);
    expect((await call("DELETE", `/api/admin/simulations/${id}`, { token: teacher })).status).toBe(200);
    expect(await count("simulations", `id = '${id}'`)).toBe(0);
  });

  it("the picker's search gives a teacher their pupils by name, username or e-mail, and nothing else", async () => {
    const byUsername = await json<{ users: { email: string }[]; questions: unknown[] }>(
      await call("GET", "/api/admin/search?q=giulia.ross", { token: teacher }),
    );
    expect(byUsername.users.map((u) => u.email)).toEqual(["studente@example.com"]);
    expect(byUsername.questions).toEqual([]);
    const staff = await json<{ users: unknown[] }>(
      await call("GET", "/api/admin/search?q=@example.com", { token: teacher }),
    );
    expect(staff.users.length).toBeGreaterThan(0);
    expect(JSON.stringify(staff.users)).not.toMatch(/admin@|moderatore@|docente@/);
    // Admins keep the full search (questions too).
    const full = await json<{ questions: unknown[] }>(
      await call("GET", "/api/admin/search?q=cellula", { token: admin }),
    );
    expect(full.questions.length).toBeGreaterThan(0);
  });
});

describe("class results", () => {
  it("rank the class's pupils, average each subject, show the distribution and who did not show up", async () => {
    const cls = await createClass();
    await call("POST", "/api/classes/join", { token: student, json: { code: cls.code } });
    await call("POST", "/api/classes/join", { token: outsider, json: { code: cls.code } });
    // A third member, made here, who does not show up.
    await env.DB.prepare(
      "INSERT OR IGNORE INTO users (id, email, name, role, status, share_code) VALUES (9002, 'assente@example.com', 'Zeno Assente', 'studente', 'attivo', 'U09002')",
    ).run();
    await env.DB.prepare(`INSERT OR IGNORE INTO class_members (class_id, user_id) VALUES (${cls.id}, 9002)`).run();
    const id = `res-sim-${run}`;
    await call("POST", "/api/admin/simulations", { token: teacher, json: simBody(id, { allowedClasses: [cls.id] }) });

    // Not finished yet: 409 with an Italian message.
    const early = await call("GET", `/api/admin/simulations/${id}/classes`, { token: teacher });
    expect(early.status).toBe(409);
    expect(await errorOf(early)).toMatch(/non è ancora conclusa/);

    const subjectsOf = (bio: number, chem: number) => [
      { id: 1, name: "Biologia", score31: bio, perc: 50, correct: 1, wrong: 1, total: 2 },
      { id: 2, name: "Chimica", score31: chem, perc: 50, correct: 1, wrong: 1, total: 2 },
    ];
    const result = (score: number, bio: number, chem: number) => ({
      totale: score,
      percTot: 60,
      subjects: subjectsOf(bio, chem),
    });
    await writeGradedAttempts(env.DB, id, 0, [
      { userId: STUDENT_ID, answers: {}, result: result(21, 24, 18), timeSec: 300 },
      { userId: FRIEND_ID, answers: {}, result: result(27, 28, 26), timeSec: 280 },
      // Someone outside the class (picked directly) does not appear in the class's results.
      { userId: 100, answers: {}, result: result(31, 31, 31), timeSec: 100 },
    ]);

    const response = await call("GET", `/api/admin/simulations/${id}/classes`, { token: teacher });
    expect(response.status).toBe(200);
    const body = await json<{ classes: Record<string, unknown>[] }>(response);
    expect(body.classes).toHaveLength(1);
    expect(body.classes[0]).toMatchObject({
      classId: cls.id,
      name: cls.name,
      members: 3,
      participants: 2,
      ranking: [
        { pos: 1, userId: FRIEND_ID, score: 27 },
        { pos: 2, userId: STUDENT_ID, score: 21 },
      ],
      subjectAverages: [
        { subjectId: 1, name: "Biologia", average: 26 },
        { subjectId: 2, name: "Chimica", average: 22 },
      ],
      absent: [{ userId: 9002, name: "Zeno Assente" }],
    });
    const distribution = body.classes[0]!.distribution as { label: string; count: number }[];
    expect(distribution.find((d) => d.label === "20-24")!.count).toBe(1);
    expect(distribution.find((d) => d.label === "25-31")!.count).toBe(1);
    expect(distribution.reduce((n, d) => n + d.count, 0)).toBe(2);

    // Admin yes; another teacher, a student and signed out no.
    expect((await call("GET", `/api/admin/simulations/${id}/classes`, { token: admin })).status).toBe(200);
    expect((await call("GET", `/api/admin/simulations/${id}/classes`, { token: otherTeacher })).status).toBe(403);
    expect((await call("GET", `/api/admin/simulations/${id}/classes`, { token: student })).status).toBe(403);
    expect((await call("GET", `/api/admin/simulations/${id}/classes`)).status).toBe(401);
  });
});

describe("the teacher's console and the demo", () => {
  it("a teacher's /admin shows Classi and Simulazioni only; a student is sent away", async () => {
    expect(tabsFor("docente").map((t) => t.label)).toEqual(["Classi", "Simulazioni", "Compiti"]);
    expect(tabsFor("admin").map((t) => t.label)).toContain("Classi");
    expect(tabsFor("moderator").map((t) => t.label)).toEqual(["Segnalazioni"]);
    const page = await call("GET", "/admin", { token: teacher });
    expect(page.status).toBe(200);
    expect(await json(page)).toEqual({ role: "docente" });
    expect((await call("GET", "/admin", { token: student })).status).toBe(302);
    // Signed in without a destination, a teacher lands on the console (it has no side-navigation entry).
    expect((await call("GET", "/login", { token: teacher })).headers.get("Location")).toBe("/admin");
    expect((await call("GET", "/login", { token: student })).headers.get("Location")).toBe("/dashboard");
    // Everything else in the console stays admin-only.
    for (const path of [
      "/api/admin/users",
      "/api/admin/analytics",
      "/api/admin/reports",
      "/api/admin/attempts",
      "/api/admin/rush-events",
    ]) {
      expect((await call("GET", path, { token: teacher })).status, path).toBe(403);
    }
  });

  it("seeds the demo teacher's class and its not-yet-started simulation with the fallback flow", async () => {
    const rows = await env.DB.prepare("SELECT id, role FROM users WHERE email = 'docente@example.com'").first<{
      id: number;
      role: string;
    }>();
    expect(rows).toEqual({ id: TEACHER_ID, role: "docente" });
    const demo = await json<{ id: number; name: string; memberCount: number }[]>(
      await call("GET", "/api/classes", { token: teacher }),
    );
    expect(demo.find((c) => c.name === "5ªB Liceo Volta")).toMatchObject({ memberCount: 27 });
    const members = await env.DB.prepare(
      "SELECT user_id FROM class_members WHERE class_id = 1 AND user_id IN (1, 2)",
    ).all();
    expect(members.results).toHaveLength(2);
    const sims = await json<
      {
        id: string;
        started: boolean;
        subjects: { name: string; timeMin: number }[];
        allowedClassLabels: { label: string }[];
      }[]
    >(await call("GET", "/api/admin/simulations", { token: teacher }));
    const sim = sims.find((s) => s.id === "demo-5b-volta");
    expect(sim).toMatchObject({
      started: false,
      subjects: [
        { name: "Biologia", timeMin: 5 },
        { name: "Chimica", timeMin: 4 },
        { name: "Ragionamento Logico", timeMin: 3 },
      ],
      allowedClassLabels: [{ label: "5ªB Liceo Volta" }],
    });
    // The demo student is in through the class.
    expect((await call("GET", "/api/simulations/demo-5b-volta", { token: student })).status).toBe(200);
  });
});
