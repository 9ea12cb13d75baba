// POST /api/admin/import (a bundle or a questions CSV), /api/admin/import-users and /api/admin/import-attempts.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AuditActor } from "../../audit.server";
import type { Db } from "../../db/client.server";
import { HttpError } from "../../errors.server";
import {
  MAX_IMPORT_ROWS,
  rowsFailed,
  type ImportBody,
  validateRows,
  jsonArray,
  optionalArray,
  type Statement,
  jsonStatements,
  runBatch,
  rebuildStatements,
  posId,
  when,
  audit,
  jsonLabel,
  csvLabel,
  type RowError,
  warningTexts,
} from "./common";
import {
  questionRowSchema,
  questionFromCsv,
  loadRefs,
  checkQuestions,
  bankRuleIssues,
  questionStatements,
} from "./questions";
import { userRowSchema, loadUsers, prepareUsers, userStatements } from "./users";
import { attemptRowSchema, prepareAttempts, attemptFromCsv } from "./attempts";

export const reportRowSchema = z.object({
  email: z
    .email("email non valida")
    .transform((e) => e.toLowerCase())
    .optional(),
  userId: posId("userId").optional(),
  questionId: posId("questionId"),
  message: z.string().max(2000).optional(),
  status: z
    .enum(["open", "in_review", "resolved"], "stato non valido: usa open, in_review o resolved")
    .optional()
    .default("open"),
  userAnswerKey: z.string().max(200).optional(),
  createdAt: when.optional(),
});

// --- The calls ---

/**
 * POST /api/admin/import: a bundle { questions, users, attempts, reports } (JSON) or a questions CSV. Answers the
 * counts and `warnings` (Italian, one line per problem that does not stop the import).
 */
export async function importBundle(db: Db, actor: AuditActor, body: ImportBody, now = Date.now()) {
  const sections =
    body.format === "csv"
      ? { questions: body.rows.map(questionFromCsv), users: [], attempts: [], reports: [] }
      : Array.isArray(body.data)
        ? { questions: body.data, users: [], attempts: [], reports: [] }
        : {
            questions: optionalArray(body.data, "questions"),
            users: optionalArray(body.data, "users"),
            attempts: optionalArray(body.data, "attempts"),
            reports: optionalArray(body.data, "reports"),
          };
  const total = sections.questions.length + sections.users.length + sections.attempts.length + sections.reports.length;
  if (!total)
    throw new HttpError(
      400,
      'Nessun dato da importare: il file deve contenere almeno uno fra "questions", "users", "attempts" e "reports".',
    );
  if (total > MAX_IMPORT_ROWS) throw new HttpError(413, `Troppe righe: il massimo è ${MAX_IMPORT_ROWS} per file.`);
  const label = (key: string) => (body.format === "csv" ? csvLabel : jsonLabel(key));

  const q = validateRows(sections.questions, questionRowSchema, label("questions"));
  const u = validateRows(sections.users, userRowSchema, label("users"));
  const a = validateRows(sections.attempts, attemptRowSchema, label("attempts"));
  const r = validateRows(sections.reports, reportRowSchema, label("reports"));
  const shapeErrors = [...q.errors, ...u.errors, ...a.errors, ...r.errors];
  if (shapeErrors.length) rowsFailed(shapeErrors);

  const refs = await loadRefs(db);
  const errors = checkQuestions(q.ok, refs, label("questions"));
  // A rule of style of our bank (an article before the blank) warns: an official paper imports as published.
  let warnings: RowError[] = [];
  if (!errors.length && q.ok.length) {
    const bank = await bankRuleIssues(db, q.ok, label("questions"));
    errors.push(...bank.errors);
    warnings = bank.warnings;
  }
  const userIndex = await loadUsers(db);
  const preparedUsers = await prepareUsers(db, u.ok, userIndex, label("users"));
  errors.push(...preparedUsers.errors);
  const bundleQuestionIds = new Set(q.ok.flatMap((x) => (x.id ? [x.id] : [])));
  const preparedAttempts = await prepareAttempts(db, a.ok, userIndex, bundleQuestionIds, label("attempts"));
  errors.push(...preparedAttempts.errors);
  const reportData: Record<string, unknown>[] = [];
  r.ok.forEach((rep, i) => {
    const userId = rep.email ? userIndex.byEmail.get(rep.email) : rep.userId;
    if (userId === undefined || !userIndex.ids.has(userId))
      errors.push({
        row: label("reports")(i),
        message: rep.email ? `nessun utente con email ${rep.email}` : `utente ${rep.userId} inesistente`,
      });
    else if (!refs.questions.has(rep.questionId) && !bundleQuestionIds.has(rep.questionId))
      errors.push({ row: label("reports")(i), message: `domanda ${rep.questionId} inesistente` });
    else
      reportData.push({
        u: userId,
        q: rep.questionId,
        m: rep.message?.trim() || "(nessun dettaglio)",
        s: rep.status,
        k: rep.userAnswerKey ?? null,
        c: rep.createdAt ?? now,
      });
  });
  if (errors.length) rowsFailed(errors);

  const statements: Statement[] = [
    ...questionStatements(db, q.ok, now),
    ...userStatements(db, preparedUsers.withIds, now),
    ...preparedAttempts.statements(db),
    ...jsonStatements(
      db,
      reportData,
      (json) => sql`INSERT INTO reports (user_id, question_id, status, message, user_answer_key, created_at)
        SELECT json_extract(value, '$.u'), json_extract(value, '$.q'), json_extract(value, '$.s'), json_extract(value, '$.m'), json_extract(value, '$.k'), json_extract(value, '$.c')
        FROM json_each(${json})`,
    ),
  ];
  if (preparedAttempts.count) statements.push(...rebuildStatements(db));
  const result = {
    importedQuestions: q.ok.length,
    importedUsers: u.ok.length,
    importedAttempts: preparedAttempts.count,
    importedReports: reportData.length,
  };
  statements.push(audit(db, actor, "import", { format: body.format, ...result, warnings: warnings.length }));
  await runBatch(db, statements);
  return { ...result, warnings: warningTexts(warnings) };
}

