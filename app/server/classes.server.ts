// Classes: a teacher's group of students. A student joins with a code (or the link /classi/unisciti/:code), or
// accepts an invitation sent by e-mail (class-invitations.server.ts). A teacher manages only the classes they own;
// an admin manages every class. Which simulations a class opens is in app/server/simulation/ (simulationAudience).
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "./db/client.server";
import { classes, classInvitations, classMembers, users, type Role } from "./db/schema";
import { HttpError } from "./errors.server";
import type { SessionUser } from "./session.server";

// The class forms' schemas and texts (the Classi tab and /profilo check them too): app/lib/forms/classes.ts.
export {
  CLASS_NAME_MAX,
  CLASS_TEXT,
  ClassNameInput,
  JOIN_CODE_ALPHABET,
  JOIN_CODE_LENGTH,
  JoinInput,
  normalizeJoinCode,
} from "~/lib/forms/classes";
import { CLASS_TEXT, JOIN_CODE, JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, normalizeJoinCode } from "~/lib/forms/classes";

/** Invitations by e-mail (class-invitations.server.ts): the teacher's pasted addresses. */
export const AddMembersInput = z.object({
  /** Pasted text (one address per line, or separated by commas/semicolons) or a list. */
  emails: z.union(
    [
      z.string().max(200_000, { error: CLASS_TEXT.tooManyEmails }),
      z.array(z.string().max(320)).max(2000, { error: CLASS_TEXT.tooManyEmails }),
    ],
    {
      error: CLASS_TEXT.noEmails,
    },
  ),
});

export function isJoinCode(raw: string): boolean {
  return JOIN_CODE.test(normalizeJoinCode(raw));
}

export function newJoinCode(length = JOIN_CODE_LENGTH): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 256 is a multiple of 32 (the alphabet's size): every character is equally likely.
  return Array.from(bytes, (b) => JOIN_CODE_ALPHABET[b % JOIN_CODE_ALPHABET.length]).join("");
}

type ClassRow = typeof classes.$inferSelect;

/** The one ownership rule: the teacher who owns the class, or any admin. */
export function canManageClass(
  user: Pick<SessionUser, "id" | "effectiveRole">,
  cls: Pick<ClassRow, "ownerId">,
): boolean {
  return user.effectiveRole === "admin" || (user.effectiveRole === "docente" && cls.ownerId === user.id);
}

export const isTeacherRole = (role: Role) => role === "docente" || role === "admin";

async function findClass(db: Db, classId: number): Promise<ClassRow> {
  const cls = await db.select().from(classes).where(eq(classes.id, classId)).get();
  if (!cls) throw new HttpError(404, CLASS_TEXT.notFound);
  return cls;
}

/** The class, if the caller manages it: unknown → 404, someone else's → 403. */
export async function requireManagedClass(db: Db, user: SessionUser, classId: number): Promise<ClassRow> {
  const cls = await findClass(db, classId);
  if (!canManageClass(user, cls)) throw new HttpError(403, CLASS_TEXT.notOwner);
  return cls;
}

export async function createClass(db: Db, owner: SessionUser, name: string) {
  // A clash with an existing code is unlikely (32^6 codes); retry a few times rather than fail.
  for (let i = 0; i < 5; i++) {
    const code = newJoinCode();
    const inserted = await db
      .insert(classes)
      .values({ name, code, ownerId: owner.id })
      .onConflictDoNothing({ target: classes.code })
      .returning({ id: classes.id, name: classes.name, code: classes.code });
    if (inserted[0]) return inserted[0];
  }
  throw new Error("could not draw a free join code");
}

export type TeacherClass = {
  id: number;
  name: string;
  code: string;
  ownerId: number;
  ownerName: string;
  memberCount: number;
  createdAt: number;
};
export type JoinedClass = { id: number; name: string; teacher: string; joinedAt: number };

/** A teacher's own classes (an admin: every class) with member counts. */
export async function managedClasses(db: Db, user: SessionUser): Promise<TeacherClass[]> {
  // A correlated count per class reads only that class's slice of the primary key (not every membership).
  const memberCount = sql<number>`(SELECT count(*) FROM ${classMembers} WHERE ${classMembers.classId} = ${classes.id})`;
  const rows = await db
    .select({ c: classes, ownerName: users.name, ownerEmail: users.email, n: memberCount })
    .from(classes)
    .innerJoin(users, eq(users.id, classes.ownerId))
    .where(user.effectiveRole === "admin" ? undefined : eq(classes.ownerId, user.id))
    .orderBy(asc(classes.name), asc(classes.id))
    .all();
  return rows.map((r) => ({
    id: r.c.id,
    name: r.c.name,
    code: r.c.code,
    ownerId: r.c.ownerId,
    ownerName: r.ownerName || r.ownerEmail,
    memberCount: r.n ?? 0,
    createdAt: r.c.createdAt.getTime(),
  }));
}

/** The classes a user has joined (what a student sees in /profilo). */
export async function joinedClasses(db: Db, userId: number): Promise<JoinedClass[]> {
  const rows = await db
    .select({
      id: classes.id,
      name: classes.name,
      teacher: users.name,
      teacherEmail: users.email,
      joinedAt: classMembers.joinedAt,
    })
    .from(classMembers)
    .innerJoin(classes, eq(classes.id, classMembers.classId))
    .innerJoin(users, eq(users.id, classes.ownerId))
    .where(eq(classMembers.userId, userId))
    .orderBy(asc(classes.name))
    .all();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    teacher: r.teacher || r.teacherEmail,
    joinedAt: r.joinedAt.getTime(),
  }));
}

/** GET /api/classes: a teacher's (admin's) managed classes; anyone else's joined classes. */
export async function classesFor(db: Db, user: SessionUser) {
  return isTeacherRole(user.effectiveRole) ? managedClasses(db, user) : joinedClasses(db, user.id);
}

