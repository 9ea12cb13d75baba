// The admin console's tabs are routes (issue 19): /admin/<tab>, each letting in only the roles that see it.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { call, login, seed } from "./helpers";

let admin: string;
let moderator: string;
let teacher: string;
let student: string;

beforeAll(async () => {
  await seed();
  [admin, moderator, teacher, student] = await Promise.all(
    ["admin@example.com", "moderatore@example.com", "docente@example.com", "studente@example.com"].map(login),
  );
});

const where = async (path: string, token: string) => {
  const response = await call("GET", path, { token });
  return response.status === 200 ? "200" : `${response.status} ${response.headers.get("Location")}`;
};

describe("/admin/<tab>", () => {
  // "?index" asks for the index route's own loader (a browser's document request runs it after the layout's).
  it("/admin opens the role's first tab; an older ?tab= link keeps its filters", async () => {
    expect(await where("/admin?index", admin)).toBe("302 /admin/analytics");
    expect(await where("/admin?index", moderator)).toBe("302 /admin/segnalazioni");
    expect(await where("/admin?index", teacher)).toBe("302 /admin/classi");
    expect(await where("/admin?index&tab=tentativi&userId=4", admin)).toBe("302 /admin/tentativi?userId=4");
  });

  it("lets each role into its tabs only", async () => {
    expect(await where("/admin/utenti", admin)).toBe("200");
    expect(await where("/admin/segnalazioni", moderator)).toBe("200");
    expect(await where("/admin/utenti", moderator)).toBe("302 /admin");
    expect(await where("/admin/simulazioni", teacher)).toBe("200");
    expect(await where("/admin/compiti", teacher)).toBe("200");
    expect(await where("/admin/compiti", moderator)).toBe("302 /admin");
    expect(await where("/admin/compiti", student)).toBe("302 /");
    expect(await where("/admin/database", teacher)).toBe("302 /admin");
    expect(await where("/admin/rush", student)).toBe("302 /");
  });
});

