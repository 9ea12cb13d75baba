// The server's side of weighted draws (app/lib/draw.ts holds the logic): loads a subject's active
// questions and syllabus units, and draws a semestre filtro set (units by credits, exact mc/gap mix,
// never a legacy question) or an older-format set (plain random, legacy questions included).
// Practice (quiz.server.ts) and the admin's simulations (app/server/simulation/) both draw here.
import { and, asc, eq, type SQL } from "drizzle-orm";
import { drawQuestions, mixFor, type DrawCandidate, type DrawResult, type DrawUnit } from "~/lib/draw";
import type { Db } from "./db/client.server";
import type { ExamEdition } from "~/lib/edition";
import { questionEditionUnits, questions, units } from "./db/schema";

export type DrawPool = { candidates: DrawCandidate[]; units: (DrawUnit & { title: string })[] };

/**
 * A subject's active questions (id, type, unit, legacy) and its syllabus units. With an exam edition whose
 * syllabus covers the subject (issue 30), the units are the edition's and each question's unit is its unit in
 * that edition (question_edition_units): a question outside it (fuori programma) is not in the pool. A subject
 * the edition's bank rows do not cover yet falls back to the bank's own units.
 */
export async function loadDrawPool(
  db: Db,
  subjectId: number,
  exclude?: SQL,
  edition?: Pick<ExamEdition, "id" | "format"> | null,
): Promise<DrawPool> {
  const editionUnits = edition?.format.units.filter((u) => u.subjectId === subjectId) ?? [];
  if (edition && editionUnits.length) {
    const rows = await db
      .select({
        id: questions.id,
        type: questions.type,
        unit: questionEditionUnits.unit,
        legacy: questions.legacy,
      })
      .from(questions)
      .innerJoin(
        questionEditionUnits,
        and(eq(questionEditionUnits.questionId, questions.id), eq(questionEditionUnits.editionId, edition.id)),
      )
      .where(and(eq(questions.subjectId, subjectId), eq(questions.active, true), exclude))
      .all();
    if (rows.length) {
      return {
        candidates: rows,
        units: editionUnits.map((u) => ({ number: u.number, title: u.title, credits: u.credits })),
      };
    }
  }
  const [rows, unitRows] = await Promise.all([
    db
      .select({ id: questions.id, type: questions.type, unit: questions.unit, legacy: questions.legacy })
      .from(questions)
      .where(and(eq(questions.subjectId, subjectId), eq(questions.active, true), exclude))
      .all(),
    db
      .select({ number: units.number, title: units.title, credits: units.credits })
      .from(units)
      .where(eq(units.subjectId, subjectId))
      .orderBy(asc(units.number))
      .all(),
  ]);
  return { candidates: rows, units: unitRows };
}

export type SubjectDraw = DrawResult & { weighted: boolean };

/**
 * Draws `count` questions of a subject. A subject with syllabus units gets the semestre filtro draw:
 * units weighted by credits, the exam edition's mc/gap proportion (`split`: exactly 21 + 10 in 31 for
 * 2026/27, 15 + 16 for 2025/26; editions.server.ts), no legacy question.
 * A subject without units (Matematica, Ragionamento Logico: the older test) is drawn at random.
 * `mix` forces an exact split (the admin's template); `strictMix` refuses to make up a missing type.
 */
export async function drawForSubject(
  db: Db,
  subjectId: number,
  count: number,
  options: {
    mix?: { mc: number; gap: number };
    /** The edition's full-paper split of this subject, scaled to `count` (null: no edition examines it). */
    split?: { mc: number; gap: number } | null;
    strictMix?: boolean;
    random?: () => number;
    exclude?: SQL;
    /** The exam edition whose syllabus units weigh the draw (its units per question); the bank's own when absent. */
    edition?: Pick<ExamEdition, "id" | "format"> | null;
  } = {},
): Promise<SubjectDraw> {
  const pool = await loadDrawPool(db, subjectId, options.exclude, options.edition);
  const weighted = pool.units.length > 0;
  const mix = options.mix ?? (weighted && options.split ? mixFor(count, options.split) : undefined);
  const result = drawQuestions({
    candidates: pool.candidates,
    count,
    mix,
    units: pool.units,
    excludeLegacy: weighted,
    strictMix: options.strictMix,
    random: options.random,
  });
  return { ...result, weighted };
}

/** The admin's note about a draw whose units ran short (Italian), or null. */
export function shortfallNote(subjectName: string, draw: DrawResult): string | null {
  if (!draw.shortfalls.length) return null;
  const typeName = (t: string) => (t === "mc" ? "a scelta multipla" : t === "gap" ? "di completamento" : "");
  const parts = draw.shortfalls.map((s) => {
    const to = s.movedTo
      .map((m) => (m.unit == null ? `${m.count} senza unità` : `${m.count} all'unità ${m.unit}`))
      .join(", ");
    return (
      `unità ${s.unit}: mancano ${s.missing} domande ${typeName(s.type)}`.replace(/\s+$/, "") +
      (to ? ` (spostate: ${to})` : " (non recuperate)")
    );
  });
  return `${subjectName}: ${parts.join("; ")}.`;
}
