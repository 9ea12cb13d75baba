// Admin user management: list, create, edit, suspend/reactivate, delete, and the detail view's stats.
import { and, eq, inArray, like, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { auditEntry, type AuditActor } from "../audit.server";
import { italianDaySql } from "../db/aggregate-sql";
import type { Db } from "../db/client.server";
import { attempts, ROLES, USER_STATUSES, users, type User } from "../db/schema";
import { HttpError, withLabels } from "../errors.server";
import { endAllSessions } from "../session.server";
import { ADMIN_USERS_PAGE_SIZE } from "~/lib/constants";
import { italianDay } from "~/lib/days";
import { extraTimePct } from "~/lib/forms/extra-time";

export const MISSING_NAME_EMAIL = "Compila nome ed email";

const optionalText = z
  .union([z.string().max(500, "Testo troppo lungo (massimo 500 caratteri)"), z.null()])
  .optional()
  .transform((v) => (v == null ? v : v.trim() || null));

/** The admin form (spec section 3, admin user view); name and email are required on create. */
export const userFormSchema = withLabels(
  z.object({
    name: z.string().max(200).optional(),
    email: z.string().max(320).optional(),
    phone: optionalText,
    username: optionalText,
    city: optionalText,
    school: optionalText,
    year: z
      .union([
        z.number().int("L'anno deve essere un numero intero").min(1, "Anno non valido").max(10, "Anno non valido"),
        z.null(),
      ])
      .optional(),
    telegram: optionalText,
    instagram: optionalText,
    bio: z.union([z.string().max(2000, "Bio troppo lunga"), z.null()]).optional(),
    verified: z.boolean().optional(),
    marketing: z.boolean().optional(),
    theme: z.enum(["dark", "light"], "Tema non valido: usa dark o light").optional(),
    role: z.enum(ROLES, "Ruolo non valido: usa studente, docente, moderator o admin").optional(),
    status: z.enum(USER_STATUSES, "Stato non valido: usa attivo o sospeso").optional(),
    /** Accommodation (issue 29): extra time in simulations, 0-100 %. */
    extraTimePct: extraTimePct.optional(),
  }),
  {
    name: "Nome",
    email: "Email",
    phone: "Telefono",
    username: "Nome utente",
    city: "Città",
    school: "Scuola",
    year: "Anno",
    telegram: "Telegram",
    instagram: "Instagram",
    bio: "Bio",
    verified: "Verificato",
    marketing: "Newsletter",
    theme: "Tema",
    role: "Ruolo",
    status: "Stato",
    extraTimePct: "Tempo aggiuntivo",
  },
);
export type UserForm = z.infer<typeof userFormSchema>;

const EMAIL = z.email();

function checkNameEmail(name: string | undefined, email: string | undefined, required: boolean) {
  const n = name?.trim();
  const e = email?.trim().toLowerCase();
  if (required && (!n || !e)) throw new HttpError(400, MISSING_NAME_EMAIL);
  if (name !== undefined && !n) throw new HttpError(400, MISSING_NAME_EMAIL);
  if (email !== undefined && !e) throw new HttpError(400, MISSING_NAME_EMAIL);
  if (e && !EMAIL.safeParse(e).success) throw new HttpError(400, `Email non valida: "${email}".`);
  return { name: n, email: e };
}

export type AdminUser = ReturnType<typeof toAdminUser>;

export function toAdminUser(u: User) {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    username: u.username,
    city: u.city,
    school: u.school,
    year: u.schoolYear,
    telegram: u.telegram,
    instagram: u.instagram,
    bio: u.bio,
    verified: u.verified,
    marketing: u.marketing,
    theme: u.theme,
    role: u.role,
    status: u.status,
    suspensionReason: u.suspensionReason,
    extraTimePct: u.extraTimePct,
    createdAt: u.createdAt.toISOString(),
    lastLogin: u.lastLogin ? u.lastLogin.toISOString() : null,
  };
}

