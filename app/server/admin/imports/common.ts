// Shared steps of every import: reading the body (JSON or CSV), validating rows, naming bad rows, and writing
// rows in chunks as JSON parameters inside one D1 batch.
import { sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { parseCsv } from "~/lib/csv";
import { auditEntry, type AuditActor, type AuditAction } from "../../audit.server";
import type { Db } from "../../db/client.server";
import { REBUILD_AGGREGATES_SQL } from "../../db/aggregate-sql";
import { HttpError } from "../../errors.server";

export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 50_000;
export const CHUNK_BYTES = 800_000;
export const CHUNK_ROWS = 1000;
export const MAX_REPORTED_ERRORS = 10;

export type RowError = { row: number | string; message: string };

/** A 400 naming the first bad row; `errors` lists up to ten. */
export function rowsFailed(errors: RowError[]): never {
  const first = errors[0]!;
  const listed = errors.slice(0, MAX_REPORTED_ERRORS);
  // The message lists every problem (up to ten) so the admin can fix the file in one pass.
  const more = listed.slice(1).map((e) => `${rowLabel(e.row)}: ${e.message}`);
  const rest = errors.length > listed.length ? ` (e altri ${errors.length - listed.length})` : "";
  const text = `${rowLabel(first.row)}: ${first.message}${more.length ? `. Altri problemi: ${more.join("; ")}${rest}` : ""}`;
  throw new HttpError(400, text, { row: first.row, errors: listed });
}

/** Up to this many warnings are listed in an import's answer; the rest are counted. */
export const MAX_REPORTED_WARNINGS = 100;

/** An import's warnings as its answer lists them ("Elemento questions[3]: domanda 12: …"). */
export function warningTexts(warnings: RowError[]): string[] {
  const listed = warnings.slice(0, MAX_REPORTED_WARNINGS).map((w) => `${rowLabel(w.row)}: ${w.message}`);
  const rest = warnings.length - listed.length;
  return rest > 0 ? [...listed, `e altri ${rest} avvisi`] : listed;
}

export function rowLabel(row: number | string) {
  return typeof row === "number" ? `Riga ${row}` : row === "banca" ? "Banca domande" : `Elemento ${row}`;
}

export function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.join(".");
  const own =
    issue.message && !/^(Invalid|Expected|Too|Unrecognized|Required)/i.test(issue.message) ? issue.message : null;
  const text =
    own ??
    (issue.code === "invalid_type" && issue.input === undefined ? "campo obbligatorio mancante" : "valore non valido");
  return field ? `campo "${field}": ${text}` : text;
}

// --- Reading the request ---

export type ImportBody = { format: "json"; data: unknown } | { format: "csv"; rows: Record<string, string>[] };

