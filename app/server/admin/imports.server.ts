// Database maintenance of the admin console: imports (JSON, or CSV where a spreadsheet is the natural
// source), regrading, aggregate rebuild and reset. Formats: docs/imports.md.
//
// Every import is all-or-nothing: each row is validated (zod, then references against the database)
// before anything is written, and the writes go in ONE D1 batch (a transaction). A bad row imports
// nothing; the answer names the row and the problem. Rows travel to SQLite as one JSON parameter per
// chunk (`json_each`), which keeps a 3,500-question bank to a handful of statements.
import { checkBank, type BankFile, type BankQuestion } from "~/lib/bank-rules";
import { gapAnswerMatches } from "~/lib/gap-answer";
import { sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { summaryScore } from "~/lib/scoring";
import { parseCsv } from "~/lib/csv";
import { auditEntry, type AuditActor, type AuditAction } from "../audit.server";
import type { Db } from "../db/client.server";
import { ROLES } from "../db/schema";
import { REBUILD_AGGREGATES_SQL } from "../db/aggregate-sql";
import { HttpError, withLabels } from "../errors.server";
import { rebuildLearningMemory } from "../learning.server";

export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 50_000;
const CHUNK_BYTES = 800_000;
const CHUNK_ROWS = 1000;
const MAX_REPORTED_ERRORS = 10;

export type RowError = { row: number | string; message: string };

/** A 400 naming the first bad row; `errors` lists up to ten. */
function rowsFailed(errors: RowError[]): never {
  const first = errors[0]!;
  const listed = errors.slice(0, MAX_REPORTED_ERRORS);
  // The message lists every problem (up to ten) so the admin can fix the file in one pass.
  const more = listed.slice(1).map((e) => `${rowLabel(e.row)}: ${e.message}`);
  const rest = errors.length > listed.length ? ` (e altri ${errors.length - listed.length})` : "";
  const text = `${rowLabel(first.row)}: ${first.message}${more.length ? `. Altri problemi: ${more.join("; ")}${rest}` : ""}`;
  throw new HttpError(400, text, { row: first.row, errors: listed });
}

function rowLabel(row: number | string) {
  return typeof row === "number" ? `Riga ${row}` : row === "banca" ? "Banca domande" : `Elemento ${row}`;
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.join(".");
  const own = issue.message && !/^(Invalid|Expected|Too|Unrecognized|Required)/i.test(issue.message) ? issue.message : null;
  const text = own ?? (issue.code === "invalid_type" && issue.input === undefined ? "campo obbligatorio mancante" : "valore non valido");
  return field ? `campo "${field}": ${text}` : text;
}

// --- Reading the request ---

export type ImportBody = { format: "json"; data: unknown } | { format: "csv"; rows: Record<string, string>[] };

/** Reads an import body: JSON (application/json) or CSV (text/csv, header row, UTF-8 with or without BOM). */
export async function readImportBody(request: Request): Promise<ImportBody> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_IMPORT_BYTES) throw new HttpError(413, "File troppo grande: il massimo è 20 MB. Dividilo in più file.");
  const text = await request.text();
  if (text.length > MAX_IMPORT_BYTES) throw new HttpError(413, "File troppo grande: il massimo è 20 MB. Dividilo in più file.");
  if (!text.trim()) throw new HttpError(400, "File vuoto: carica un file JSON o CSV con almeno una riga.");
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  const looksJson = /^\s*[[{]/.test(text.replace(/^\uFEFF/, ""));
  if (type.includes("csv") || (!type.includes("json") && !looksJson)) {
    const { rows, errors } = parseCsv(text);
    if (errors.length) rowsFailed(errors.map((e) => ({ row: e.row, message: `CSV non valido (${e.message})` })));
    if (!rows.length) throw new HttpError(400, "Il CSV non contiene righe dopo l'intestazione.");
    if (rows.length > MAX_IMPORT_ROWS) throw new HttpError(413, `Troppe righe: il massimo è ${MAX_IMPORT_ROWS} per file.`);
    return { format: "csv", rows: rows.map(normaliseCsvRow) };
  }
  try {
    return { format: "json", data: JSON.parse(text.replace(/^\uFEFF/, "")) };
  } catch {
    throw new HttpError(400, "JSON non valido: controlla virgole e parentesi del file.");
  }
}

/** CSV headers in snake_case or camelCase ("subject_id", "subjectId") become camelCase; empty cells are absent. */
function normaliseCsvRow(row: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(row)) {
    const camel = key.trim().replace(/[\s_]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
    const name = camel.charAt(0).toLowerCase() + camel.slice(1);
    if (typeof value === "string" && value.trim() !== "") out[name] = value.trim();
  }
  return out;
}

const splitList = (value: string | undefined) =>
  value === undefined ? undefined : value.split("|").map((s) => s.trim()).filter(Boolean);

/** Validates every row; collects the failures (row numbers: CSV lines counting the header as 1, or JSON paths). */
function validateRows<S extends z.ZodType>(rows: unknown[], schema: S, label: (i: number) => number | string): { ok: z.infer<S>[]; errors: RowError[] } {
  const ok: z.infer<S>[] = [];
  const errors: RowError[] = [];
  rows.forEach((row, i) => {
    const parsed = schema.safeParse(row);
    if (parsed.success) ok.push(parsed.data);
    else errors.push({ row: label(i), message: issueText(parsed.error) });
  });
  return { ok, errors };
}

function jsonArray(data: unknown, key: string, what: string): unknown[] {
  const list = Array.isArray(data) ? data : data && typeof data === "object" ? (data as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(list)) throw new HttpError(400, `Formato non valido: è atteso un array di ${what} oppure un oggetto { "${key}": [...] }.`);
  if (list.length > MAX_IMPORT_ROWS) throw new HttpError(413, `Troppe righe: il massimo è ${MAX_IMPORT_ROWS} per file.`);
  return list;
}

function optionalArray(data: unknown, key: string): unknown[] {
  if (!data || typeof data !== "object" || Array.isArray(data)) return [];
  const list = (data as Record<string, unknown>)[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new HttpError(400, `Formato non valido: "${key}" deve essere un array.`);
  return list;
}

// --- Writing ---

// drizzle's D1 batch cannot run `db.run(sql)` with bound parameters (SQLiteRaw has no prepared
// statement), so imports build D1 statements themselves and batch them on the D1 binding.
type Statement = D1PreparedStatement;
const dialect = new SQLiteAsyncDialect();
// drizzle() keeps the D1 binding as $client (the shared Db type does not spell it out).
const d1 = (db: Db) => (db as Db & { $client: D1Database }).$client;

function stmt(db: Db, query: SQL): Statement {
  const built = dialect.sqlToQuery(query);
  return d1(db).prepare(built.sql).bind(...built.params);
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length;
    if (current.length && (current.length >= CHUNK_ROWS || bytes + size > CHUNK_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

/** One statement per chunk of rows, each chunk bound as a single JSON parameter read with json_each. */
function jsonStatements<T>(db: Db, rows: T[], build: (json: SQL) => SQL): Statement[] {
  return chunks(rows).map((chunk) => stmt(db, build(sql`${JSON.stringify(chunk)}`)));
}

async function runBatch(db: Db, statements: Statement[]) {
  if (!statements.length) return;
  try {
    await d1(db).batch(statements);
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    console.error("Import batch failed", message);
    if (/UNIQUE|constraint/i.test(message)) {
      throw new HttpError(409, "Importazione annullata: un valore univoco (id, email o username) è già in uso. Nessun dato è stato scritto.");
    }
    throw new HttpError(500, "Importazione annullata per un errore del database. Nessun dato è stato scritto.");
  }
}

const rebuildStatements = (db: Db) => REBUILD_AGGREGATES_SQL.map((s) => stmt(db, sql.raw(s)));

async function ids(db: Db, table: "subjects" | "topics" | "questions" | "users" | "attempts"): Promise<Set<number>> {
  const rows = await db.all<{ id: number }>(sql.raw(`SELECT id FROM ${table}`));
  return new Set(rows.map((r) => r.id));
}

async function maxId(db: Db, table: string): Promise<number> {
  const row = await db.get<{ m: number | null }>(sql.raw(`SELECT max(id) AS m FROM ${table}`));
  return row?.m ?? 0;
}

// --- Schemas (shared by JSON and CSV rows) ---

const int = (label: string) => z.coerce.number(`${label}: è atteso un numero`).int(`${label}: è atteso un numero intero`);
const posId = (label: string) => int(label).positive(`${label}: deve essere un numero positivo`);
const when = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(n) || n < Date.UTC(2000, 0, 1) || n > Date.UTC(2100, 0, 1)) {
    ctx.addIssue({ code: "custom", message: `data non valida "${v}" (usa ISO 8601, es. 2025-09-01T10:00:00Z)` });
    return z.NEVER;
  }
  return n;
});

export const questionRowSchema = z
  .object({
    id: posId("id").optional(),
    subjectId: posId("subjectId"),
    topicId: posId("topicId").optional().nullable(),
    type: z.enum(["mc", "gap"], 'tipo non valido: usa "mc" (scelta multipla) o "gap" (completamento)'),
    stem: z.string("testo della domanda mancante").trim().min(1, "testo della domanda mancante").max(4000, "testo troppo lungo (massimo 4000 caratteri)"),
    options: z.array(z.string().trim().min(1, "opzione vuota").max(500, "opzione troppo lunga"), "le opzioni devono essere un elenco").optional(),
    correct: int("correct").min(0, "correct: indice da 0").max(9, "correct: indice fino a 9").optional(),
    accepted: z.array(z.string().trim().min(1, "risposta accettata vuota").max(50, "risposta accettata troppo lunga"), "accepted deve essere un elenco").optional(),
    explanation: z.string().max(4000, "spiegazione troppo lunga").optional().default(""),
    difficulty: int("difficulty").min(1, "difficoltà da 1 a 5").max(5, "difficoltà da 1 a 5").optional().default(3),
    /** Syllabus unit (number within the subject): required for Biologia, Chimica, Fisica unless legacy. */
    unit: posId("unit").optional().nullable(),
    legacy: z
      .union([z.boolean(), z.enum(["true", "false", "1", "0", "si", "sì", "no"])], "legacy: usa true o false")
      .transform((v) => v === true || v === "true" || v === "1" || v === "si" || v === "sì")
      .optional(),
    measure: z.string().trim().min(1, "unità di misura vuota").max(20, "unità di misura troppo lunga").optional().nullable(),
    tolerance: z.coerce.number("tolleranza: è atteso un numero").min(0, "la tolleranza non può essere negativa").optional().nullable(),
  })
  .superRefine((q, ctx) => {
    if (q.type === "mc") {
      const n = q.options?.length ?? 0;
      if (n < 2) ctx.addIssue({ code: "custom", path: ["options"], message: "una domanda mc richiede almeno 2 opzioni" });
      if (n > 10) ctx.addIssue({ code: "custom", path: ["options"], message: "al massimo 10 opzioni" });
      if (q.options && new Set(q.options.map((o) => o.toLowerCase())).size !== n) ctx.addIssue({ code: "custom", path: ["options"], message: "opzioni ripetute" });
      if ((q.correct ?? 0) >= n && n >= 2) ctx.addIssue({ code: "custom", path: ["correct"], message: `l'indice della risposta corretta (${q.correct}) non corrisponde a nessuna opzione` });
    } else if (!q.accepted?.length) {
      ctx.addIssue({ code: "custom", path: ["accepted"], message: "una domanda gap richiede almeno una risposta accettata" });
    }
  });
type QuestionRow = z.infer<typeof questionRowSchema>;

const LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
/** CSV: option_a … option_e (or a … e), correct as a letter A-E, accepted separated by "|". */
function questionFromCsv(r: Record<string, string>): Record<string, unknown> {
  const options = LETTERS.map((l) => r[`option${l}`] ?? r[l.toLowerCase()]).filter((v): v is string => v !== undefined);
  let correct: unknown = r.correct;
  if (typeof correct === "string" && /^[A-Ja-j]$/.test(correct)) correct = LETTERS.indexOf(correct.toUpperCase());
  else if (typeof correct === "string") correct = `lettera non valida "${correct}"`;
  return {
    id: r.id,
    subjectId: r.subjectId,
    topicId: r.topicId,
    type: r.type,
    stem: r.stem,
    options: r.type === "mc" ? options : undefined,
    correct,
    accepted: splitList(r.accepted),
    explanation: r.explanation,
    difficulty: r.difficulty,
    unit: r.unit,
    legacy: r.legacy,
    measure: r.measure,
    tolerance: r.tolerance?.replace(",", "."),
  };
}

const role = z.enum(ROLES, "ruolo non valido: usa studente, docente, moderator o admin");
const userStatus = z
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
type UserRow = z.infer<typeof userRowSchema>;

const answerSchema = z.object({
  questionId: posId("questionId"),
  optionId: int("optionId").min(0).nullable().optional(),
  answerText: z.string().max(50, "risposta troppo lunga").nullable().optional(),
  timeSec: int("timeSec").min(0).max(86_400).optional().default(0),
});

export const attemptRowSchema = z
  .object({
    email: z.email("email non valida").transform((e) => e.toLowerCase()).optional(),
    userId: posId("userId").optional(),
    subjectId: posId("subjectId"),
    status: z.enum(["completed", "abandoned"], "stato non valido: usa completed o abandoned").optional().default("completed"),
    startedAt: when,
    finishedAt: when.optional(),
    timeTaken: int("timeTaken").min(0, "timeTaken non può essere negativo").max(864_000).optional(),
    total: int("total").min(1, "total deve essere almeno 1").max(500).optional(),
    correct: int("correct").min(0).optional(),
    wrong: int("wrong").min(0).optional(),
    blank: int("blank").min(0).optional(),
    answers: z.array(answerSchema, "answers deve essere un elenco").max(500).optional(),
  })
  .superRefine((a, ctx) => {
    if (!a.email && !a.userId) ctx.addIssue({ code: "custom", path: ["email"], message: "indica l'utente (email o userId)" });
    if (!a.answers?.length) {
      if (a.total === undefined || a.correct === undefined) {
        ctx.addIssue({ code: "custom", path: ["total"], message: "servono answers oppure total e correct" });
      } else if (a.correct + (a.wrong ?? 0) + (a.blank ?? 0) > a.total) {
        ctx.addIssue({ code: "custom", path: ["correct"], message: "correct + wrong + blank supera total" });
      }
    }
  });
type AttemptRow = z.infer<typeof attemptRowSchema>;

export const reportRowSchema = z.object({
  email: z.email("email non valida").transform((e) => e.toLowerCase()).optional(),
  userId: posId("userId").optional(),
  questionId: posId("questionId"),
  message: z.string().max(2000).optional(),
  status: z.enum(["open", "in_review", "resolved"], "stato non valido: usa open, in_review o resolved").optional().default("open"),
  userAnswerKey: z.string().max(200).optional(),
  createdAt: when.optional(),
});

// --- Grading (imports and reprocessing) ---

type Key = { type: "mc" | "gap"; correctIndex: number | null; accepted: string[] | null; topicId: number | null; measure: string | null; tolerance: number | null };

/** true correct, false wrong, null blank. */
export function gradeAnswer(key: Key, optionId: number | null | undefined, answerText: string | null | undefined): boolean | null {
  if (key.type === "mc") {
    if (optionId === null || optionId === undefined) return null;
    return optionId === key.correctIndex;
  }
  if (answerText === null || answerText === undefined || !answerText.trim()) return null;
  // The same matching rule as live grading (case, spacing and accents ignored).
  return gapAnswerMatches(answerText, key.accepted ?? [], { measure: key.measure, tolerance: key.tolerance });
}

async function questionKeys(db: Db): Promise<Map<number, Key>> {
  const rows = await db.all<{ id: number; type: "mc" | "gap"; correct_index: number | null; accepted_answers: string | null; topic_id: number | null; measure: string | null; tolerance: number | null }>(
    sql`SELECT id, type, correct_index, accepted_answers, topic_id, measure, tolerance FROM questions`,
  );
  return new Map(
    rows.map((r) => [r.id, { type: r.type, correctIndex: r.correct_index, accepted: r.accepted_answers ? (JSON.parse(r.accepted_answers) as string[]) : null, topicId: r.topic_id, measure: r.measure, tolerance: r.tolerance }]),
  );
}

// --- Shared pieces: checks against the database, and the insert statements ---

type Refs = { subjects: Set<number>; topics: Map<number, number>; questions: Set<number> };

async function loadRefs(db: Db): Promise<Refs> {
  const topicRows = await db.all<{ id: number; subject_id: number }>(sql`SELECT id, subject_id FROM topics`);
  return { subjects: await ids(db, "subjects"), topics: new Map(topicRows.map((t) => [t.id, t.subject_id])), questions: await ids(db, "questions") };
}

function checkQuestions(rows: QuestionRow[], refs: Refs, label: (i: number) => number | string): RowError[] {
  const errors: RowError[] = [];
  const seen = new Set<number>();
  rows.forEach((q, i) => {
    if (!refs.subjects.has(q.subjectId)) errors.push({ row: label(i), message: `materia ${q.subjectId} inesistente (importa prima materie e argomenti)` });
    else if (q.topicId != null && refs.topics.get(q.topicId) !== q.subjectId) {
      errors.push({ row: label(i), message: refs.topics.has(q.topicId) ? `l'argomento ${q.topicId} non appartiene alla materia ${q.subjectId}` : `argomento ${q.topicId} inesistente` });
    }
    if (q.id !== undefined) {
      if (seen.has(q.id)) errors.push({ row: label(i), message: `id ${q.id} ripetuto nel file` });
      seen.add(q.id);
    }
  });
  return errors;
}

/**
 * The bank's rules (app/lib/bank-rules.ts, the same functions as `npm run bank:check`) on the bank the
 * import would leave behind: every imported question must pass the row rules (5 distinct options, accepted
 * forms, numbers that read as numbers, explanation, a syllabus unit for Biologia/Chimica/Fisica unless
 * legacy, consistent with its topic), and the import may not add a bank-wide problem (a repeated stem, a
 * topic or unit under 6 questions, the correct option's position out of 15-25 %) that the bank did not have.
 */
async function bankRuleErrors(db: Db, rows: QuestionRow[], label: (i: number) => number | string): Promise<RowError[]> {
  const [subjectRows, unitRows, topicRows, questionRows] = await Promise.all([
    db.all<{ id: number; name: string }>(sql`SELECT id, name FROM subjects`),
    db.all<{ subject_id: number; number: number; title: string; credits: number }>(sql`SELECT subject_id, number, title, credits FROM units`),
    db.all<{ id: number; subject_id: number; parent_id: number | null; name: string; unit: number | null; legacy: number }>(
      sql`SELECT id, subject_id, parent_id, name, unit, legacy FROM topics`,
    ),
    db.all<{
      id: number; subject_id: number; topic_id: number | null; type: "mc" | "gap"; stem: string; options: string | null; correct_index: number | null;
      accepted_answers: string | null; explanation: string; difficulty: number; unit: number | null; legacy: number; measure: string | null; tolerance: number | null;
    }>(sql`SELECT id, subject_id, topic_id, type, stem, options, correct_index, accepted_answers, explanation, difficulty, unit, legacy, measure, tolerance
           FROM questions WHERE active = 1`),
  ]);
  const current = new Map<number, { subjectId: number; q: BankQuestion }>(
    questionRows.map((r) => [
      r.id,
      {
        subjectId: r.subject_id,
        q: {
          id: r.id, topic: r.topic_id, type: r.type, stem: r.stem, options: r.options ? (JSON.parse(r.options) as string[]) : null, correct: r.correct_index,
          accepted: r.accepted_answers ? (JSON.parse(r.accepted_answers) as string[]) : null, explanation: r.explanation, difficulty: r.difficulty,
          unit: r.unit, legacy: r.legacy === 1, measure: r.measure, tolerance: r.tolerance,
        },
      },
    ]),
  );
  const bankOf = (questions: Map<number, { subjectId: number; q: BankQuestion }>): BankFile[] =>
    subjectRows.map((s) => ({
      subject: { id: s.id, name: s.name },
      units: unitRows.filter((u) => u.subject_id === s.id).map((u) => ({ number: u.number, title: u.title, credits: u.credits })),
      topics: topicRows.filter((t) => t.subject_id === s.id).map((t) => ({ id: t.id, name: t.name, parent: t.parent_id, unit: t.unit, legacy: t.legacy === 1 })),
      questions: [...questions.values()].filter((x) => x.subjectId === s.id).map((x) => x.q),
    }));
  // Rows without an id get provisional ids after the largest one (the database gives them the same).
  let next = Math.max(0, ...current.keys()) + 1;
  const labelOf = new Map<number, number | string>();
  const merged = new Map(current);
  rows.forEach((r, i) => {
    const id = r.id ?? next++;
    labelOf.set(id, label(i));
    merged.set(id, {
      subjectId: r.subjectId,
      q: {
        id, topic: r.topicId ?? null, type: r.type, stem: r.stem, options: r.type === "mc" ? (r.options ?? null) : null, correct: r.type === "mc" ? (r.correct ?? 0) : null,
        accepted: r.type === "gap" ? (r.accepted ?? null) : null, explanation: r.explanation, difficulty: r.difficulty,
        unit: r.legacy ? null : (r.unit ?? null), legacy: r.legacy === true, measure: r.type === "gap" ? (r.measure ?? null) : null,
        tolerance: r.type === "gap" ? (r.tolerance ?? null) : null,
      },
    });
  });
  const before = new Set(checkBank(bankOf(current)).map((i) => i.key));
  const errors: RowError[] = [];
  for (const issue of checkBank(bankOf(merged))) {
    const row = issue.questionId !== undefined ? labelOf.get(issue.questionId) : undefined;
    if (row !== undefined) errors.push({ row, message: issue.message });
    else if (!before.has(issue.key)) errors.push({ row: "banca", message: `dopo l'importazione: ${issue.message}` });
  }
  return errors;
}

function questionStatements(db: Db, rows: QuestionRow[], now: number): Statement[] {
  const data = rows.map((q) => ({
    id: q.id ?? null,
    s: q.subjectId,
    t: q.topicId ?? null,
    ty: q.type,
    st: q.stem,
    o: q.type === "mc" ? q.options : null,
    c: q.type === "mc" ? (q.correct ?? 0) : null,
    a: q.type === "gap" ? q.accepted : null,
    e: q.explanation.trim(),
    d: q.difficulty,
    u: q.legacy ? null : (q.unit ?? null),
    l: q.legacy ? 1 : 0,
    m: q.type === "gap" ? (q.measure ?? null) : null,
    tl: q.type === "gap" ? (q.tolerance ?? null) : null,
  }));
  return jsonStatements(
    db,
    data,
    (json) => sql`INSERT INTO questions (id, subject_id, topic_id, type, stem, options, correct_index, accepted_answers, explanation, difficulty, unit, legacy, measure, tolerance, active, created_at, updated_at)
      SELECT json_extract(value, '$.id'), json_extract(value, '$.s'), json_extract(value, '$.t'), json_extract(value, '$.ty'), json_extract(value, '$.st'),
             json_extract(value, '$.o'), json_extract(value, '$.c'), json_extract(value, '$.a'), json_extract(value, '$.e'), json_extract(value, '$.d'),
             json_extract(value, '$.u'), json_extract(value, '$.l'), json_extract(value, '$.m'), json_extract(value, '$.tl'), 1, ${now}, ${now}
      FROM json_each(${json}) WHERE true
      ON CONFLICT (id) DO UPDATE SET subject_id = excluded.subject_id, topic_id = excluded.topic_id, type = excluded.type, stem = excluded.stem,
        options = excluded.options, correct_index = excluded.correct_index, accepted_answers = excluded.accepted_answers,
        explanation = excluded.explanation, difficulty = excluded.difficulty, unit = excluded.unit, legacy = excluded.legacy,
        measure = excluded.measure, tolerance = excluded.tolerance, active = 1, updated_at = excluded.updated_at`,
  );
}

type UserIndex = { byEmail: Map<string, number>; ids: Set<number> };

async function loadUsers(db: Db): Promise<UserIndex> {
  const rows = await db.all<{ id: number; email: string }>(sql`SELECT id, email FROM users`);
  return { byEmail: new Map(rows.map((r) => [r.email.toLowerCase(), r.id])), ids: new Set(rows.map((r) => r.id)) };
}

/** Users are matched by email: an existing one is updated, a new one gets the next free id. */
async function prepareUsers(db: Db, rows: UserRow[], index: UserIndex, label: (i: number) => number | string) {
  const errors: RowError[] = [];
  const usernames = await db.all<{ id: number; username: string }>(sql`SELECT id, username FROM users WHERE username IS NOT NULL`);
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
      if (seenUsernames.has(key) || (owner !== undefined && owner !== id)) errors.push({ row: label(i), message: `username "${u.username}" già in uso` });
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

function userStatements(db: Db, rows: (UserRow & { id: number })[], now: number): Statement[] {
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
    (json) => sql`INSERT INTO users (id, email, name, first_name, last_name, username, phone, city, school, school_year, role, status, suspension_reason, created_at)
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

/** Resolves users and grades answers; returns the attempt and answer rows with their ids fixed in advance. */
async function prepareAttempts(db: Db, rows: AttemptRow[], users: UserIndex, extraQuestionIds: Set<number>, label: (i: number) => number | string) {
  const errors: RowError[] = [];
  const subjects = await ids(db, "subjects");
  const answerQuestionIds = [...new Set(rows.flatMap((a) => (a.answers ?? []).map((x) => x.questionId)))];
  const keys = answerQuestionIds.length ? await questionKeys(db) : new Map<number, Key>();
  let nextAttempt = (await maxId(db, "attempts")) + 1;
  let nextAnswer = (await maxId(db, "attempt_answers")) + 1;
  const attemptData: Record<string, unknown>[] = [];
  const answerData: Record<string, unknown>[] = [];
  rows.forEach((a, i) => {
    const userId = a.email ? users.byEmail.get(a.email) : a.userId;
    if (userId === undefined || !users.ids.has(userId)) {
      errors.push({ row: label(i), message: a.email ? `nessun utente con email ${a.email}` : `utente ${a.userId} inesistente` });
      return;
    }
    if (!subjects.has(a.subjectId)) {
      errors.push({ row: label(i), message: `materia ${a.subjectId} inesistente` });
      return;
    }
    const id = nextAttempt++;
    let { total, correct, wrong, blank } = { total: a.total ?? 0, correct: a.correct ?? 0, wrong: a.wrong ?? 0, blank: a.blank ?? 0 };
    let seconds = 0;
    if (a.answers?.length) {
      total = a.answers.length;
      correct = wrong = blank = 0;
      for (const [position, answer] of a.answers.entries()) {
        const key = keys.get(answer.questionId);
        if (!key) {
          errors.push({ row: label(i), message: extraQuestionIds.has(answer.questionId) ? `la risposta ${position + 1} usa la domanda ${answer.questionId}, importata nello stesso file: importa prima le domande` : `la risposta ${position + 1} usa la domanda ${answer.questionId}, inesistente` });
          return;
        }
        const result = gradeAnswer(key, answer.optionId, answer.answerText);
        if (result === null) blank++;
        else if (result) correct++;
        else wrong++;
        seconds += answer.timeSec;
        answerData.push({
          id: nextAnswer++,
          a: id,
          p: position,
          q: answer.questionId,
          o: key.type === "mc" ? (answer.optionId ?? null) : null,
          t: key.type === "gap" ? (answer.answerText ?? null) : null,
          c: result === null ? null : result ? 1 : 0,
          s: answer.timeSec,
          at: a.startedAt + seconds * 1000,
        });
      }
    } else if (!blank) {
      blank = Math.max(0, total - correct - wrong);
    }
    const timeTaken = a.timeTaken ?? (seconds || null);
    const completed = a.status === "completed";
    attemptData.push({
      id,
      u: userId,
      s: a.subjectId,
      st: a.status,
      sa: a.startedAt,
      fa: completed ? (a.finishedAt ?? a.startedAt + (timeTaken ?? 0) * 1000) : null,
      tt: timeTaken,
      to: total,
      c: correct,
      w: wrong,
      b: blank,
      sc: completed ? summaryScore(correct, wrong, total) : null,
    });
  });
  const statements = (db: Db) => [
    ...jsonStatements(
      db,
      attemptData,
      (json) => sql`INSERT INTO attempts (id, user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score)
        SELECT json_extract(value, '$.id'), json_extract(value, '$.u'), json_extract(value, '$.s'), json_extract(value, '$.st'), json_extract(value, '$.sa'),
               json_extract(value, '$.fa'), json_extract(value, '$.tt'), json_extract(value, '$.to'), json_extract(value, '$.c'), json_extract(value, '$.w'),
               json_extract(value, '$.b'), json_extract(value, '$.sc')
        FROM json_each(${json})`,
    ),
    ...jsonStatements(
      db,
      answerData,
      (json) => sql`INSERT INTO attempt_answers (id, attempt_id, position, question_id, option_id, answer_text, correct, time_sec, answered_at)
        SELECT json_extract(value, '$.id'), json_extract(value, '$.a'), json_extract(value, '$.p'), json_extract(value, '$.q'), json_extract(value, '$.o'),
               json_extract(value, '$.t'), json_extract(value, '$.c'), json_extract(value, '$.s'), json_extract(value, '$.at')
        FROM json_each(${json})`,
    ),
  ];
  return { errors, count: attemptData.length, statements };
}

function attemptFromCsv(r: Record<string, string>): Record<string, unknown> {
  return { ...r };
}

function audit(db: Db, actor: AuditActor, action: AuditAction, details: Record<string, unknown>) {
  const built = auditEntry(db, actor, action, { type: "database" }, details).toSQL();
  return d1(db).prepare(built.sql).bind(...built.params);
}

const jsonLabel = (key: string) => (i: number) => `${key}[${i}]`;
const csvLabel = (i: number) => i + 2;

// --- The calls ---

/** POST /api/admin/import: a bundle { questions, users, attempts, reports } (JSON) or a questions CSV. */
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
  if (!total) throw new HttpError(400, 'Nessun dato da importare: il file deve contenere almeno uno fra "questions", "users", "attempts" e "reports".');
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
  if (!errors.length && q.ok.length) errors.push(...(await bankRuleErrors(db, q.ok, label("questions"))));
  const userIndex = await loadUsers(db);
  const preparedUsers = await prepareUsers(db, u.ok, userIndex, label("users"));
  errors.push(...preparedUsers.errors);
  const bundleQuestionIds = new Set(q.ok.flatMap((x) => (x.id ? [x.id] : [])));
  const preparedAttempts = await prepareAttempts(db, a.ok, userIndex, bundleQuestionIds, label("attempts"));
  errors.push(...preparedAttempts.errors);
  const reportData: Record<string, unknown>[] = [];
  r.ok.forEach((rep, i) => {
    const userId = rep.email ? userIndex.byEmail.get(rep.email) : rep.userId;
    if (userId === undefined || !userIndex.ids.has(userId)) errors.push({ row: label("reports")(i), message: rep.email ? `nessun utente con email ${rep.email}` : `utente ${rep.userId} inesistente` });
    else if (!refs.questions.has(rep.questionId) && !bundleQuestionIds.has(rep.questionId)) errors.push({ row: label("reports")(i), message: `domanda ${rep.questionId} inesistente` });
    else reportData.push({ u: userId, q: rep.questionId, m: rep.message?.trim() || "(nessun dettaglio)", s: rep.status, k: rep.userAnswerKey ?? null, c: rep.createdAt ?? now });
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
  const result = { importedQuestions: q.ok.length, importedUsers: u.ok.length, importedAttempts: preparedAttempts.count, importedReports: reportData.length };
  statements.push(audit(db, actor, "import", { format: body.format, ...result }));
  await runBatch(db, statements);
  return result;
}

const taxonomyNode = z.object({ id: posId("id").optional(), name: z.string("nome mancante").trim().min(1, "nome mancante").max(120, "nome troppo lungo") });
export const taxonomySchema = taxonomyNode.extend({
  topics: z.array(taxonomyNode.extend({ subtopics: z.array(taxonomyNode, "subtopics deve essere un elenco").optional().default([]) }), "topics deve essere un elenco").optional().default([]),
});

/** POST /api/admin/import-taxonomy: subjects → topics → sub-topics; matched by id, else by name, else created. */
export async function importTaxonomy(db: Db, actor: AuditActor, body: ImportBody) {
  let subjectsIn: z.infer<typeof taxonomySchema>[];
  if (body.format === "csv") {
    // One row per path: subject_id?, subject, topic_id?, topic?, subtopic_id?, subtopic?
    const errors: RowError[] = [];
    const tree = new Map<string, z.infer<typeof taxonomySchema>>();
    body.rows.forEach((row, i) => {
      const parsed = z
        .object({
          subjectId: posId("subject_id").optional(),
          subject: z.string("nome della materia mancante").min(1).max(120, "nome troppo lungo"),
          topicId: posId("topic_id").optional(),
          topic: z.string().max(120, "nome troppo lungo").optional(),
          subtopicId: posId("subtopic_id").optional(),
          subtopic: z.string().max(120, "nome troppo lungo").optional(),
        })
        .refine((x) => !x.subtopic || x.topic, { message: "un sotto-argomento richiede l'argomento", path: ["topic"] })
        .safeParse(row);
      if (!parsed.success) return errors.push({ row: csvLabel(i), message: issueText(parsed.error) });
      const x = parsed.data;
      const sKey = x.subjectId ? `#${x.subjectId}` : x.subject.toLowerCase();
      const s = tree.get(sKey) ?? { id: x.subjectId, name: x.subject, topics: [] };
      tree.set(sKey, s);
      if (!x.topic) return;
      let t = s.topics.find((t) => (x.topicId ? t.id === x.topicId : t.name.toLowerCase() === x.topic!.toLowerCase()));
      if (!t) s.topics.push((t = { id: x.topicId, name: x.topic, subtopics: [] }));
      if (x.subtopic && !t.subtopics.some((st) => (x.subtopicId ? st.id === x.subtopicId : st.name.toLowerCase() === x.subtopic!.toLowerCase()))) {
        t.subtopics.push({ id: x.subtopicId, name: x.subtopic });
      }
    });
    if (errors.length) rowsFailed(errors);
    subjectsIn = [...tree.values()];
  } else {
    const v = validateRows(jsonArray(body.data, "subjects", "materie"), taxonomySchema, jsonLabel("subjects"));
    if (v.errors.length) rowsFailed(v.errors);
    subjectsIn = v.ok;
  }
  if (!subjectsIn.length) throw new HttpError(400, "Nessuna materia da importare.");

  const existingSubjects = await db.all<{ id: number; name: string }>(sql`SELECT id, name FROM subjects`);
  const existingTopics = await db.all<{ id: number; subject_id: number; parent_id: number | null; name: string }>(sql`SELECT id, subject_id, parent_id, name FROM topics`);
  let nextSubject = (await maxId(db, "subjects")) + 1;
  let nextTopic = (await maxId(db, "topics")) + 1;
  const subjectRows: { id: number; n: string }[] = [];
  const topicRows: { id: number; s: number; p: number | null; n: string }[] = [];
  const errors: RowError[] = [];
  const seenTopicIds = new Set<number>();
  let importedTopics = 0;
  let importedSubtopics = 0;
  const topicById = new Map(existingTopics.map((t) => [t.id, t]));
  const resolveTopic = (id: number | undefined, name: string, subjectId: number, parentId: number | null, where: string) => {
    if (id !== undefined) {
      const existing = topicById.get(id);
      if (existing && (existing.subject_id !== subjectId || (existing.parent_id ?? null) !== parentId)) {
        errors.push({ row: where, message: `l'argomento ${id} esiste già sotto un'altra materia o un altro argomento` });
      }
      if (seenTopicIds.has(id)) errors.push({ row: where, message: `id argomento ${id} ripetuto nel file` });
      seenTopicIds.add(id);
      nextTopic = Math.max(nextTopic, id + 1);
      return id;
    }
    const byName = existingTopics.find((t) => t.subject_id === subjectId && (t.parent_id ?? null) === parentId && t.name.toLowerCase() === name.toLowerCase());
    return byName?.id ?? nextTopic++;
  };
  subjectsIn.forEach((s, si) => {
    const subjectId = s.id ?? existingSubjects.find((x) => x.name.toLowerCase() === s.name.toLowerCase())?.id ?? nextSubject++;
    if (s.id) nextSubject = Math.max(nextSubject, s.id + 1);
    subjectRows.push({ id: subjectId, n: s.name });
    s.topics.forEach((t, ti) => {
      const topicId = resolveTopic(t.id, t.name, subjectId, null, `subjects[${si}].topics[${ti}]`);
      topicRows.push({ id: topicId, s: subjectId, p: null, n: t.name });
      importedTopics++;
      t.subtopics.forEach((st, sti) => {
        const subId = resolveTopic(st.id, st.name, subjectId, topicId, `subjects[${si}].topics[${ti}].subtopics[${sti}]`);
        topicRows.push({ id: subId, s: subjectId, p: topicId, n: st.name });
        importedSubtopics++;
      });
    });
  });
  if (new Set(subjectRows.map((s) => s.id)).size !== subjectRows.length) errors.push({ row: "subjects", message: "la stessa materia compare due volte nel file" });
  if (errors.length) rowsFailed(errors);
  const result = { importedSubjects: subjectRows.length, importedTopics, importedSubtopics };
  await runBatch(db, [
    ...jsonStatements(
      db,
      subjectRows,
      (json) => sql`INSERT INTO subjects (id, name) SELECT json_extract(value, '$.id'), json_extract(value, '$.n') FROM json_each(${json}) WHERE true
        ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
    ),
    ...jsonStatements(
      db,
      topicRows,
      (json) => sql`INSERT INTO topics (id, subject_id, parent_id, name)
        SELECT json_extract(value, '$.id'), json_extract(value, '$.s'), json_extract(value, '$.p'), json_extract(value, '$.n') FROM json_each(${json}) WHERE true
        ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
    ),
    audit(db, actor, "import.taxonomy", result),
  ]);
  return result;
}