export const userListQuery = withLabels(
  z.object({
    status: z.enum(USER_STATUSES, "Filtro stato non valido: usa attivo o sospeso").optional(),
    role: z.enum(ROLES, "Filtro ruolo non valido: usa studente, docente, moderator o admin").optional(),
    q: z.string().max(100, "Ricerca troppo lunga (massimo 100 caratteri)").optional(),
    /** Without `page`, the whole filtered list (the CSV export); with it, one page of `pageSize`. */
    page: z.coerce.number("Pagina non valida").int("Pagina non valida").min(1, "Pagina non valida").optional(),
    pageSize: z.coerce
      .number("Dimensione pagina da 1 a 100")
      .int("Dimensione pagina da 1 a 100")
      .min(1, "Dimensione pagina da 1 a 100")
      .max(100, "Dimensione pagina da 1 a 100")
      .optional(),
  }),
  { status: "Stato", role: "Ruolo", q: "Ricerca", page: "Pagina", pageSize: "Righe per pagina" },
);

/** Users matching the filters, by id; `total` counts them all, `items` is the page asked for (or all). */
export async function listUsers(db: Db, filter: z.infer<typeof userListQuery>) {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(users.status, filter.status));
  if (filter.role) where.push(eq(users.role, filter.role));
  if (filter.q?.trim()) {
    const pattern = `%${filter.q.trim().replace(/[%_]/g, "")}%`;
    where.push(or(like(users.name, pattern), like(users.email, pattern))!);
  }
  const condition = where.length ? and(...where) : undefined;
  const query = db.select().from(users).where(condition).orderBy(users.id);
  const withAttempts = (rows: User[], counts: { user_id: number; n: number }[]) => {
    const byUser = new Map(counts.map((c) => [c.user_id, c.n]));
    return rows.map((u) => ({ ...toAdminUser(u), attempts: byUser.get(u.id) ?? 0 }));
  };

  if (!filter.page) {
    // Every match (the CSV export): one pass over the completed attempts.
    const [rows, counts] = await Promise.all([
      query,
      db.all<{ user_id: number; n: number }>(
        sql`SELECT user_id, count(*) AS n FROM attempts WHERE status = 'completed' GROUP BY user_id`,
      ),
    ]);
    return { total: rows.length, page: 1, pageSize: rows.length, items: withAttempts(rows, counts) };
  }

  const pageSize = filter.pageSize ?? ADMIN_USERS_PAGE_SIZE;
  const [rows, total] = await Promise.all([
    query.limit(pageSize).offset((filter.page - 1) * pageSize),
    db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(condition)
      .get()
      .then((r) => r?.n ?? 0),
  ]);
  // Completed attempts of this page's users only (an index lookup each), so a page costs the same
  // however many students there are. At most 100 ids: D1's bound-variable limit.
  const counts = rows.length
    ? await db
        .select({ user_id: attempts.userId, n: sql<number>`count(*)` })
        .from(attempts)
        .where(
          and(
            sql`${attempts.status} = 'completed'`,
            inArray(
              attempts.userId,
              rows.map((u) => u.id),
            ),
          ),
        )
        .groupBy(attempts.userId)
    : [];
  return { total, page: filter.page, pageSize, items: withAttempts(rows, counts) };
}

async function getUserRow(db: Db, id: number): Promise<User> {
  const row = await db.select().from(users).where(eq(users.id, id)).get();
  if (!row) throw new HttpError(404, "Utente non trovato.");
  return row;
}

async function assertEmailFree(db: Db, email: string, exceptId?: number) {
  const other = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (other && other.id !== exceptId) throw new HttpError(409, `Esiste già un utente con l'email ${email}.`);
}

async function assertUsernameFree(db: Db, username: string, exceptId?: number) {
  const other = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).get();
  if (other && other.id !== exceptId) throw new HttpError(409, `Lo username "${username}" è già in uso.`);
}

