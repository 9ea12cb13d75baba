// Staff audit log: every admin and moderator change (ban, role change, delete, report resolution,
// import, reset) is recorded with who, when and what. Build the insert with `auditEntry` and run it in
// the same batch as the change itself, so a change is never recorded without happening (or vice versa).
import { desc } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { auditLog } from "./db/schema";

export type AuditActor = { id: number; email: string };

export type AuditAction =
  | "user.create"
  | "user.update"
  | "user.role"
  | "user.ban"
  | "user.unban"
  | "user.delete"
  | "report.update"
  | "report.resolve"
  | "report.delete"
  | "question.update"
  | "import"
  | "import.taxonomy"
  | "import.difficulty"
  | "import.users"
  | "import.attempts"
  | "reprocess.answers"
  | "recalc.stats"
  | "reset.db"
  | "rush_event.create"
  | "rush_event.update"
  | "rush_event.delete"
  | "edition.update"
  | "edition.default"
  | "accommodation.update";

export function auditEntry(
  db: Db,
  actor: AuditActor,
  action: AuditAction,
  target: { type?: string; id?: string | number | null } = {},
  details: Record<string, unknown> = {},
  at = new Date(),
) {
  return db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetType: target.type ?? null,
    targetId: target.id == null ? null : String(target.id),
    details,
    at,
  });
}

export async function recordAudit(...args: Parameters<typeof auditEntry>) {
  await auditEntry(...args);
}

export async function listAudit(db: Db, limit = 100) {
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit);
  return rows.map((r) => ({
    id: r.id,
    at: r.at.toISOString(),
    actorId: r.actorId,
    actorEmail: r.actorEmail,
    action: r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    details: r.details ?? {},
  }));
}
