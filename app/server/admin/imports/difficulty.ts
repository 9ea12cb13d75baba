// POST /api/admin/import-difficulty: [{questionId, difficulty}] or a CSV.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AuditActor } from "../../audit.server";
import type { Db } from "../../db/client.server";
import {
  type RowError,
  rowsFailed,
  type ImportBody,
  validateRows,
  jsonArray,
  jsonStatements,
  runBatch,
  ids,
  int,
  posId,
  audit,
  jsonLabel,
  csvLabel,
} from "./common";

export const difficultyRow = z.object({
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