export type ClassMember = {
  userId: number;
  name: string;
  username: string | null;
  email: string;
  joinedAt: number;
  /** The teacher's accommodation for this pupil in this class (extra time, %). */
  extraTimePct: number;
};

export async function classMembersOf(db: Db, user: SessionUser, classId: number): Promise<ClassMember[]> {
  await requireManagedClass(db, user, classId);
  return membersOf(db, classId);
}

export async function membersOf(db: Db, classId: number): Promise<ClassMember[]> {
  const rows = await db
    .select({
      userId: users.id,
      name: users.name,
      username: users.username,
      email: users.email,
      joinedAt: classMembers.joinedAt,
      extraTimePct: classMembers.extraTimePct,
    })
    .from(classMembers)
    .innerJoin(users, eq(users.id, classMembers.userId))
    .where(eq(classMembers.classId, classId))
    .orderBy(asc(users.name), asc(users.id))
    .all();
  return rows.map((r) => ({ ...r, name: r.name || r.email, joinedAt: r.joinedAt.getTime() }));
}

/**
 * Removes a member. The class's teacher (or an admin) removes anyone; a member may remove only
 * themselves (leaving the class from /profilo). Anyone else: 403.
 */
export async function removeMember(db: Db, user: SessionUser, classId: number, memberId: number) {
  const cls = await findClass(db, classId);
  if (!canManageClass(user, cls)) {
    if (memberId !== user.id) throw new HttpError(403, CLASS_TEXT.notOwner);
    const mine = await db
      .select({ userId: classMembers.userId })
      .from(classMembers)
      .where(and(eq(classMembers.classId, classId), eq(classMembers.userId, user.id)))
      .get();
    if (!mine) throw new HttpError(403, CLASS_TEXT.notMember);
  }
  const removed = await db
    .delete(classMembers)
    .where(and(eq(classMembers.classId, classId), eq(classMembers.userId, memberId)))
    .returning({ userId: classMembers.userId });
  if (!removed.length) throw new HttpError(404, "Questo studente non fa parte della classe.");
  return { ok: true, removed: memberId };
}

/** A new join code; the old one stops working at once. */
export async function renewCode(db: Db, user: SessionUser, classId: number) {
  await requireManagedClass(db, user, classId);
  for (let i = 0; i < 5; i++) {
    const code = newJoinCode();
    const clash = await db.select({ id: classes.id }).from(classes).where(eq(classes.code, code)).get();
    if (clash) continue;
    await db.update(classes).set({ code }).where(eq(classes.id, classId));
    return { id: classId, code };
  }
  throw new Error("could not draw a free join code");
}

export async function deleteClass(db: Db, user: SessionUser, classId: number) {
  await requireManagedClass(db, user, classId);
  // Members and simulation links go with it (ON DELETE CASCADE); attempts already written stay.
  await db.delete(classes).where(eq(classes.id, classId));
  return { ok: true };
}

/** What the join link shows before the student confirms: the class, its teacher, and whether they are in it. */
export async function classByCode(db: Db, code: string, userId: number) {
  const row = await db
    .select({ id: classes.id, name: classes.name, teacher: users.name, teacherEmail: users.email })
    .from(classes)
    .innerJoin(users, eq(users.id, classes.ownerId))
    .where(eq(classes.code, normalizeJoinCode(code)))
    .get();
  if (!row) return null;
  const member = await db
    .select({ userId: classMembers.userId })
    .from(classMembers)
    .where(and(eq(classMembers.classId, row.id), eq(classMembers.userId, userId)))
    .get();
  return { id: row.id, name: row.name, teacher: row.teacher || row.teacherEmail, member: Boolean(member) };
}

/** Joins the class with this code; joining twice is harmless. Unknown code → 404. */
export async function joinClass(db: Db, user: SessionUser, code: string) {
  const cls = await db
    .select()
    .from(classes)
    .where(eq(classes.code, normalizeJoinCode(code)))
    .get();
  if (!cls) throw new HttpError(404, CLASS_TEXT.unknownCode);
  // Joining answers an invitation into the same class too.
  const [inserted] = await db.batch([
    db
      .insert(classMembers)
      .values({ classId: cls.id, userId: user.id })
      .onConflictDoNothing()
      .returning({ userId: classMembers.userId }),
    db
      .delete(classInvitations)
      .where(and(eq(classInvitations.classId, cls.id), eq(classInvitations.email, user.email.trim().toLowerCase()))),
  ]);
  return { id: cls.id, name: cls.name, joined: inserted.length > 0 };
}

const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/**
 * Splits pasted text into addresses: one per line, or separated by commas, semicolons, tabs or spaces;
 * "Nome Cognome <email>" (as mail programs copy it) gives the address. Anything else is malformed.
 */
export function parseEmailList(input: string | string[]): { emails: string[]; malformed: string[] } {
  const pieces: string[] = [];
  for (const line of Array.isArray(input) ? input : input.split(/[\n\r,;\t]+/)) {
    const text = line.trim();
    if (!text) continue;
    const bracketed = text.match(/<([^>]+)>/);
    if (bracketed) pieces.push(bracketed[1]!);
    else if (text.includes("@")) pieces.push(...text.split(/\s+/).filter((t) => t.includes("@")));
    else pieces.push(text);
  }
  const emails: string[] = [];
  const malformed: string[] = [];
  for (const p of new Set(
    pieces
      .map((p) =>
        p
          .trim()
          .replace(/^["'<(]+|["'>)]+$/g, "")
          .toLowerCase(),
      )
      .filter(Boolean),
  )) {
    (EMAIL.test(p) ? emails : malformed).push(p);
  }
  return { emails, malformed };
}
