// Reports in the admin console: list (open first, then newest), edit, resolve, delete; and the
// question editor behind 'Apri' (the first option is always the correct one, spec section 3).
import { desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { auditEntry, type AuditActor } from "../audit.server";
import type { Db } from "../db/client.server";
import { questions, reports, users, type ReportStatus } from "../db/schema";
import { HttpError, withLabels } from "../errors.server";

/** Admin view of a status (spec section 4): open/aperta/in_review/pending are open, all else resolved. */
export function adminReportState(status: string | null | undefined): "open" | "resolved" {
  const s = (status ?? "").trim().toLowerCase();
  return s === "open" || s === "aperta" || s === "in_review" || s === "pending" ? "open" : "resolved";
}

/** Maps any status word an admin (or an old client) may send to a stored status. */
export function storedReportStatus(status: string): ReportStatus | null {
  const s = status.trim().toLowerCase();
  if (s === "open" || s === "aperta" || s === "pending") return "open";
  if (s === "in_review" || s === "in revisione" || s === "in_revisione") return "in_review";
  if (["resolved", "risolta", "rejected", "respinta", "chiusa"].includes(s)) return "resolved";
  return null;
}

export const reportListQuery = withLabels(
  z.object({
    status: z
      .enum(
        ["open", "resolved", "aperta", "risolta"],
        "Filtro stato non valido: usa open (Aperta) o resolved (Risolta)",
      )
      .optional(),
  }),
  { status: "Stato" },
);

export async function listReports(db: Db, filter: z.infer<typeof reportListQuery>) {
  const rows = await db
    .select({
      id: reports.id,
      questionId: reports.questionId,
      attemptId: reports.attemptId,
      userId: reports.userId,
      byUser: users.name,
      byEmail: users.email,
      status: reports.status,
      message: reports.message,
      userAnswerKey: reports.userAnswerKey,
      assignedScore: reports.assignedScore,
      adminNotes: reports.adminNotes,
      createdAt: reports.createdAt,
      updatedAt: reports.updatedAt,
      stem: questions.stem,
    })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.userId))
    .innerJoin(questions, eq(questions.id, reports.questionId))
    // Open first (open and in_review), then newest.
    .orderBy(
      sql`CASE WHEN ${reports.status} IN ('open', 'in_review') THEN 0 ELSE 1 END`,
      desc(reports.createdAt),
      desc(reports.id),
    );
  const wanted = filter.status ? (filter.status === "aperta" || filter.status === "open" ? "open" : "resolved") : null;
  return rows
    .map((r) => ({
      id: r.id,
      questionId: r.questionId,
      attemptId: r.attemptId,
      userId: r.userId,
      byUser: r.byUser || r.byEmail,
      reason: r.message,
      message: r.message,
      status: r.status,
      state: adminReportState(r.status),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt ? r.updatedAt.toISOString() : null,
      userAnswerKey: r.userAnswerKey,
      assignedScore: r.assignedScore,
      adminNotes: r.adminNotes,
      questionText: r.stem,
    }))
    .filter((r) => !wanted || r.state === wanted);
}

export const reportUpdateSchema = withLabels(
  z.object({
    userAnswerKey: z.union([z.string().max(200, "Risposta troppo lunga (massimo 200 caratteri)"), z.null()]).optional(),
    assignedScore: z
      .union([
        z.number().min(0, "Il punteggio assegnato va da 0 a 31").max(31, "Il punteggio assegnato va da 0 a 31"),
        z.null(),
      ])
      .optional(),
    status: z.union([z.string().max(40), z.null()]).optional(),
    adminNotes: z.union([z.string().max(2000, "Note troppo lunghe"), z.null()]).optional(),
  }),
  { userAnswerKey: "Risposta utente", assignedScore: "Punteggio assegnato", status: "Stato", adminNotes: "Note" },
);

async function getReport(db: Db, id: number) {
  const row = await db.select().from(reports).where(eq(reports.id, id)).get();
  if (!row) throw new HttpError(404, "Segnalazione non trovata.");
  return row;
}

/** Saving from the dialog moves an open report to in_review unless a status is forced (spec section 4). */
export async function updateReport(
  db: Db,
  actor: AuditActor,
  id: number,
  input: z.infer<typeof reportUpdateSchema>,
  now = new Date(),
) {
  const current = await getReport(db, id);
  let status: ReportStatus = current.status;
  if (input.status != null && input.status.trim() !== "") {
    const forced = storedReportStatus(input.status);
    if (!forced) throw new HttpError(400, `Stato non valido: "${input.status}". Usa open, in_review o resolved.`);
    status = forced;
  } else if (current.status === "open") {
    status = "in_review";
  }
  const values: Partial<typeof reports.$inferInsert> = { status, updatedAt: now };
  if (input.userAnswerKey !== undefined) values.userAnswerKey = input.userAnswerKey?.trim() || null;
  if (input.assignedScore !== undefined) values.assignedScore = input.assignedScore;
  if (input.adminNotes !== undefined) values.adminNotes = input.adminNotes?.trim() || null;
  await db.batch([
    db.update(reports).set(values).where(eq(reports.id, id)),
    auditEntry(
      db,
      actor,
      status === "resolved" && current.status !== "resolved" ? "report.resolve" : "report.update",
      { type: "report", id },
      {
        from: current.status,
        to: status,
        userAnswerKey: values.userAnswerKey,
        assignedScore: values.assignedScore,
      },
    ),
  ]);
  return { ...(await getReport(db, id)), state: adminReportState(status) };
}