const difficultyRow = z.object({
  questionId: posId("questionId"),
  difficulty: int("difficulty").min(1, "difficoltà da 1 a 5").max(5, "difficoltà da 1 a 5"),
});

/** POST /api/admin/import-difficulty: [{questionId, difficulty}] or CSV question_id,difficulty. */
export async function importDifficulty(db: Db, actor: AuditActor, body: ImportBody) {
  const rows = body.format === "csv" ? body.rows : jsonArray(body.data, "items", "righe { questionId, difficulty }");
  const label = body.format === "csv" ? csvLabel : jsonLabel("items");
  const v = validateRows(rows, difficultyRow, label);
  if (v.errors.length) rowsFailed(v.errors);
  const known = await ids(db, "questions");
  const errors: RowError[] = [];
  const seen = new Set<number>();
  v.ok.forEach((r, i) => {
    if (!known.has(r.questionId)) errors.push({ row: label(i), message: `domanda ${r.questionId} inesistente` });
    if (seen.has(r.questionId)) errors.push({ row: label(i), message: `domanda ${r.questionId} ripetuta nel file` });
    seen.add(r.questionId);
  });
  if (errors.length) rowsFailed(errors);
  const now = Date.now();
  const result = { updatedQuestions: v.ok.length };
  await runBatch(db, [
    ...jsonStatements(
      db,
      v.ok.map((r) => ({ id: r.questionId, d: r.difficulty })),
      (json) => sql`UPDATE questions SET difficulty = j.d, updated_at = ${now}
        FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.d') AS d FROM json_each(${json})) AS j
        WHERE questions.id = j.id`,
    ),
    audit(db, actor, "import.difficulty", result),
  ]);
  return result;
}