describe("the tabs' actions", () => {
  const post = (path: string, token: string, json: unknown) => call("POST", path, { token, json });
  const reportStatus = async (id: number) =>
    (await env.DB.prepare("SELECT status FROM reports WHERE id = ?").bind(id).first<{ status: string }>())?.status;

  it("Segnalazioni: a moderator resolves and updates a report; a teacher or a student is sent away and nothing changes", async () => {
    const id = (await env.DB.prepare("SELECT id FROM reports ORDER BY id LIMIT 1").first<{ id: number }>())!.id;
    await env.DB.prepare("UPDATE reports SET status = 'open' WHERE id = ?").bind(id).run();
    expect((await post("/admin/segnalazioni", teacher, { intent: "resolve", id })).status).toBe(302);
    expect((await post("/admin/segnalazioni", student, { intent: "resolve", id })).status).toBe(302);
    expect(await reportStatus(id)).toBe("open");
    const bad = await post("/admin/segnalazioni", moderator, { intent: "resolve", id: "uno" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Segnalazione non valida");
    expect((await post("/admin/segnalazioni", moderator, { intent: "resolve", id })).status).toBe(200);
    expect(await reportStatus(id)).toBe("resolved");
    const updated = await post("/admin/segnalazioni", moderator, { intent: "update-report", id, status: "in_review" });
    expect(updated.status).toBe(200);
    expect(await reportStatus(id)).toBe("in_review");
  });

  it("a question saved from the console: staff only, the editor's Italian messages", async () => {
    const question = { intent: "save-question", id: 1001, stem: "Testo rivisto", explanation: "", options: [] };
    expect((await post("/admin", teacher, question)).status).toBe(302);
    const empty = await post("/admin", moderator, { ...question, stem: " " });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain("Il testo della domanda è obbligatorio");
    const stem = await env.DB.prepare("SELECT stem FROM questions WHERE id = 1001").first<{ stem: string }>();
    expect(stem?.stem).not.toBe("Testo rivisto");
  });
});

describe("the Utenti tab's action", () => {
  const post = (token: string, json: unknown) => call("POST", "/admin/utenti", { token, json });

  it("creates, edits, suspends with a reason, reactivates and deletes a user; a moderator is sent away", async () => {
    const email = `utenti.azione.${Date.now()}@example.com`;
    expect((await post(moderator, { intent: "save-user", user: { name: "Nuova Persona", email } })).status).toBe(302);
    const created = await post(admin, { intent: "save-user", user: { name: "Nuova Persona", email } });
    expect(created.status).toBe(200);
    const row = await env.DB.prepare("SELECT id, status FROM users WHERE email = ?")
      .bind(email)
      .first<{ id: number; status: string }>();
    expect(row).toMatchObject({ status: "attivo" });
    const bad = await post(admin, { intent: "save-user", id: row!.id, user: { name: "", email: "non-una-mail" } });
    expect(bad.status).toBe(400);
    expect((await post(admin, { intent: "toggle-ban", id: row!.id, reason: "Prova di sospensione" })).status).toBe(200);
    expect(
      (await env.DB.prepare("SELECT status FROM users WHERE id = ?").bind(row!.id).first<{ status: string }>())?.status,
    ).toBe("sospeso");
    expect((await post(admin, { intent: "toggle-ban", id: row!.id })).status).toBe(200);
    const removed = await post(admin, { intent: "delete", ids: [row!.id] });
    expect(removed.status).toBe(200);
    expect(await env.DB.prepare("SELECT id FROM users WHERE id = ?").bind(row!.id).first()).toBeNull();
    expect((await post(admin, { intent: "delete", ids: [] })).status).toBe(400);
  });
});

describe("the Rush tab's action", () => {
  const post = (token: string, json: unknown) => call("POST", "/admin/rush", { token, json });

  it("creates, edits and deletes an event with the API's rules; a teacher is sent away", async () => {
    const startsAt = new Date(Date.now() + 86_400_000).toISOString();
    const endsAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const event = { title: "Rush dall'azione", startsAt, endsAt, published: false };
    expect((await post(teacher, { intent: "save-event", event })).status).toBe(302);
    const created = await post(admin, { intent: "save-event", event });
    expect(created.status).toBe(200);
    const row = await env.DB.prepare("SELECT id FROM rush_events WHERE title = ?")
      .bind(event.title)
      .first<{ id: number }>();
    expect(row).not.toBeNull();
    const backwards = await post(admin, {
      intent: "save-event",
      id: row!.id,
      event: { ...event, endsAt: startsAt, startsAt: endsAt },
    });
    expect(backwards.status).toBe(400);
    expect((await post(admin, { intent: "delete", id: row!.id })).status).toBe(200);
    expect(await env.DB.prepare("SELECT id FROM rush_events WHERE id = ?").bind(row!.id).first()).toBeNull();
  });
});

describe("the Classi tab's action", () => {
  const post = (token: string, json: unknown) => call("POST", "/admin/classi", { token, json });

  it("a teacher creates a class, invites pupils by e-mail, renews its code and deletes it; a student is sent away", async () => {
    expect((await post(student, { intent: "create", name: "Classe di nessuno" })).status).toBe(302);
    const created = await post(teacher, { intent: "create", name: "4ªA dall'azione" });
    expect(created.status).toBe(200);
    const cls = await env.DB.prepare("SELECT id, code FROM classes WHERE name = ?")
      .bind("4ªA dall'azione")
      .first<{ id: number; code: string }>();
    expect(cls).not.toBeNull();
    const added = await post(teacher, {
      intent: "add-members",
      classId: cls!.id,
      emails: "studente@example.com\nnessuno@example.com",
    });
    expect(added.status).toBe(200);
    // Invitations, the same for an address with an account and one without; nobody is enrolled yet.
    expect(((await added.json()) as { value: unknown }).value).toEqual({
      invited: 2,
      alreadyMembers: 0,
      malformed: [],
    });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM class_members WHERE class_id = ?").bind(cls!.id).first("n"),
    ).toBe(0);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM class_invitations WHERE class_id = ?").bind(cls!.id).first("n"),
    ).toBe(2);
    expect((await post(teacher, { intent: "renew-code", classId: cls!.id })).status).toBe(200);
    const code = await env.DB.prepare("SELECT code FROM classes WHERE id = ?").bind(cls!.id).first<{ code: string }>();
    expect(code?.code).not.toBe(cls!.code);
    expect((await post(teacher, { intent: "delete", classId: cls!.id })).status).toBe(200);
    expect(await env.DB.prepare("SELECT id FROM classes WHERE id = ?").bind(cls!.id).first()).toBeNull();
  });
});