/** Reads an import body: JSON (application/json) or CSV (text/csv, header row, UTF-8 with or without BOM). */
export async function readImportBody(request: Request): Promise<ImportBody> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_IMPORT_BYTES)
    throw new HttpError(413, "File troppo grande: il massimo è 20 MB. Dividilo in più file.");
  const text = await request.text();
  if (text.length > MAX_IMPORT_BYTES)
    throw new HttpError(413, "File troppo grande: il massimo è 20 MB. Dividilo in più file.");
  if (!text.trim()) throw new HttpError(400, "File vuoto: carica un file JSON o CSV con almeno una riga.");
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  const looksJson = /^\s*[[{]/.test(text.replace(/^\uFEFF/, ""));
  if (type.includes("csv") || (!type.includes("json") && !looksJson)) {
    const { rows, errors } = parseCsv(text);
    if (errors.length) rowsFailed(errors.map((e) => ({ row: e.row, message: `CSV non valido (${e.message})` })));
    if (!rows.length) throw new HttpError(400, "Il CSV non contiene righe dopo l'intestazione.");
    if (rows.length > MAX_IMPORT_ROWS)
      throw new HttpError(413, `Troppe righe: il massimo è ${MAX_IMPORT_ROWS} per file.`);
    return { format: "csv", rows: rows.map(normaliseCsvRow) };
  }
  try {
    return { format: "json", data: JSON.parse(text.replace(/^\uFEFF/, "")) };
  } catch {
    throw new HttpError(400, "JSON non valido: controlla virgole e parentesi del file.");
  }
}

/** CSV headers in snake_case or camelCase ("subject_id", "subjectId") become camelCase; empty cells are absent. */
export function normaliseCsvRow(row: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(row)) {
    const camel = key.trim().replace(/[\s_]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
    const name = camel.charAt(0).toLowerCase() + camel.slice(1);
    if (typeof value === "string" && value.trim() !== "") out[name] = value.trim();
  }
  return out;
}

export const splitList = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split("|")
        .map((s) => s.trim())
        .filter(Boolean);

/** Validates every row; collects the failures (row numbers: CSV lines counting the header as 1, or JSON paths). */
export function validateRows<S extends z.ZodType>(
  rows: unknown[],
  schema: S,
  label: (i: number) => number | string,
): { ok: z.infer<S>[]; errors: RowError[] } {
  const ok: z.infer<S>[] = [];
  const errors: RowError[] = [];
  rows.forEach((row, i) => {
    const parsed = schema.safeParse(row);
    if (parsed.success) ok.push(parsed.data);
    else errors.push({ row: label(i), message: issueText(parsed.error) });
  });
  return { ok, errors };
}

export function jsonArray(data: unknown, key: string, what: string): unknown[] {
  const list = Array.isArray(data)
    ? data
    : data && typeof data === "object"
      ? (data as Record<string, unknown>)[key]
      : undefined;
  if (!Array.isArray(list))
    throw new HttpError(400, `Formato non valido: è atteso un array di ${what} oppure un oggetto { "${key}": [...] }.`);
  if (list.length > MAX_IMPORT_ROWS)
    throw new HttpError(413, `Troppe righe: il massimo è ${MAX_IMPORT_ROWS} per file.`);
  return list;
}

export function optionalArray(data: unknown, key: string): unknown[] {
  if (!data || typeof data !== "object" || Array.isArray(data)) return [];
  const list = (data as Record<string, unknown>)[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new HttpError(400, `Formato non valido: "${key}" deve essere un array.`);
  return list;
}

// --- Writing ---

// drizzle's D1 batch cannot run `db.run(sql)` with bound parameters (SQLiteRaw has no prepared
// statement), so imports build D1 statements themselves and batch them on the D1 binding.
export type Statement = D1PreparedStatement;
export const dialect = new SQLiteAsyncDialect();
// drizzle() keeps the D1 binding as $client (the shared Db type does not spell it out).
export const d1 = (db: Db) => (db as Db & { $client: D1Database }).$client;

export function stmt(db: Db, query: SQL): Statement {
  const built = dialect.sqlToQuery(query);
  return d1(db)
    .prepare(built.sql)
    .bind(...built.params);
}

export function chunks<T>(rows: T[]): T[][] {
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
export function jsonStatements<T>(db: Db, rows: T[], build: (json: SQL) => SQL): Statement[] {
  return chunks(rows).map((chunk) => stmt(db, build(sql`${JSON.stringify(chunk)}`)));
}

export async function runBatch(db: Db, statements: Statement[]) {
  if (!statements.length) return;
  try {
    await d1(db).batch(statements);
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    console.error("Import batch failed", message);
    if (/UNIQUE|constraint/i.test(message)) {
      throw new HttpError(
        409,
        "Importazione annullata: un valore univoco (id, email o username) è già in uso. Nessun dato è stato scritto.",
      );
    }
    throw new HttpError(500, "Importazione annullata per un errore del database. Nessun dato è stato scritto.");
  }
}

export const rebuildStatements = (db: Db) => REBUILD_AGGREGATES_SQL.map((s) => stmt(db, sql.raw(s)));

export async function ids(
  db: Db,
  table: "subjects" | "topics" | "questions" | "users" | "attempts",
): Promise<Set<number>> {
  const rows = await db.all<{ id: number }>(sql.raw(`SELECT id FROM ${table}`));
  return new Set(rows.map((r) => r.id));
}

export async function maxId(db: Db, table: string): Promise<number> {
  const row = await db.get<{ m: number | null }>(sql.raw(`SELECT max(id) AS m FROM ${table}`));
  return row?.m ?? 0;
}

// --- Schemas (shared by JSON and CSV rows) ---

export const int = (label: string) =>
  z.coerce.number(`${label}: è atteso un numero`).int(`${label}: è atteso un numero intero`);
export const posId = (label: string) => int(label).positive(`${label}: deve essere un numero positivo`);
export const when = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(n) || n < Date.UTC(2000, 0, 1) || n > Date.UTC(2100, 0, 1)) {
    ctx.addIssue({ code: "custom", message: `data non valida "${v}" (usa ISO 8601, es. 2025-09-01T10:00:00Z)` });
    return z.NEVER;
  }
  return n;
});

export function audit(db: Db, actor: AuditActor, action: AuditAction, details: Record<string, unknown>) {
  const built = auditEntry(db, actor, action, { type: "database" }, details).toSQL();
  return d1(db)
    .prepare(built.sql)
    .bind(...built.params);
}

export const jsonLabel = (key: string) => (i: number) => `${key}[${i}]`;
export const csvLabel = (i: number) => i + 2;