/** POST /api/admin/import-users: { users, attempts? } (JSON) or a users CSV. */
export async function importUsers(db: Db, actor: AuditActor, body: ImportBody) {
  const usersIn = body.format === "csv" ? body.rows : Array.isArray(body.data) ? body.data : jsonArray(body.data, "users", "utenti");
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
  await runBatch(db, [...prepared.statements(db), ...rebuildStatements(db), audit(db, actor, "import.attempts", result)]);
  return result;
}

/** POST /api/admin/reprocess-attempt-answers: regrades every stored answer against the current keys. */
export async function reprocessAttemptAnswers(db: Db, actor: AuditActor) {
  const keys = await questionKeys(db);
  const answers = await db.all<{ id: number; attempt_id: number; question_id: number; option_id: number | null; answer_text: string | null; correct: number | null }>(
    sql`SELECT id, attempt_id, question_id, option_id, answer_text, correct FROM attempt_answers`,
  );
  const changed: { id: number; c: number | null }[] = [];
  const perAttempt = new Map<number, { correct: number; wrong: number; blank: number; total: number }>();
  const touched = new Set<number>();
  for (const a of answers) {
    const key = keys.get(a.question_id);
    const result = key ? gradeAnswer(key, a.option_id, a.answer_text) : a.correct === null ? null : a.correct === 1;
    const value = result === null ? null : result ? 1 : 0;
    if (value !== a.correct) {
      changed.push({ id: a.id, c: value });
      touched.add(a.attempt_id);
    }
    const t = perAttempt.get(a.attempt_id) ?? { correct: 0, wrong: 0, blank: 0, total: 0 };
    t.total++;
    if (value === null) t.blank++;
    else if (value) t.correct++;
    else t.wrong++;
    perAttempt.set(a.attempt_id, t);
  }
  const attemptUpdates = [...touched].map((id) => {
    const t = perAttempt.get(id)!;
    return { id, c: t.correct, w: t.wrong, b: t.blank, s: summaryScore(t.correct, t.wrong, t.total) };
  });
  const result = { updatedAttempts: attemptUpdates.length };
  await runBatch(db, [
    ...jsonStatements(
      db,
      changed,
      (json) => sql`UPDATE attempt_answers SET correct = j.c
        FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.c') AS c FROM json_each(${json})) AS j WHERE attempt_answers.id = j.id`,
    ),
    ...jsonStatements(
      db,
      attemptUpdates,
      (json) => sql`UPDATE attempts SET correct = j.c, wrong = j.w, blank = j.b, score = CASE WHEN attempts.status = 'completed' THEN j.s ELSE attempts.score END
        FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.c') AS c, json_extract(value, '$.w') AS w,
                     json_extract(value, '$.b') AS b, json_extract(value, '$.s') AS s FROM json_each(${json})) AS j WHERE attempts.id = j.id`,
    ),
    ...(attemptUpdates.length ? rebuildStatements(db) : []),
    audit(db, actor, "reprocess.answers", { ...result, updatedAnswers: changed.length }),
  ]);
  return result;
}

