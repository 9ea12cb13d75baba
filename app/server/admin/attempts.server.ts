// Every user's attempts for the admin console, paginated on the server.
import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client.server";
import { attempts, subjects, users } from "../db/schema";
import { ADMIN_ATTEMPTS_PAGE_SIZE } from "~/lib/constants";
import { withLabels } from "../errors.server";

export const adminAttemptsQuery = withLabels(
  z.object({
    page: z.coerce
      .number("Pagina non valida")
      .int("Pagina non valida")
      .min(1, "Pagina non valida")
      .optional()
      .default(1),
    pageSize: z.coerce
      .number("Dimensione pagina da 1 a 200")
      .int("Dimensione pagina da 1 a 200")
      .min(1, "Dimensione pagina da 1 a 200")
      .max(200, "Dimensione pagina da 1 a 200")
      .optional()
      .default(ADMIN_ATTEMPTS_PAGE_SIZE),
    userId: z.coerce.number().int().positive("Utente non valido").optional(),
  }),
  { page: "Pagina", pageSize: "Righe per pagina", userId: "Utente" },
);

export async function listAdminAttempts(db: Db, query: z.infer<typeof adminAttemptsQuery>) {
  const where = query.userId ? eq(attempts.userId, query.userId) : undefined;
  const total = (await db.select({ n: sql<number>`count(*)` }).from(attempts).where(where).get())?.n ?? 0;
  const rows = await db
    .select({
      id: attempts.id,
      date: attempts.startedAt,
      userId: attempts.userId,
      userName: users.name,
      userEmail: users.email,
      subjectId: attempts.subjectId,
      subjectName: subjects.name,
      status: attempts.status,
      score: attempts.score,
      correct: attempts.correct,
      total: attempts.total,
    })
    .from(attempts)
    .innerJoin(users, eq(users.id, attempts.userId))
    .leftJoin(subjects, eq(subjects.id, attempts.subjectId))
    .where(where)
    .orderBy(desc(attempts.startedAt), desc(attempts.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return {
    total,
    page: query.page,
    pageSize: query.pageSize,
    items: rows.map((r) => ({
      id: r.id,
      date: r.date.toISOString(),
      userId: r.userId,
      userName: r.userName || r.userEmail,
      subjectId: r.subjectId,
      subjectName: r.subjectName,
      status: r.status,
      score: r.score,
      correct: r.correct,
      total: r.total,
    })),
  };
}