export async function resolveReport(db: Db, actor: AuditActor, id: number, now = new Date()) {
  const current = await getReport(db, id);
  await db.batch([
    db.update(reports).set({ status: "resolved", updatedAt: now }).where(eq(reports.id, id)),
    auditEntry(db, actor, "report.resolve", { type: "report", id }, { from: current.status }),
  ]);
  return { id, status: "resolved" as const, state: "resolved" as const };
}

export async function deleteReport(db: Db, actor: AuditActor, id: number) {
  const current = await getReport(db, id);
  await db.batch([
    db.delete(reports).where(eq(reports.id, id)),
    auditEntry(
      db,
      actor,
      "report.delete",
      { type: "report", id },
      { questionId: current.questionId, userId: current.userId },
    ),
  ]);
  return { ok: true, id };
}

// --- The question editor ---

async function getQuestionRow(db: Db, id: number) {
  const row = await db.select().from(questions).where(eq(questions.id, id)).get();
  if (!row) throw new HttpError(404, `Domanda ${id} non trovata.`);
  return row;
}

/** Display order for the editor: the correct option first, the others in their stored order. */
function editorOrder(options: string[], correctIndex: number): number[] {
  const rest = options.map((_, i) => i).filter((i) => i !== correctIndex);
  return [correctIndex, ...rest];
}

/** The question for the editor (staff only): for mc the correct option first; for gap the accepted answers. */
export async function questionForEditor(db: Db, id: number) {
  const q = await getQuestionRow(db, id);
  const options =
    q.type === "mc"
      ? editorOrder(q.options ?? [], q.correctIndex ?? 0).map((i) => ({ text: q.options?.[i] ?? "" }))
      : (q.acceptedAnswers ?? []).map((text) => ({ text }));
  return {
    id: q.id,
    subjectId: q.subjectId,
    topicId: q.topicId,
    type: q.type,
    stem: q.stem,
    question_text: q.stem,
    options,
    explanation: q.explanation,
    difficulty: q.difficulty,
    active: q.active,
  };
}

export const questionEditSchema = withLabels(
  z.object({
    stem: z.string().trim().min(1, "Il testo della domanda è obbligatorio").max(4000, "Testo troppo lungo"),
    explanation: z.string().max(4000, "Spiegazione troppo lunga").optional().default(""),
    options: z
      .array(
        z.object({
          text: z.string().trim().min(1, "Ogni opzione deve avere un testo").max(500, "Opzione troppo lunga"),
        }),
        "Le opzioni devono essere un elenco",
      )
      .min(1, "Serve almeno un'opzione (la prima è quella corretta)")
      .max(10, "Al massimo 10 opzioni"),
    difficulty: z.coerce
      .number()
      .int("La difficoltà è un intero da 1 a 5")
      .min(1, "La difficoltà va da 1 a 5")
      .max(5, "La difficoltà va da 1 a 5")
      .optional()
      .default(3),
    type: z.enum(["mc", "gap", "mcq", "fill"], "Tipo non valido: usa mc o gap"),
  }),
  {
    stem: "Testo della domanda",
    explanation: "Spiegazione",
    options: "Opzione",
    "options.text": "Opzione",
    difficulty: "Difficoltà",
    type: "Tipo",
  },
);

export async function updateQuestion(
  db: Db,
  actor: AuditActor,
  id: number,
  input: z.infer<typeof questionEditSchema>,
  now = new Date(),
) {
  const current = await getQuestionRow(db, id);
  const type = input.type === "mcq" ? "mc" : input.type === "fill" ? "gap" : input.type;
  const texts = input.options.map((o) => o.text);
  const values: Partial<typeof questions.$inferInsert> = {
    stem: input.stem,
    explanation: input.explanation.trim(),
    difficulty: input.difficulty,
    type,
    updatedAt: now,
  };
  if (type === "mc") {
    if (texts.length < 2) throw new HttpError(400, "Una domanda a scelta multipla richiede almeno 2 opzioni.");
    if (new Set(texts.map((t) => t.toLowerCase())).size !== texts.length)
      throw new HttpError(400, "Le opzioni devono essere tutte diverse.");
    // Keep option ids (stored indices) stable when the count is unchanged, so old answers still match.
    const oldCount = current.type === "mc" ? (current.options?.length ?? 0) : 0;
    if (oldCount === texts.length) {
      const order = editorOrder(current.options ?? [], current.correctIndex ?? 0);
      const stored: string[] = new Array(texts.length);
      order.forEach((storedIndex, displayIndex) => {
        stored[storedIndex] = texts[displayIndex]!;
      });
      values.options = stored;
      values.correctIndex = current.correctIndex ?? 0;
    } else {
      values.options = texts;
      values.correctIndex = 0;
    }
    values.acceptedAnswers = null;
  } else {
    if (texts.some((t) => /\s/.test(t)))
      throw new HttpError(400, "Le risposte accettate di un completamento sono una parola o un valore, senza spazi.");
    values.acceptedAnswers = texts;
    values.options = null;
    values.correctIndex = null;
  }
  await db.batch([
    db.update(questions).set(values).where(eq(questions.id, id)),
    auditEntry(db, actor, "question.update", { type: "question", id }, { type, difficulty: input.difficulty }),
  ]);
  return questionForEditor(db, id);
}

export async function reportsByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.select().from(reports).where(inArray(reports.id, ids));
}