/** POST /api/admin/import-users: { users, attempts? } (JSON) or a users CSV. */
export async function importUsers(db: Db, actor: AuditActor, body: ImportBody) {
  const usersIn =
    body.format === "csv" ? body.rows : Array.isArray(body.data) ? body.data : jsonArray(body.data, "users", "utenti");
  const attemptsIn = body.format === "json" && !Array.isArray(body.data) ? optionalArray(body.data, "attempts") : [];
  const uLabel = body.format === "csv" ? csvLabel : jsonLabel("users");
  const u = validateRows(usersIn, userRowSchema, uLabel);
  const a = validateRows(attemptsIn, attemptRowSchema, jsonLabel("attempts"));
  if (u.errors.length || a.errors.length) rowsFailed([...u.errors, ...a.errors]);
  if (!u.ok.length) throw new HttpError(400, "Nessun utente da importare.");
  const index = await loadUsers(db);
  const preparedUsers = await prepareUsers(db, u.ok, index, uLabel);
  const preparedAttempts = await prepareAttempts(db, a.ok, index, new Set(), jsonLabel("attempts"));
  const errors = [...preparedUsers.errors, ...preparedAttempts.errors];
  if (errors.length) rowsFailed(errors);
  const now = Date.now();
  const result = { importedUsers: u.ok.length, importedAttempts: preparedAttempts.count };
  await runBatch(db, [
    ...userStatements(db, preparedUsers.withIds, now),
    ...preparedAttempts.statements(db),
    ...(preparedAttempts.count ? rebuildStatements(db) : []),
    audit(db, actor, "import.users", result),
  ]);
  return result;
}

/** POST /api/admin/import-attempts: [attempt] / { attempts } (JSON) or a CSV of attempt totals. */
export async function importAttempts(db: Db, actor: AuditActor, body: ImportBody) {
  const rows = body.format === "csv" ? body.rows.map(attemptFromCsv) : jsonArray(body.data, "attempts", "tentativi");
  const label = body.format === "csv" ? csvLabel : jsonLabel("attempts");
  const v = validateRows(rows, attemptRowSchema, label);
  if (v.errors.length) rowsFailed(v.errors);
  if (!v.ok.length) throw new HttpError(400, "Nessun tentativo da importare.");
  const prepared = await prepareAttempts(db, v.ok, await loadUsers(db), new Set(), label);
  if (prepared.errors.length) rowsFailed(prepared.errors);
  const result = { importedAttempts: prepared.count };
  await runBatch(db, [
    ...prepared.statements(db),
    ...rebuildStatements(db),
    audit(db, actor, "import.attempts", result),
  ]);
  return result;
}
