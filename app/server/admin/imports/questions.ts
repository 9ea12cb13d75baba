// Question rows: the schema (JSON and CSV), checks against subjects/topics and the bank rules, the inserts.
import { checkBank, type BankFile, type BankQuestion } from "~/lib/bank-rules";
import { listEditions } from "../../editions.server";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.server";
import { type RowError, splitList, type Statement, jsonStatements, ids, int, posId } from "./common";

export const questionRowSchema = z
  .object({
    id: posId("id").optional(),
    subjectId: posId("subjectId"),
    topicId: posId("topicId").optional().nullable(),
    type: z.enum(["mc", "gap"], 'tipo non valido: usa "mc" (scelta multipla) o "gap" (completamento)'),
    stem: z
      .string("testo della domanda mancante")
      .trim()
      .min(1, "testo della domanda mancante")
      .max(4000, "testo troppo lungo (massimo 4000 caratteri)"),
    options: z
      .array(
        z.string().trim().min(1, "opzione vuota").max(500, "opzione troppo lunga"),
        "le opzioni devono essere un elenco",
      )
      .optional(),
    correct: int("correct").min(0, "correct: indice da 0").max(9, "correct: indice fino a 9").optional(),
    accepted: z
      .array(
        z.string().trim().min(1, "risposta accettata vuota").max(50, "risposta accettata troppo lunga"),
        "accepted deve essere un elenco",
      )
      .optional(),
    explanation: z.string().max(4000, "spiegazione troppo lunga").optional().default(""),
    difficulty: int("difficulty").min(1, "difficoltà da 1 a 5").max(5, "difficoltà da 1 a 5").optional().default(3),
    /** Syllabus unit (number within the subject): required for Biologia, Chimica, Fisica unless legacy. */
    unit: posId("unit").optional().nullable(),
    legacy: z
      .union([z.boolean(), z.enum(["true", "false", "1", "0", "si", "sì", "no"])], "legacy: usa true o false")
      .transform((v) => v === true || v === "true" || v === "1" || v === "si" || v === "sì")
      .optional(),
    measure: z
      .string()
      .trim()
      .min(1, "unità di misura vuota")
      .max(20, "unità di misura troppo lunga")
      .optional()
      .nullable(),
    tolerance: z.coerce
      .number("tolleranza: è atteso un numero")
      .min(0, "la tolleranza non può essere negativa")
      .optional()
      .nullable(),
  })
  .superRefine((q, ctx) => {
    if (q.type === "mc") {
      const n = q.options?.length ?? 0;
      if (n < 2)
        ctx.addIssue({ code: "custom", path: ["options"], message: "una domanda mc richiede almeno 2 opzioni" });
      if (n > 10) ctx.addIssue({ code: "custom", path: ["options"], message: "al massimo 10 opzioni" });
      if (q.options && new Set(q.options.map((o) => o.toLowerCase())).size !== n)
        ctx.addIssue({ code: "custom", path: ["options"], message: "opzioni ripetute" });
      if ((q.correct ?? 0) >= n && n >= 2)
        ctx.addIssue({
          code: "custom",
          path: ["correct"],
          message: `l'indice della risposta corretta (${q.correct}) non corrisponde a nessuna opzione`,
        });
    } else if (!q.accepted?.length) {
      ctx.addIssue({
        code: "custom",
        path: ["accepted"],
        message: "una domanda gap richiede almeno una risposta accettata",
      });
    }
  });
export type QuestionRow = z.infer<typeof questionRowSchema>;

