// Invitations into a class by e-mail (issue 28): a teacher never enrols anyone by address. Pasting e-mails makes
// invitations; the pupil accepts or declines them on /profilo (or joins with the class's link), and only then is a
// member. The teacher's answer is the same whether or not an address has an account, so it cannot be used to learn
// who is registered; an invitation to an address without an account waits until its owner signs up.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { classes, classInvitations, classMembers, users } from "./db/schema";
import { HttpError } from "./errors.server";
import type { SessionUser } from "./session.server";
import { CLASS_TEXT, parseEmailList, requireManagedClass } from "./classes.server";
import { chunk } from "~/lib/chunk";

/** How an address is stored and matched: trimmed and lowercased (sign-in stores accounts' e-mails the same way). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export type InvitationResult = { invited: number; alreadyMembers: number; malformed: string[] };

/**
 * Invites the pasted addresses into a class the caller manages. `invited` counts every well-formed address that is
 * not already a member (inviting twice is harmless; a declined invitation is not shown to the pupil again), so the
 * answer says nothing about which addresses have an account. Members are already listed to the teacher.
 */
export async function inviteByEmail(
  db: Db,
  user: SessionUser,
  classId: number,
  input: string | string[],
): Promise<InvitationResult> {
  await requireManagedClass(db, user, classId);
  const { emails, malformed } = parseEmailList(input);
  if (!emails.length && !malformed.length) throw new HttpError(400, CLASS_TEXT.noEmails);
  if (emails.length + malformed.length > 2000) throw new HttpError(400, CLASS_TEXT.tooManyEmails);
  // D1 binds at most 100 values per statement: look addresses up in chunks.
  const members = new Set<string>();
  for (const part of chunk(emails, 90)) {
    const rows = await db
      .select({ email: users.email })
      .from(classMembers)
      .innerJoin(users, eq(users.id, classMembers.userId))
      .where(and(eq(classMembers.classId, classId), inArray(sql`lower(${users.email})`, part)))
      .all();
    for (const r of rows) members.add(normalizeEmail(r.email));
  }
  const invite = emails.filter((e) => !members.has(e));
  if (invite.length) {
    // Three bound values a row (class, address, status): 30 rows stay under D1's 100.
    const statements = chunk(invite, 30).map((part) =>
      db
        .insert(classInvitations)
        .values(part.map((email) => ({ classId, email })))
        .onConflictDoNothing(),
    );
    await db.batch(statements as unknown as Parameters<Db["batch"]>[0]);
  }
  return { invited: invite.length, alreadyMembers: emails.length - invite.length, malformed };
}

export type SentInvitation = { id: number; email: string; createdAt: number };

/**
 * The invitations of a class not accepted yet, by the address the teacher typed. A declined one stays in the list
 * like a pending one: telling them apart would say that the address has an account.
 */
export async function sentInvitations(db: Db, classId: number): Promise<SentInvitation[]> {
  const rows = await db
    .select({ id: classInvitations.id, email: classInvitations.email, createdAt: classInvitations.createdAt })
    .from(classInvitations)
    .where(eq(classInvitations.classId, classId))
    .orderBy(asc(classInvitations.email))
    .all();
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime() }));
}

/** GET /api/classes/:id/invitations: the same, for the class's teacher (or an admin). */
export async function classInvitationsOf(db: Db, user: SessionUser, classId: number): Promise<SentInvitation[]> {
  await requireManagedClass(db, user, classId);
  return sentInvitations(db, classId);
}

export type ClassInvitation = { id: number; classId: number; name: string; teacher: string; createdAt: number };

/** The pending invitations addressed to the user's e-mail (what /profilo shows), except classes they are in. */
export async function invitationsFor(db: Db, user: Pick<SessionUser, "id" | "email">): Promise<ClassInvitation[]> {
  const rows = await db
    .select({
      id: classInvitations.id,
      classId: classes.id,
      name: classes.name,
      teacher: users.name,
      teacherEmail: users.email,
      createdAt: classInvitations.createdAt,
    })
    .from(classInvitations)
    .innerJoin(classes, eq(classes.id, classInvitations.classId))
    .innerJoin(users, eq(users.id, classes.ownerId))
    .where(
      and(
        eq(classInvitations.email, normalizeEmail(user.email)),
        eq(classInvitations.status, "pending"),
        sql`NOT EXISTS (SELECT 1 FROM ${classMembers} WHERE ${classMembers.classId} = ${classes.id} AND ${classMembers.userId} = ${user.id})`,
      ),
    )
    .orderBy(asc(classInvitations.createdAt), asc(classInvitations.id))
    .all();
  return rows.map((r) => ({
    id: r.id,
    classId: r.classId,
    name: r.name,
    teacher: r.teacher || r.teacherEmail,
    createdAt: r.createdAt.getTime(),
  }));
}

/** A pending invitation addressed to this user, or 404 (someone else's looks the same as an unknown one). */
async function ownInvitation(db: Db, user: Pick<SessionUser, "email">, invitationId: number) {
  const row = await db
    .select({ id: classInvitations.id, classId: classes.id, name: classes.name })
    .from(classInvitations)
    .innerJoin(classes, eq(classes.id, classInvitations.classId))
    .where(
      and(
        eq(classInvitations.id, invitationId),
        eq(classInvitations.email, normalizeEmail(user.email)),
        eq(classInvitations.status, "pending"),
      ),
    )
    .get();
  if (!row) throw new HttpError(404, CLASS_TEXT.invitationNotFound);
  return row;
}

/** Accepting: the pupil becomes a member (once) and the invitation is gone. */
export async function acceptInvitation(db: Db, user: Pick<SessionUser, "id" | "email">, invitationId: number) {
  const invitation = await ownInvitation(db, user, invitationId);
  const [inserted] = await db.batch([
    db
      .insert(classMembers)
      .values({ classId: invitation.classId, userId: user.id })
      .onConflictDoNothing()
      .returning({ userId: classMembers.userId }),
    db.delete(classInvitations).where(eq(classInvitations.id, invitation.id)),
  ]);
  return { id: invitation.classId, name: invitation.name, joined: inserted.length > 0 };
}

/** Declining: the pupil stops seeing it; the teacher cannot tell it from one not answered yet. */
export async function declineInvitation(db: Db, user: Pick<SessionUser, "email">, invitationId: number) {
  const invitation = await ownInvitation(db, user, invitationId);
  await db.update(classInvitations).set({ status: "declined" }).where(eq(classInvitations.id, invitation.id));
  return { id: invitation.classId, name: invitation.name, declined: true };
}