describe("the Simulazioni tab's action", () => {
  const post = (token: string, json: unknown) => call("POST", "/admin/simulazioni", { token, json });

  it("a teacher saves and deletes their simulation; a student is sent away; a bad one is refused in Italian", async () => {
    const id = `azione-${Date.now()}`;
    const simulation = {
      id,
      title: "Dall'azione",
      subjects: [{ subjectId: 2, timeMin: 5, questionCount: 3 }],
      allowedUsers: [1],
      allowedClasses: [],
    };
    expect((await post(student, { intent: "save", ...simulation })).status).toBe(302);
    const saved = await post(teacher, { intent: "save", ...simulation });
    expect(saved.status).toBe(200);
    expect(
      await env.DB.prepare("SELECT created_by FROM simulations WHERE id = ?").bind(id).first("created_by"),
    ).not.toBeNull();
    const bad = await post(teacher, { intent: "save", ...simulation, subjects: [] });
    expect(bad.status).toBe(400);
    expect((await post(teacher, { intent: "delete", id })).status).toBe(200);
    expect(await env.DB.prepare("SELECT id FROM simulations WHERE id = ?").bind(id).first()).toBeNull();
  });
});

describe("the Database tab's action", () => {
  const post = (token: string, json: unknown) => call("POST", "/admin/database", { token, json });

  it("recalculates the statistics for an admin; refuses a reset the server does not allow; a moderator is sent away", async () => {
    expect((await post(moderator, { intent: "recalc-stats" })).status).toBe(302);
    expect((await post(admin, { intent: "recalc-stats" })).status).toBe(200);
    const users = await env.DB.prepare("SELECT count(*) AS n FROM users").first("n");
    const reset = await post(admin, { intent: "reset-db", confirm: "RESET" });
    expect(reset.status).toBe(403);
    expect(JSON.stringify(await reset.json())).toContain("ALLOW_DB_RESET=1");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first("n")).toBe(users);
  });
});