export const LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
/** CSV: option_a … option_e (or a … e), correct as a letter A-E, accepted separated by "|". */
export function questionFromCsv(r: Record<string, string>): Record<string, unknown> {
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

// --- Shared pieces: checks against the database, and the insert statements ---

export type Refs = { subjects: Set<number>; topics: Map<number, number>; questions: Set<number> };

export async function loadRefs(db: Db): Promise<Refs> {
  const topicRows = await db.all<{ id: number; subject_id: number }>(sql`SELECT id, subject_id FROM topics`);
  return {
    subjects: await ids(db, "subjects"),
    topics: new Map(topicRows.map((t) => [t.id, t.subject_id])),
    questions: await ids(db, "questions"),
  };
}

export function checkQuestions(rows: QuestionRow[], refs: Refs, label: (i: number) => number | string): RowError[] {
  const errors: RowError[] = [];
  const seen = new Set<number>();
  rows.forEach((q, i) => {
    if (!refs.subjects.has(q.subjectId))
      errors.push({ row: label(i), message: `materia ${q.subjectId} inesistente (importa prima materie e argomenti)` });
    else if (q.topicId != null && refs.topics.get(q.topicId) !== q.subjectId) {
      errors.push({
        row: label(i),
        message: refs.topics.has(q.topicId)
          ? `l'argomento ${q.topicId} non appartiene alla materia ${q.subjectId}`
          : `argomento ${q.topicId} inesistente`,
      });
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
 * A rule of style (STYLE_RULES: an article before the blank) is only a warning: the ministry's papers break it.
 */
export async function bankRuleIssues(
  db: Db,
  rows: QuestionRow[],
  label: (i: number) => number | string,
): Promise<{ errors: RowError[]; warnings: RowError[] }> {
  const [subjectRows, unitRows, topicRows, questionRows] = await Promise.all([
    db.all<{ id: number; name: string }>(sql`SELECT id, name FROM subjects`),
    db.all<{ subject_id: number; number: number; title: string; credits: number }>(
      sql`SELECT subject_id, number, title, credits FROM units`,
    ),
    db.all<{
      id: number;
      subject_id: number;
      parent_id: number | null;
      name: string;
      unit: number | null;
      legacy: number;
    }>(sql`SELECT id, subject_id, parent_id, name, unit, legacy FROM topics`),
    db.all<{
      id: number;
      subject_id: number;
      topic_id: number | null;
      type: "mc" | "gap";
      stem: string;
      options: string | null;
      correct_index: number | null;
      accepted_answers: string | null;
      explanation: string;
      difficulty: number;
      unit: number | null;
      legacy: number;
      measure: string | null;
      tolerance: number | null;
    }>(sql`SELECT id, subject_id, topic_id, type, stem, options, correct_index, accepted_answers, explanation, difficulty, unit, legacy, measure, tolerance
           FROM questions WHERE active = 1`),
  ]);
  const current = new Map<number, { subjectId: number; q: BankQuestion }>(
    questionRows.map((r) => [
      r.id,
      {
        subjectId: r.subject_id,
        q: {
          id: r.id,
          topic: r.topic_id,
          type: r.type,
          stem: r.stem,
          options: r.options ? (JSON.parse(r.options) as string[]) : null,
          correct: r.correct_index,
          accepted: r.accepted_answers ? (JSON.parse(r.accepted_answers) as string[]) : null,
          explanation: r.explanation,
          difficulty: r.difficulty,
          unit: r.unit,
          legacy: r.legacy === 1,
          measure: r.measure,
          tolerance: r.tolerance,
        },
      },
    ]),
  );
  const bankOf = (questions: Map<number, { subjectId: number; q: BankQuestion }>): BankFile[] =>
    subjectRows.map((s) => ({
      subject: { id: s.id, name: s.name },
      units: unitRows
        .filter((u) => u.subject_id === s.id)
        .map((u) => ({ number: u.number, title: u.title, credits: u.credits })),
      topics: topicRows
        .filter((t) => t.subject_id === s.id)
        .map((t) => ({ id: t.id, name: t.name, parent: t.parent_id, unit: t.unit, legacy: t.legacy === 1 })),
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
        id,
        topic: r.topicId ?? null,
        type: r.type,
        stem: r.stem,
        options: r.type === "mc" ? (r.options ?? null) : null,
        correct: r.type === "mc" ? (r.correct ?? 0) : null,
        accepted: r.type === "gap" ? (r.accepted ?? null) : null,
        explanation: r.explanation,
        difficulty: r.difficulty,
        unit: r.legacy ? null : (r.unit ?? null),
        legacy: r.legacy === true,
        measure: r.type === "gap" ? (r.measure ?? null) : null,
        tolerance: r.type === "gap" ? (r.tolerance ?? null) : null,
      },
    });
  });
  // Keys must fit the sheet's boxes of every edition (issue 29), 16 when there is none.
  const boxes = (await listEditions(db)).map((e) => e.format.gapBoxes);
  const options = boxes.length ? { gapBoxes: Math.min(...boxes) } : {};
  const before = new Set(checkBank(bankOf(current), options).map((i) => i.key));
  const errors: RowError[] = [];
  const warnings: RowError[] = [];
  for (const issue of checkBank(bankOf(merged), options)) {
    const row = issue.questionId !== undefined ? labelOf.get(issue.questionId) : undefined;
    if (row !== undefined) (issue.style ? warnings : errors).push({ row, message: issue.message });
    else if (!before.has(issue.key)) errors.push({ row: "banca", message: `dopo l'importazione: ${issue.message}` });
  }
  return { errors, warnings };
}

export function questionStatements(db: Db, rows: QuestionRow[], now: number): Statement[] {
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
    (
      json,
    ) => sql`INSERT INTO questions (id, subject_id, topic_id, type, stem, options, correct_index, accepted_answers, explanation, difficulty, unit, legacy, measure, tolerance, active, created_at, updated_at)
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