function columnsFrom(form: UserForm) {
  const v: Partial<typeof users.$inferInsert> = {};
  if (form.phone !== undefined) v.phone = form.phone;
  if (form.username !== undefined) v.username = form.username;
  if (form.city !== undefined) v.city = form.city;
  if (form.school !== undefined) v.school = form.school;
  if (form.year !== undefined) v.schoolYear = form.year;
  if (form.telegram !== undefined) v.telegram = form.telegram;
  if (form.instagram !== undefined) v.instagram = form.instagram;
  if (form.bio !== undefined) v.bio = form.bio;
  if (form.verified !== undefined) v.verified = form.verified;
  if (form.marketing !== undefined) v.marketing = form.marketing;
  if (form.theme !== undefined) v.theme = form.theme;
  if (form.role !== undefined) v.role = form.role;
  if (form.extraTimePct !== undefined) v.extraTimePct = form.extraTimePct;
  return v;
}

export async function createUser(db: Db, actor: AuditActor, form: UserForm) {
  const { name, email } = checkNameEmail(form.name, form.email, true);
  await assertEmailFree(db, email!);
  if (form.username) await assertUsernameFree(db, form.username);
  const values = { ...columnsFrom(form), name: name!, email: email!, status: "attivo" as const };
  const [inserted] = await db.insert(users).values(values).returning();
  await auditEntry(db, actor, "user.create", { type: "user", id: inserted!.id }, { email, role: inserted!.role });
  return toAdminUser(inserted!);
}

export async function updateUser(db: Db, actor: AuditActor, id: number, form: UserForm) {
  const current = await getUserRow(db, id);
  const { name, email } = checkNameEmail(form.name, form.email, false);
  if (email) await assertEmailFree(db, email, id);
  if (form.username) await assertUsernameFree(db, form.username, id);
  if (id === actor.id && form.role && form.role !== "admin") {
    throw new HttpError(400, "Non puoi togliere a te stesso il ruolo di amministratore.");
  }
  const values = columnsFrom(form);
  if (name) values.name = name;
  if (email) values.email = email;
  // Status changes go through the ban toggle (it records the reason).
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if ((current as Record<string, unknown>)[key] !== value) changes[key] = value;
  }
  const statements = [];
  if (Object.keys(values).length) statements.push(db.update(users).set(values).where(eq(users.id, id)));
  statements.push(auditEntry(db, actor, "user.update", { type: "user", id }, { changes }));
  if (form.role && form.role !== current.role) {
    statements.push(
      auditEntry(
        db,
        actor,
        "user.role",
        { type: "user", id },
        { from: current.role, to: form.role, email: current.email },
      ),
    );
    // A new role starts with a new sign-in: no session keeps what the old role let it open.
    if (id !== actor.id) statements.push(endAllSessions(db, id));
  }
  await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  return toAdminUser(await getUserRow(db, id));
}

export async function deleteUser(db: Db, actor: AuditActor, id: number) {
  if (id === actor.id) throw new HttpError(400, "Non puoi eliminare il tuo stesso account.");
  const current = await getUserRow(db, id);
  await db.batch([
    db.delete(users).where(eq(users.id, id)),
    auditEntry(db, actor, "user.delete", { type: "user", id }, { email: current.email, name: current.name }),
  ]);
  return { ok: true, id };
}

export const banSchema = withLabels(
  z
    .object({
      reason: z.union([z.string().max(500, "Motivo troppo lungo (massimo 500 caratteri)"), z.null()]).optional(),
    })
    .optional(),
  { reason: "Motivo della sospensione" },
);

