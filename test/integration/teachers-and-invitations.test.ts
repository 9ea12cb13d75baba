// Issue 28 "Honest grades under attack": a teacher acts only on their own pupils. A teacher's simulation opens only
// to accepted members of their classes and stays the size of one sitting (both doors: the JSON call and the console's
// action; Avvia checks again); the teacher's search finds only their pupils; pasting e-mails makes invitations that
// the pupil accepts or declines, with the same answer whether or not an address has an account.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "./analytics-fixtures";
import { call, count, googleToken, json, login, seed } from "./helpers";

const STUDENT_ID = 1; // a member of the demo teacher's class (seed)
const STRANGER_ID = 9701; // in no class of the demo teacher
const OTHERS_PUPIL_ID = 9702; // in another teacher's class only
const INVITED_ID = 9703; // invited, has not answered
const DECLINER_ID = 9704;
const LEAVER_ID = 9705;
let teacher: string;
let otherTeacher: string;
let admin: string;
let run = 0;

beforeAll(async () => {
  await seed();
  await env.DB.prepare(
    "INSERT OR IGNORE INTO users (id, email, name, username, role, status, share_code) VALUES (9700, 'docente.altra@example.com', 'Carla Blu', 'carla.blu', 'docente', 'attivo', 'U09700')",
  ).run();
  await insertUser(STRANGER_ID, "estraneo.cercato@example.com", "estraneo.cercato", "Ettore Estraneo");
  await insertUser(OTHERS_PUPIL_ID, "alunno.altrui@example.com", "alunno.altrui", "Alberto Altrui");
  await insertUser(INVITED_ID, "invitato.attesa@example.com", "invitato.attesa", "Irene Invitata");
  await insertUser(DECLINER_ID, "rifiuta.invito@example.com", "rifiuta.invito", "Rita Rifiuta");
  await insertUser(LEAVER_ID, "lascia.classe@example.com", "lascia.classe", "Leo Lascia");
  [teacher, otherTeacher, admin] = await Promise.all([
    login("docente@example.com"),
    login("docente.altra@example.com"),
    login("admin@example.com"),
  ]);
  const theirs = await createClass(otherTeacher);
  const pupil = await login("alunno.altrui@example.com");
  expect((await call("POST", "/api/classes/join", { token: pupil, json: { code: theirs.code } })).status).toBe(200);
});

type Cls = { id: number; name: string; code: string };

async function createClass(token = teacher): Promise<Cls> {
  const response = await call("POST", "/api/classes", { token, json: { name: `Classe 28 ${++run}` } });
  expect(response.status).toBe(201);
  return json<Cls>(response);
}

const errorOf = async (response: Response) => ((await response.json()) as { error?: string }).error ?? "";

/** The console's form error of a route action's reply. */
const formErrorOf = async (response: Response) => JSON.stringify(await response.json());

