// User rows: the schema, matching by e-mail (an existing user is updated), the inserts.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.server";
import { ROLES } from "../../db/schema";
import { type RowError, type Statement, jsonStatements, ids, maxId, int, when } from "./common";

export const role = z.enum(ROLES, "ruolo non valido: usa studente, docente, moderator o admin");
export const userStatus = z
  .enum(["attivo", "sospeso", "active", "banned"], "stato non valido: usa attivo o sospeso")
  .transform((s) => (s === "active" ? "attivo" : s === "banned" ? "sospeso" : s));

export const userRowSchema = z.object({
  email: z.email("email non valida").transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1, "nome mancante").max(200, "nome troppo lungo"),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  username: z.string().trim().min(1).max(60, "username troppo lungo").optional(),
  phone: z.string().max(40).optional(),
  city: z.string().max(100).optional(),
  school: z.string().max(200).optional(),
  year: int("year").min(1, "anno da 1 a 10").max(10, "anno da 1 a 10").optional(),
  role: role.optional().default("studente"),
  status: userStatus.optional().default("attivo"),
  suspensionReason: z.string().max(500).optional(),
  createdAt: when.optional(),
});
export type UserRow = z.infer<typeof userRowSchema>;

export type UserIndex = { byEmail: Map<string, number>; ids: Set<number> };

export async function loadUsers(db: Db): Promise<UserIndex> {
  const rows = await db.all<{ id: number; email: string }>(sql`SELECT id, email FROM users`);
  return { byEmail: new Map(rows.map((r) => [r.email.toLowerCase(), r.id])), ids: new Set(rows.map((r) => r.id)) };
}

/** Users are matched by email: an existing one is updated, a new one gets the next free id. */
export async function prepareUsers(db: Db, rows: UserRow[], index: UserIndex, label: (i: number) => number | string) {
  const errors: RowError[] = [];
  const usernames = await db.all<{ id: number; username: string }>(
    sql`SELECT id, username FROM users WHERE username IS NOT NULL`,
  );
  const usernameOwner = new Map(usernames.map((u) => [u.username.toLowerCase(), u.id]));
  let next = (await maxId(db, "users")) + 1;
  const seenEmails = new Set<string>();
  const seenUsernames = new Set<string>();
  const withIds = rows.map((u, i) => {
    if (seenEmails.has(u.email)) errors.push({ row: label(i), message: `email ${u.email} ripetuta nel file` });
    seenEmails.add(u.email);
    const id = index.byEmail.get(u.email) ?? next++;
    if (u.username) {
      const key = u.username.toLowerCase();
      const owner = usernameOwner.get(key);
      if (seenUsernames.has(key) || (owner !== undefined && owner !== id))
        errors.push({ row: label(i), message: `username "${u.username}" già in uso` });
      seenUsernames.add(key);
    }
    return { ...u, id };
  });
  for (const u of withIds) {
    index.byEmail.set(u.email, u.id);
    index.ids.add(u.id);
  }
  return { withIds, errors };
}

export function userStatements(db: Db, rows: (UserRow & { id: number })[], now: number): Statement[] {
  const data = rows.map((u) => ({
    id: u.id,
    em: u.email,
    n: u.name,
    fn: u.firstName ?? null,
    ln: u.lastName ?? null,
    un: u.username ?? null,
    ph: u.phone ?? null,
    ci: u.city ?? null,
    sc: u.school ?? null,
    y: u.year ?? null,
    r: u.role,
    st: u.status,
    sr: u.status === "sospeso" ? (u.suspensionReason ?? "Sospeso dall'amministrazione") : null,
    c: u.createdAt ?? now,
  }));
  return jsonStatements(
    db,
    data,
    (
      json,
    ) => sql`INSERT INTO users (id, email, name, first_name, last_name, username, phone, city, school, school_year, role, status, suspension_reason, created_at)
      SELECT json_extract(value, '$.id'), json_extract(value, '$.em'), json_extract(value, '$.n'), json_extract(value, '$.fn'), json_extract(value, '$.ln'),
             json_extract(value, '$.un'), json_extract(value, '$.ph'), json_extract(value, '$.ci'), json_extract(value, '$.sc'), json_extract(value, '$.y'),
             json_extract(value, '$.r'), json_extract(value, '$.st'), json_extract(value, '$.sr'), json_extract(value, '$.c')
      FROM json_each(${json}) WHERE true
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, first_name = coalesce(excluded.first_name, first_name), last_name = coalesce(excluded.last_name, last_name),
        username = coalesce(excluded.username, username), phone = coalesce(excluded.phone, phone), city = coalesce(excluded.city, city),
        school = coalesce(excluded.school, school), school_year = coalesce(excluded.school_year, school_year), role = excluded.role,
        status = excluded.status, suspension_reason = excluded.suspension_reason`,
  );
}