/** The ban toggle (spec section 4): attivo → sospeso with a reason; sospeso → attivo with none. */
export async function toggleBan(db: Db, actor: AuditActor, id: number, reason: string | null | undefined) {
  const current = await getUserRow(db, id);
  if (current.status === "attivo") {
    if (id === actor.id) throw new HttpError(400, "Non puoi sospendere il tuo stesso account.");
    const text = reason?.trim();
    if (!text) throw new HttpError(400, "Indica il motivo della sospensione.");
    await db.batch([
      db.update(users).set({ status: "sospeso", suspensionReason: text }).where(eq(users.id, id)),
      endAllSessions(db, id), // after reactivation the user signs in again
      auditEntry(db, actor, "user.ban", { type: "user", id }, { email: current.email, reason: text }),
    ]);
    return { id, status: "sospeso" as const, reason: text };
  }
  await db.batch([
    db.update(users).set({ status: "attivo", suspensionReason: null }).where(eq(users.id, id)),
    auditEntry(db, actor, "user.unban", { type: "user", id }, { email: current.email }),
  ]);
  return { id, status: "attivo" as const, reason: null };
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const floor0 = (n: number | null | undefined) => Math.max(0, Math.floor(Number(n) || 0));

/** Consecutive days (UTC) with a completed attempt: the current run (ending today or yesterday) and the best. */
export function streaks(days: string[], today: string): { streak: number; bestStreak: number } {
  const sorted = [...new Set(days)].sort();
  const dayNumber = (d: string) => Math.round(Date.parse(`${d}T00:00:00Z`) / 86_400_000);
  let best = 0;
  let run = 0;
  let prev: number | null = null;
  for (const d of sorted) {
    const n = dayNumber(d);
    run = prev !== null && n === prev + 1 ? run + 1 : 1;
    best = Math.max(best, run);
    prev = n;
  }
  const last = prev;
  const current = last !== null && dayNumber(today) - last <= 1 ? run : 0;
  return { streak: current, bestStreak: best };
}

/** The admin user view with every stat (numbers floored at 0, percentile clamped 0-100). */
export async function userDetail(db: Db, id: number, now = new Date()) {
  const user = await getUserRow(db, id);
  const totals = await db.get<{
    attempts: number;
    avg_score: number | null;
    time: number | null;
    correct: number | null;
    wrong: number | null;
    blank: number | null;
    questions: number | null;
  }>(
    sql`SELECT count(*) AS attempts, avg(score) AS avg_score, sum(time_taken) AS time, sum(correct) AS correct, sum(wrong) AS wrong, sum(blank) AS blank, sum(total) AS questions
        FROM attempts WHERE user_id = ${id} AND status = 'completed'`,
  );
  const avg = totals?.avg_score ?? null;
  let percentile = 0;
  if (avg !== null) {
    const rank = await db.get<{ below: number; n: number }>(
      sql`SELECT sum(CASE WHEN a < ${avg} THEN 1 ELSE 0 END) AS below, count(*) AS n
          FROM (SELECT avg(score) AS a FROM attempts WHERE status = 'completed' AND score IS NOT NULL GROUP BY user_id)`,
    );
    percentile = rank && rank.n > 0 ? Math.round(((rank.below ?? 0) / rank.n) * 100) : 0;
  }
  const dayRows = await db.all<{ d: string }>(
    sql`SELECT DISTINCT ${sql.raw(italianDaySql("started_at"))} AS d FROM attempts WHERE user_id = ${id} AND status = 'completed'`,
  );
  const { streak, bestStreak } = streaks(
    dayRows.map((r) => r.d),
    italianDay(now),
  );
  const questions = totals?.questions ?? 0;
  return {
    ...toAdminUser(user),
    stats: {
      attempts: floor0(totals?.attempts),
      avgScore: Math.max(0, Math.round((avg ?? 0) * 10) / 10),
      percentile: clamp(percentile, 0, 100),
      lastLogin: user.lastLogin ? user.lastLogin.toISOString() : null,
      totalTimeMin: floor0((totals?.time ?? 0) / 60),
      correct: floor0(totals?.correct),
      wrong: floor0(totals?.wrong),
      unanswered: floor0(totals?.blank),
      avgTimeSec: questions > 0 ? floor0((totals?.time ?? 0) / questions) : 0,
      streak: floor0(streak),
      bestStreak: floor0(bestStreak),
    },
  };
}

export async function usersByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.select().from(users).where(inArray(users.id, ids));
}