/** POST /api/admin/recalc-stats: rebuilds the site-wide aggregates and the question memories from the attempts. */
export async function recalcStats(db: Db, actor: AuditActor) {
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM attempts WHERE status = 'completed'`);
  await runBatch(db, [...rebuildStatements(db), audit(db, actor, "recalc.stats", { attempts: row?.n ?? 0 })]);
  // The learning engine's memories are replayed from the same history (in chunks: not one batch).
  await rebuildLearningMemory(db);
  return { recalculated: row?.n ?? 0 };
}

export const RESET_CONFIRMATION = "RESET";
export const resetSchema = withLabels(
  z.object({
    confirm: z.literal(RESET_CONFIRMATION, `Conferma mancante: invia { "confirm": "${RESET_CONFIRMATION}" }.`),
  }),
  { confirm: "Conferma" },
);

// Children first, so foreign keys never block a delete.
const RESET_TABLES = [
  "question_memory", "stat_question_accuracy",
  "rush_progress", "rush_events", "simulation_attempts", "simulation_allowed_users", "simulation_allowed_classes", "simulation_questions", "simulation_subjects", "simulations",
  "class_members", "classes",
  "reports", "attempt_answers", "attempts", "quiz_questions", "quizzes", "friendships", "stat_score_histogram", "stat_topic_accuracy",
  "stat_daily_scores", "page_views", "consent_records", "login_events", "questions", "topics", "units", "subjects",
];

/**
 * POST /api/admin/reset-db: empties the bank and every activity table and removes every account except
 * the admin doing it (who stays signed in). Refused unless the server runs with ALLOW_DB_RESET=1.
 * The audit log is kept, with the reset recorded in it.
 */
// Declared in workers/env.d.ts, but the generated global Env does not pick that declaration up.
type ResetEnv = Env & { ALLOW_DB_RESET?: string };

export function assertResetAllowed(env: Env) {
  if ((env as ResetEnv).ALLOW_DB_RESET !== "1") {
    throw new HttpError(403, "Reset del database disattivato su questo server: va abilitato con l'impostazione ALLOW_DB_RESET=1.");
  }
}

export async function resetDatabase(db: Db, env: Env, actor: AuditActor) {
  assertResetAllowed(env);
  const counts: Record<string, number> = {};
  for (const table of [...RESET_TABLES, "users"]) {
    counts[table] = (await db.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table}`)))?.n ?? 0;
  }
  counts.users = Math.max(0, counts.users! - 1);
  await runBatch(db, [
    ...RESET_TABLES.map((t) => stmt(db, sql.raw(`DELETE FROM ${t}`))),
    stmt(db, sql`DELETE FROM sessions WHERE user_id <> ${actor.id}`),
    stmt(db, sql`DELETE FROM users WHERE id <> ${actor.id}`),
    audit(db, actor, "reset.db", { deleted: counts }),
  ]);
  return { ok: true, deleted: counts };
}
