// The admin console's global search: users by name, username or email, questions by text or id,
// attempts by id. A teacher (the simulation picker) gets only their own pupils (accepted members of the classes
// they own), and nothing else: never another student's e-mail (issue 28). Teachers are rate limited.
import { and, desc, eq, exists, like, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.server";
import { attempts, classes, classMembers, questions, subjects, users } from "../db/schema";
import { withLabels } from "../errors.server";
import { limitAction } from "../security.server";
import type { SessionUser } from "../session.server";

export const searchQuery = withLabels(
  z.object({
    q: z
      .string()
      .trim()
      .min(1, "Scrivi almeno un carattere da cercare")
      .max(100, "Ricerca troppo lunga (massimo 100 caratteri)"),
  }),
  { q: "Ricerca" },
);

const LIMIT = 8;

type Searcher = Pick<SessionUser, "id" | "effectiveRole">;

/** A member of one of the teacher's classes. */
const pupilOf = (db: Db, teacherId: number) =>
  exists(
    db
      .select({ one: classMembers.userId })
      .from(classMembers)
      .innerJoin(classes, eq(classes.id, classMembers.classId))
      .where(and(eq(classMembers.userId, users.id), eq(classes.ownerId, teacherId))),
  );

/** The search of a route (GET /admin/cerca, GET /api/admin/search): an admin's, or a teacher's within its limit. */
export async function searchFor(db: Db, env: Env, user: Searcher, q: string) {
  if (user.effectiveRole === "admin") return adminSearch(db, q);
  await limitAction(env, "TEACHER_SEARCH_LIMITER", user.id);
  return adminSearch(db, q, { teacherId: user.id });
}

export async function adminSearch(db: Db, q: string, scope: "admin" | { teacherId: number } = "admin") {
  const pattern = `%${q.replace(/[%_]/g, "")}%`;
  const id = /^#?\d+$/.test(q) ? Number(q.replace("#", "")) : null;
  const foundUsers = await db
    .select({
      id: users.id,
      name: users.name,
      username: users.username,
      email: users.email,
      role: users.role,
      status: users.status,
    })
    .from(users)
    .where(
      and(
        or(
          like(users.name, pattern),
          like(users.username, pattern),
          like(users.email, pattern),
          id && scope === "admin" ? eq(users.id, id) : undefined,
        ),
        scope === "admin" ? undefined : pupilOf(db, scope.teacherId),
      ),
    )
    .orderBy(users.id)
    .limit(LIMIT);
  if (scope !== "admin") return { users: foundUsers, questions: [], attempts: [] };
  const foundQuestions = await db
    .select({ id: questions.id, stem: questions.stem, subjectId: questions.subjectId, type: questions.type })
    .from(questions)
    .where(id ? or(eq(questions.id, id), like(questions.stem, pattern)) : like(questions.stem, pattern))
    .orderBy(questions.id)
    .limit(LIMIT);
  const foundAttempts = id
    ? await db
        .select({
          id: attempts.id,
          userId: attempts.userId,
          userName: users.name,
          subjectName: subjects.name,
          date: attempts.startedAt,
          score: attempts.score,
        })
        .from(attempts)
        .innerJoin(users, eq(users.id, attempts.userId))
        .leftJoin(subjects, eq(subjects.id, attempts.subjectId))
        .where(eq(attempts.id, id))
        .orderBy(desc(attempts.id))
        .limit(LIMIT)
    : [];
  return {
    users: foundUsers,
    questions: foundQuestions,
    attempts: foundAttempts.map((a) => ({ ...a, date: a.date.toISOString() })),
  };
}
