// Exam editions (issue 29): read once per isolate and version, written by the console's Edizioni tab.
// Every consumer (practice draws, the simulation template, the dashboard, the forecast) asks here, never a
// constant: an admin's correction reaches the next draw without a deploy.
import { asc, eq, sql } from "drizzle-orm";
import type { EditionInput, ExamEdition } from "~/lib/edition";
import { editionFormatSchema } from "~/lib/edition-schema";
import { auditEntry } from "./audit.server";
import type { Db } from "./db/client.server";
import { examEditions } from "./db/schema";
import { HttpError } from "./errors.server";
import type { SessionUser } from "./session.server";

export const EDITION_ERRORS = {
  notFound: "Edizione dell'esame non trovata.",
  noDefault: "Nessuna edizione dell'esame predefinita: impostane una nella console (Edizioni).",
  duplicateYear: "Esiste già un'edizione per questo anno accademico.",
} as const;

/** The isolate's copy: the editions as parsed, and the stamp (ids and versions) they were read at. */
let cache: { stamp: string; editions: ExamEdition[] } | null = null;

/** Every edition, newest academic year first. One small read (ids and versions); the rows only when they changed. */
export async function listEditions(db: Db): Promise<ExamEdition[]> {
  // A fresh isolate reads the rows at once (the stamp is theirs): one round trip, not the stamp and then the rows.
  if (cache) {
    const stampRow = await db.get<{ stamp: string | null }>(
      sql`SELECT group_concat(id || ':' || version || ':' || is_default) AS stamp FROM (SELECT id, version, is_default FROM exam_editions ORDER BY id)`,
    );
    if (cache.stamp === (stampRow?.stamp ?? "")) return cache.editions;
  }
  const rows = await db.select().from(examEditions).orderBy(asc(examEditions.academicYear)).all();
  // The same text as the SQL's group_concat above, for the rows just read.
  const stamp = [...rows]
    .sort((a, b) => a.id - b.id)
    .map((r) => `${r.id}:${r.version}:${r.isDefault ? 1 : 0}`)
    .join(",");
  const editions = editionsFromRows(rows);
  cache = { stamp, editions };
  return editions;
}

/** The editions of rows read in academic-year order, parsed, newest first (an invalid format is logged and left out). */
export function editionsFromRows(rows: (typeof examEditions.$inferSelect)[]): ExamEdition[] {
  return rows
    .map((row): ExamEdition | null => {
      const format = editionFormatSchema.safeParse(row.format);
      if (!format.success) {
        console.error(`exam edition ${row.id} has an invalid format`, format.error.issues);
        return null;
      }
      return {
        id: row.id,
        academicYear: row.academicYear,
        label: row.label,
        status: row.status,
        source: row.source,
        isDefault: row.isDefault,
        format: format.data,
        version: row.version,
        updatedAt: row.updatedAt.getTime(),
      };
    })
    .filter((e): e is ExamEdition => e !== null)
    .reverse();
}

/**
 * The default edition's id in SQL (a subquery), for reads that run beside the edition's own: the same choice as
 * pickDefaultEdition (the one marked default, else the newest).
 */
export const DEFAULT_EDITION_ID_SQL = sql`SELECT id FROM exam_editions ORDER BY is_default DESC, academic_year DESC, id DESC LIMIT 1`;

/** The default edition among editions listed newest first: the one marked default, else the newest. */
export function pickDefaultEdition(editions: ExamEdition[]): ExamEdition | undefined {
  return editions.find((e) => e.isDefault) ?? editions[0];
}

/** The default edition (what practice and templates follow), or a 409 that says how to fix it. */
export async function defaultEdition(db: Db): Promise<ExamEdition> {
  const found = pickDefaultEdition(await listEditions(db));
  if (!found) throw new HttpError(409, EDITION_ERRORS.noDefault);
  return found;
}

/** The edition asked for (`?edition=<id>`), or the default one when none is asked for. */
export async function editionOrDefault(db: Db, id: number | null | undefined): Promise<ExamEdition> {
  if (id == null) return defaultEdition(db);
  const found = (await listEditions(db)).find((e) => e.id === id);
  if (!found) throw new HttpError(404, EDITION_ERRORS.notFound);
  return found;
}

/** What anyone may read of the editions (GET /api/exam-editions): everything but who changed them. */
export function publicEdition(e: ExamEdition) {
  return {
    id: e.id,
    academicYear: e.academicYear,
    label: e.label,
    status: e.status,
    source: e.source,
    isDefault: e.isDefault,
    format: e.format,
    updatedAt: e.updatedAt,
  };
}

/** An admin's correction of an edition (the whole shape, checked by editionInputSchema), audited. */
export async function updateEdition(db: Db, actor: SessionUser, id: number, input: EditionInput): Promise<ExamEdition> {
  const before = (await listEditions(db)).find((e) => e.id === id);
  if (!before) throw new HttpError(404, EDITION_ERRORS.notFound);
  const clash = await db.get<{ id: number }>(
    sql`SELECT id FROM exam_editions WHERE academic_year = ${input.academicYear} AND id <> ${id}`,
  );
  if (clash) throw new HttpError(409, EDITION_ERRORS.duplicateYear);
  await db.batch([
    db
      .update(examEditions)
      .set({
        academicYear: input.academicYear,
        label: input.label,
        status: input.status,
        source: input.source ?? null,
        format: input.format,
        version: sql`${examEditions.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(examEditions.id, id)),
    auditEntry(
      db,
      actor,
      "edition.update",
      { type: "exam_edition", id },
      {
        academicYear: input.academicYear,
        before: {
          status: before.status,
          subjects: before.format.subjects,
          breakMin: before.format.breakMin,
          gapBoxes: before.format.gapBoxes,
        },
        after: {
          status: input.status,
          subjects: input.format.subjects,
          breakMin: input.format.breakMin,
          gapBoxes: input.format.gapBoxes,
        },
      },
    ),
  ]);
  return editionOrDefault(db, id);
}

/** Makes one edition the default (and no other), audited. */
export async function setDefaultEdition(db: Db, actor: SessionUser, id: number): Promise<void> {
  const target = (await listEditions(db)).find((e) => e.id === id);
  if (!target) throw new HttpError(404, EDITION_ERRORS.notFound);
  await db.batch([
    db
      .update(examEditions)
      .set({ isDefault: false, version: sql`${examEditions.version} + 1` })
      .where(eq(examEditions.isDefault, true)),
    db
      .update(examEditions)
      .set({ isDefault: true, version: sql`${examEditions.version} + 1` })
      .where(eq(examEditions.id, id)),
    auditEntry(db, actor, "edition.default", { type: "exam_edition", id }, { academicYear: target.academicYear }),
  ]);
}