describe("the tabs' loaders read their lists (issue 19)", () => {
  const data = async <T>(path: string, token: string) => {
    const response = await call("GET", path, { token });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  it("Segnalazioni: ?stato= filters the list as the API does, and an unknown filter shows them all", async () => {
    const count = async (where: string) =>
      Number(await env.DB.prepare(`SELECT count(*) AS n FROM reports ${where}`).first("n"));
    type Reports = { reports: { id: number; state: string }[] };
    const all = await data<Reports>("/admin/segnalazioni", moderator);
    expect(all.reports.length).toBe(await count(""));
    const open = await data<Reports>("/admin/segnalazioni?stato=open", moderator);
    expect(open.reports.length).toBe(await count("WHERE status <> 'resolved'"));
    expect(open.reports.every((r) => r.state === "open")).toBe(true);
    expect((await data<Reports>("/admin/segnalazioni?stato=boh", moderator)).reports.length).toBe(all.reports.length);
  });

  it("Utenti: one page with the total, filters from the URL, and the audit log", async () => {
    type Users = { users: { items: { email: string; role: string }[]; total: number }; audit: unknown[] };
    const everyone = await data<Users>("/admin/utenti", admin);
    expect(everyone.users.total).toBe(Number(await env.DB.prepare("SELECT count(*) AS n FROM users").first("n")));
    const teachers = await data<Users>("/admin/utenti?ruolo=docente", admin);
    expect(teachers.users.items.map((u) => u.email)).toContain("docente@example.com");
    expect(teachers.users.items.every((u) => u.role === "docente")).toBe(true);
    const found = await data<Users>("/admin/utenti?q=moderatore", admin);
    expect(found.users.items.map((u) => u.email)).toEqual(["moderatore@example.com"]);
    expect(Array.isArray(everyone.audit)).toBe(true);
  });

  it("Classi: ?classe= opens the members and invitations of the teacher's own class, and nothing of another's", async () => {
    const created = await call("POST", "/admin/classi", { token: teacher, json: { intent: "create", name: "5ªB" } });
    const { id } = ((await created.json()) as { value: { id: number } }).value;
    await call("POST", "/admin/classi", {
      token: teacher,
      json: { intent: "add-members", classId: id, emails: "studente@example.com" },
    });
    type Classi = {
      classes: { id: number }[];
      open: { id: number; members: { email: string }[]; invitations: { id: number; email: string }[] } | null;
    };
    const invited = await data<Classi>(`/admin/classi?classe=${id}`, teacher);
    expect(invited.open?.members).toEqual([]);
    expect(invited.open?.invitations.map((i) => i.email)).toEqual(["studente@example.com"]);
    // The pupil accepts on /profilo: a member, no longer invited.
    const accepted = await call("POST", "/profilo", {
      token: student,
      json: { intent: "accept-invitation", invitationId: invited.open!.invitations[0]!.id },
    });
    expect(accepted.status).toBe(200);
    const own = await data<Classi>(`/admin/classi?classe=${id}`, teacher);
    expect(own.classes.map((c) => c.id)).toContain(id);
    expect(own.open?.members.map((m) => m.email)).toEqual(["studente@example.com"]);
    expect(own.open?.invitations).toEqual([]);
    // Another teacher's class (or a made-up id) opens nothing.
    const other = await env.DB.prepare(
      "INSERT INTO classes (name, code, owner_id, created_at) VALUES ('Altrui', 'ALTRUI99', 1, 0) RETURNING id",
    ).first<{ id: number }>();
    expect((await data<Classi>(`/admin/classi?classe=${other!.id}`, teacher)).open).toBeNull();
    expect((await data<Classi>("/admin/classi?classe=999999", teacher)).open).toBeNull();
  });

  it("Simulazioni and Rush: the lists the tabs show, the subjects the form offers", async () => {
    type Sims = { simulations: { id: string }[]; subjects: { name: string }[]; attempts: unknown };
    const sims = await data<Sims>("/admin/simulazioni?tentativi=non-esiste", admin);
    expect(sims.simulations.length).toBe(
      Number(await env.DB.prepare("SELECT count(*) AS n FROM simulations").first("n")),
    );
    expect(sims.subjects.map((s) => s.name)).toContain("Chimica");
    expect(sims.attempts).toBeNull();
    const rush = await data<{ events: unknown[] }>("/admin/rush", admin);
    expect(rush.events.length).toBe(Number(await env.DB.prepare("SELECT count(*) AS n FROM rush_events").first("n")));
  });
});

describe("the console's and the dashboard's lookups (fetchers)", () => {
  const lookup = async <T>(path: string, token: string) => {
    const response = await call("GET", path, { token });
    return { status: response.status, body: response.status === 200 ? ((await response.json()) as T) : null };
  };

  it("search, question and user detail answer { value } to their roles, { error } in Italian, and send others away", async () => {
    type Found = { value?: { users: { email: string }[] }; error?: string };
    const found = await lookup<Found>("/admin/cerca?q=moderatore", admin);
    expect(found.body?.value?.users.map((u) => u.email)).toContain("moderatore@example.com");
    expect((await lookup<Found>("/admin/cerca?q=", admin)).body?.error).toContain(
      "Scrivi almeno un carattere da cercare",
    );
    expect((await lookup("/admin/cerca?q=moderatore", student)).status).toBe(302);

    const question = await lookup<{ value?: { stem: string } }>("/admin/domanda/1001", moderator);
    expect(question.body?.value?.stem).toBeTruthy();
    expect((await lookup<{ error?: string }>("/admin/domanda/99999999", moderator)).body?.error).toMatch(
      /non trovata/i,
    );
    expect((await lookup("/admin/domanda/1001", teacher)).status).toBe(302);

    const detail = await lookup<{ value?: { email: string; stats: unknown } }>("/admin/utente/1", admin);
    expect(detail.body?.value?.stats).toBeDefined();
    expect((await lookup("/admin/utente/1", moderator)).status).toBe(302);
  });

  it("the Utenti export reads every user matching the filters, not one page", async () => {
    type All = { value: { role: string }[] };
    const all = (await lookup<All>("/admin/utenti/esporta", admin)).body!.value;
    expect(all.length).toBe(Number(await env.DB.prepare("SELECT count(*) AS n FROM users").first("n")));
    const teachers = (await lookup<All>("/admin/utenti/esporta?role=docente", admin)).body!.value;
    expect(teachers.length).toBeGreaterThan(0);
    expect(teachers.every((u) => u.role === "docente")).toBe(true);
    const bad = await lookup<{ error?: string }>("/admin/utenti/esporta?role=capo", admin);
    expect(bad.body?.error).toContain("Filtro ruolo non valido");
    expect((await lookup("/admin/utenti/esporta", moderator)).status).toBe(302);
  });

  it("a friend's statistics only for an accepted friend", async () => {
    const ids = await env.DB.prepare(
      "SELECT id, email FROM users WHERE email IN ('studente@example.com', 'moderatore@example.com')",
    ).all<{ id: number; email: string }>();
    const other = ids.results.find((u) => u.email === "moderatore@example.com")!.id;
    const reply = await lookup<{ value?: unknown; error?: string }>(`/dashboard/amico/${other}`, student);
    expect(reply.body?.value).toBeUndefined();
    expect(reply.body?.error).toContain("Nessun amico collegato");
  });
});