const sim = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Simulazione ${id}`,
  subjects: [{ subjectId: 1, timeMin: 5, questionCount: 3 }],
  allowedUsers: [STUDENT_ID],
  ...extra,
});

/** Saves through the JSON call, or through the Simulazioni tab's action (the console's door). */
const saveApi = (token: string, body: unknown) => call("POST", "/api/admin/simulations", { token, json: body });
const saveConsole = (token: string, body: Record<string, unknown>) =>
  call("POST", "/admin/simulazioni", { token, json: { intent: "save", ...body } });

describe("a teacher's simulations", () => {
  it("open only to the teacher's own pupils: anyone else (a stranger, another teacher's pupil, an invited non-member) is refused on both doors, and nothing is saved", async () => {
    const cls = await createClass();
    await call("POST", `/api/classes/${cls.id}/members`, {
      token: teacher,
      json: { emails: "invitato.attesa@example.com" },
    });
    for (const outsider of [STRANGER_ID, OTHERS_PUPIL_ID, INVITED_ID]) {
      const id = `t28-aud-${outsider}`;
      const body = sim(id, { allowedUsers: [STUDENT_ID, outsider], allowedClasses: [cls.id] });
      const viaApi = await saveApi(teacher, body);
      expect(viaApi.status, `user ${outsider}`).toBe(403);
      expect(await errorOf(viaApi)).toMatch(/solo studenti delle tue classi/);
      const viaConsole = await saveConsole(teacher, body);
      expect(viaConsole.status).toBe(403);
      expect(await formErrorOf(viaConsole)).toMatch(/solo studenti delle tue classi/);
      expect(await count("simulations", `id = '${id}'`)).toBe(0);
      expect(await count("simulation_allowed_users", `simulation_id = '${id}'`)).toBe(0);
    }
    // An existing simulation is not changed by a refused edit either.
    expect((await saveApi(teacher, sim("t28-aud-ok"))).status).toBe(201);
    expect((await saveApi(teacher, sim("t28-aud-ok", { allowedUsers: [STRANGER_ID] }))).status).toBe(403);
    const allowed = await env.DB.prepare(
      "SELECT user_id FROM simulation_allowed_users WHERE simulation_id = 't28-aud-ok'",
    ).all<{ user_id: number }>();
    expect(allowed.results.map((r) => r.user_id)).toEqual([STUDENT_ID]);
    // Another teacher's class stays refused too.
    const theirs = await createClass(otherTeacher);
    expect((await saveApi(teacher, sim("t28-aud-cls", { allowedClasses: [theirs.id] }))).status).toBe(403);
  });

  it("hold at most 3 subjects, 31 questions and 90 minutes a subject: more is refused in Italian on both doors, writing nothing", async () => {
    const before = await count("simulations");
    const subject = (subjectId: number, extra: Record<string, unknown> = {}) => ({
      subjectId,
      timeMin: 90,
      questionCount: 31,
      ...extra,
    });
    const questionIds = (
      await env.DB.prepare("SELECT id FROM questions WHERE subject_id = 1 ORDER BY id LIMIT 32").all<{ id: number }>()
    ).results.map((r) => r.id);
    for (const [label, subjects, message] of [
      ["32 questions", [subject(1, { questionCount: 32 })], /al massimo 31 domande per materia/],
      ["a file of 32 questions", [{ subjectId: 1, timeMin: 30, questions: questionIds }], /al massimo 31 domande/],
      ["91 minutes", [subject(1, { timeMin: 91 })], /al massimo 90 minuti per materia/],
      ["4 subjects", [subject(1), subject(2), subject(3), subject(4)], /al massimo 3 materie/],
    ] as const) {
      const body = sim(`t28-size-${run}`, { subjects });
      const viaApi = await saveApi(teacher, body);
      expect(viaApi.status, label).toBe(400);
      expect(await errorOf(viaApi), label).toMatch(message);
      const viaConsole = await saveConsole(teacher, body);
      expect(viaConsole.status, label).toBe(400);
      expect(await formErrorOf(viaConsole), label).toMatch(message);
    }
    expect(await count("simulations")).toBe(before);
    // Exactly the limits is fine.
    const full = await saveApi(teacher, sim("t28-size-max", { subjects: [subject(1), subject(2), subject(3)] }));
    expect(full.status).toBe(201);
    expect(await count("simulation_questions", "simulation_id = 't28-size-max'")).toBe(93);
  });

  it("an admin may pick anyone and go past a teacher's limits", async () => {
    const body = sim("t28-admin", {
      subjects: [1, 2, 3, 4].map((subjectId) => ({ subjectId, timeMin: 120, questionCount: 40 })),
      allowedUsers: [STUDENT_ID, STRANGER_ID, OTHERS_PUPIL_ID, INVITED_ID],
    });
    expect((await saveApi(admin, body)).status).toBe(201);
    expect(await count("simulation_allowed_users", "simulation_id = 't28-admin'")).toBe(4);
    expect((await saveConsole(admin, { ...body, id: "t28-admin-console" })).status).toBe(200);
  });

  it("Avvia checks again: a pupil who left the teacher's classes since the save is not sealed in", async () => {
    const cls = await createClass();
    const leaver = await login("lascia.classe@example.com");
    await call("POST", "/api/classes/join", { token: leaver, json: { code: cls.code } });
    expect((await saveApi(teacher, sim("t28-start", { allowedUsers: [LEAVER_ID] }))).status).toBe(201);
    await call("DELETE", `/api/classes/${cls.id}/members/${LEAVER_ID}`, { token: leaver });
    const start = await call("POST", "/api/admin/simulations/t28-start/start", { token: teacher });
    expect(start.status).toBe(403);
    expect(await errorOf(start)).toMatch(/solo studenti delle tue classi/);
    expect(await count("simulations", "id = 't28-start' AND started = 0")).toBe(1);
  });
});

describe("the teacher's search", () => {
  type Found = { users: { id: number; email: string }[]; questions: unknown[] };

  it("finds the teacher's own pupils only: never another student's e-mail (JSON call and console route)", async () => {
    const cls = await createClass();
    await call("POST", `/api/classes/${cls.id}/members`, {
      token: teacher,
      json: { emails: "estraneo.cercato@example.com" },
    });
    for (const q of ["estraneo", "estraneo.cercato@example.com", "alunno.altrui", "Alberto", "@example.com"]) {
      const found = await json<Found>(
        await call("GET", `/api/admin/search?q=${encodeURIComponent(q)}`, { token: teacher }),
      );
      const emails = found.users.map((u) => u.email);
      expect(emails, q).not.toContain("estraneo.cercato@example.com");
      expect(emails, q).not.toContain("alunno.altrui@example.com");
      const viaConsole = await json<{ value: Found }>(
        await call("GET", `/admin/cerca?q=${encodeURIComponent(q)}`, { token: teacher }),
      );
      expect(
        viaConsole.value.users.map((u) => u.email),
        q,
      ).toEqual(emails);
    }
    // Their pupil is found; an admin still finds anyone.
    const pupil = await json<Found>(await call("GET", "/api/admin/search?q=giulia.ross", { token: teacher }));
    expect(pupil.users.map((u) => u.email)).toEqual(["studente@example.com"]);
    const byAdmin = await json<Found>(await call("GET", "/api/admin/search?q=estraneo", { token: admin }));
    expect(byAdmin.users.map((u) => u.email)).toEqual(["estraneo.cercato@example.com"]);
  });
});

type Invitation = { id: number; classId: number; name: string; teacher: string };
const profileInvitations = async (token: string) =>
  (await json<{ invitations: Invitation[] }>(await call("GET", "/profilo", { token }))).invitations;
const answer = (token: string, intent: "accept-invitation" | "decline-invitation", invitationId: number) =>
  call("POST", "/profilo", { token, json: { intent, invitationId } });

describe("invitations by e-mail", () => {
  it("answer the same for an address with an account and one without, and enrol nobody", async () => {
    const cls = await createClass();
    const send = (emails: string) =>
      call("POST", `/api/classes/${cls.id}/members`, { token: teacher, json: { emails } });
    const existing = await send("Irene <invitato.attesa@example.com>");
    const missing = await send("nessuno.registrato@example.com");
    expect(existing.status).toBe(missing.status);
    const body = await json(existing);
    expect(body).toEqual({ invited: 1, alreadyMembers: 0, malformed: [] });
    expect(await json(missing)).toEqual(body);
    // The console's door answers alike.
    const viaConsole = async (emails: string) =>
      (
        await json<{ value: unknown }>(
          await call("POST", "/admin/classi", {
            token: teacher,
            json: { intent: "add-members", classId: cls.id, emails },
          }),
        )
      ).value;
    expect(await viaConsole("rifiuta.invito@example.com")).toEqual(await viaConsole("mai.visto@example.com"));
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(0);
    expect(await count("class_invitations", `class_id = ${cls.id}`)).toBe(4);
    // The teacher sees them by the address typed, pending or not alike.
    const sent = await json<{ email: string }[]>(
      await call("GET", `/api/classes/${cls.id}/invitations`, { token: teacher }),
    );
    expect(sent.map((i) => i.email)).toEqual([
      "invitato.attesa@example.com",
      "mai.visto@example.com",
      "nessuno.registrato@example.com",
      "rifiuta.invito@example.com",
    ]);
    expect((await call("GET", `/api/classes/${cls.id}/invitations`, { token: otherTeacher })).status).toBe(403);
    // A pending invitation opens nothing: a simulation for the class is not theirs.
    expect((await saveApi(teacher, sim("t28-pending", { allowedUsers: [], allowedClasses: [cls.id] }))).status).toBe(
      201,
    );
    const invited = await login("invitato.attesa@example.com");
    expect((await call("GET", "/api/simulations/t28-pending", { token: invited })).status).toBe(403);
  });

  it("the pupil accepts on /profilo and is a member; a declined one stays out and does not come back; nobody answers another's", async () => {
    const cls = await createClass();
    await call("POST", `/api/classes/${cls.id}/members`, {
      token: teacher,
      json: { emails: "invitato.attesa@example.com\nrifiuta.invito@example.com" },
    });
    const invited = await login("invitato.attesa@example.com");
    const decliner = await login("rifiuta.invito@example.com");
    const mine = (await profileInvitations(invited)).find((i) => i.classId === cls.id)!;
    expect(mine).toMatchObject({ name: cls.name, teacher: "Anna Moretti" });
    const theirs = (await profileInvitations(decliner)).find((i) => i.classId === cls.id)!;

    // Someone else's invitation: 404, nothing written.
    const stolen = await answer(invited, "accept-invitation", theirs.id);
    expect(stolen.status).toBe(404);
    expect(await formErrorOf(stolen)).toMatch(/Invito non trovato/);
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(0);

    expect((await answer(invited, "accept-invitation", mine.id)).status).toBe(200);
    expect(await count("class_members", `class_id = ${cls.id} AND user_id = ${INVITED_ID}`)).toBe(1);
    expect((await profileInvitations(invited)).some((i) => i.classId === cls.id)).toBe(false);
    expect((await answer(invited, "accept-invitation", mine.id)).status).toBe(404);

    expect((await answer(decliner, "decline-invitation", theirs.id)).status).toBe(200);
    expect(await count("class_members", `class_id = ${cls.id} AND user_id = ${DECLINER_ID}`)).toBe(0);
    expect((await profileInvitations(decliner)).some((i) => i.classId === cls.id)).toBe(false);
    // Inviting again: the same answer, and the pupil is not asked again.
    const again = await call("POST", `/api/classes/${cls.id}/members`, {
      token: teacher,
      json: { emails: "rifiuta.invito@example.com" },
    });
    expect(await json(again)).toEqual({ invited: 1, alreadyMembers: 0, malformed: [] });
    expect((await profileInvitations(decliner)).some((i) => i.classId === cls.id)).toBe(false);
    // An accepted member is counted as such when invited again.
    const member = await call("POST", `/api/classes/${cls.id}/members`, {
      token: teacher,
      json: { emails: "invitato.attesa@example.com" },
    });
    expect(await json(member)).toEqual({ invited: 0, alreadyMembers: 1, malformed: [] });
    // A bad invitation id is a 400 in Italian.
    const bad = await call("POST", "/profilo", {
      token: invited,
      json: { intent: "accept-invitation", invitationId: "x" },
    });
    expect(bad.status).toBe(400);
    expect(await formErrorOf(bad)).toMatch(/Invito/);
  });

  it("an invitation to an address without an account appears once that address signs up, and can be accepted", async () => {
    const cls = await createClass();
    const email = `nuova.iscritta.${run}@example.com`;
    await call("POST", `/api/classes/${cls.id}/members`, { token: teacher, json: { emails: email.toUpperCase() } });
    expect(await count("users", `email = '${email}'`)).toBe(0);
    const credential = await googleToken({ email, name: "Nora Nuova", sub: `g-nuova-${run}` });
    const signedIn = await call("POST", "/api/auth/google", { json: { credential } });
    expect(signedIn.status).toBe(200);
    const { token } = await json<{ token: string }>(signedIn);
    const [invitation] = await json<Invitation[]>(await call("GET", "/api/classes/invitations", { token }));
    expect(invitation).toMatchObject({ classId: cls.id, name: cls.name });
    expect((await profileInvitations(token)).map((i) => i.id)).toEqual([invitation!.id]);
    const accepted = await call("POST", `/api/classes/invitations/${invitation!.id}/accept`, { token });
    expect(await json(accepted)).toMatchObject({ id: cls.id, joined: true });
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(1);
  });

  it("joining with the class's code answers its invitation too; declining through the JSON call works like /profilo", async () => {
    const cls = await createClass();
    await call("POST", `/api/classes/${cls.id}/members`, {
      token: teacher,
      json: { emails: "lascia.classe@example.com, rifiuta.invito@example.com" },
    });
    const leaver = await login("lascia.classe@example.com");
    expect((await call("POST", "/api/classes/join", { token: leaver, json: { code: cls.code } })).status).toBe(200);
    expect(await count("class_invitations", `class_id = ${cls.id} AND email = 'lascia.classe@example.com'`)).toBe(0);
    const decliner = await login("rifiuta.invito@example.com");
    const invitation = (
      await json<Invitation[]>(await call("GET", "/api/classes/invitations", { token: decliner }))
    ).find((i) => i.classId === cls.id)!;
    expect((await call("DELETE", `/api/classes/invitations/${invitation.id}`, { token: leaver })).status).toBe(404);
    expect((await call("DELETE", `/api/classes/invitations/${invitation.id}`, { token: decliner })).status).toBe(200);
    expect(await count("class_members", `class_id = ${cls.id}`)).toBe(1);
  });
});
