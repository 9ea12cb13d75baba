// Attempt rows: the schema, grading against the current keys, the attempt and answer inserts.
import { gapVerdict, normaliseGapAnswer } from "~/lib/gap-answer";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { summaryScore } from "~/lib/scoring";
import type { Db } from "../../db/client.server";
import { type RowError, jsonStatements, ids, maxId, int, posId, when } from "./common";
import type { UserIndex } from "./users";

export const answerSchema = z.object({
  questionId: posId("questionId"),
  optionId: int("optionId").min(0).nullable().optional(),
  answerText: z.string().max(50, "risposta troppo lunga").nullable().optional(),
  timeSec: int("timeSec").min(0).max(86_400).optional().default(0),
});

export const attemptRowSchema = z
  .object({
    email: z
      .email("email non valida")
      .transform((e) => e.toLowerCase())
      .optional(),
    userId: posId("userId").optional(),
    subjectId: posId("subjectId"),
    status: z
      .enum(["completed", "abandoned"], "stato non valido: usa completed o abandoned")
      .optional()
      .default("completed"),
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
    if (!a.email && !a.userId)
      ctx.addIssue({ code: "custom", path: ["email"], message: "indica l'utente (email o userId)" });
    if (!a.answers?.length) {
      if (a.total === undefined || a.correct === undefined) {
        ctx.addIssue({ code: "custom", path: ["total"], message: "servono answers oppure total e correct" });
      } else if (a.correct + (a.wrong ?? 0) + (a.blank ?? 0) > a.total) {
        ctx.addIssue({ code: "custom", path: ["correct"], message: "correct + wrong + blank supera total" });
      }
    }
  });
export type AttemptRow = z.infer<typeof attemptRowSchema>;

// --- Grading (imports and reprocessing) ---

export type Key = {
  type: "mc" | "gap";
  correctIndex: number | null;
  accepted: string[] | null;
  topicId: number | null;
  measure: string | null;
  tolerance: number | null;
};

/** true correct, false wrong, null blank. */
export function gradeAnswer(
  key: Key,
  optionId: number | null | undefined,
  answerText: string | null | undefined,
): boolean | null {
  if (key.type === "mc") {
    if (optionId === null || optionId === undefined) return null;
    return optionId === key.correctIndex;
  }
  // The same verdict as live grading (on the stored form; null for a blank).
  return gapVerdict(answerText, { accepted: key.accepted ?? [], measure: key.measure, tolerance: key.tolerance });
}

export async function questionKeys(db: Db): Promise<Map<number, Key>> {
  const rows = await db.all<{
    id: number;
    type: "mc" | "gap";
    correct_index: number | null;
    accepted_answers: string | null;
    topic_id: number | null;
    measure: string | null;
    tolerance: number | null;
  }>(sql`SELECT id, type, correct_index, accepted_answers, topic_id, measure, tolerance FROM questions`);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        type: r.type,
        correctIndex: r.correct_index,
        accepted: r.accepted_answers ? (JSON.parse(r.accepted_answers) as string[]) : null,
        topicId: r.topic_id,
        measure: r.measure,
        tolerance: r.tolerance,
      },
    ]),
  );
}

/** Resolves users and grades answers; returns the attempt and answer rows with their ids fixed in advance. */
export async function prepareAttempts(
  db: Db,
  rows: AttemptRow[],
  users: UserIndex,
  extraQuestionIds: Set<number>,
  label: (i: number) => number | string,
) {
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
      errors.push({
        row: label(i),
        message: a.email ? `nessun utente con email ${a.email}` : `utente ${a.userId} inesistente`,
      });
      return;
    }
    if (!subjects.has(a.subjectId)) {
      errors.push({ row: label(i), message: `materia ${a.subjectId} inesistente` });
      return;
    }
    const id = nextAttempt++;
    let { total, correct, wrong, blank } = {
      total: a.total ?? 0,
      correct: a.correct ?? 0,
      wrong: a.wrong ?? 0,
      blank: a.blank ?? 0,
    };
    let seconds = 0;
    if (a.answers?.length) {
      total = a.answers.length;
      correct = wrong = blank = 0;
      for (const [position, answer] of a.answers.entries()) {
        const key = keys.get(answer.questionId);
        if (!key) {
          errors.push({
            row: label(i),
            message: extraQuestionIds.has(answer.questionId)
              ? `la risposta ${position + 1} usa la domanda ${answer.questionId}, importata nello stesso file: importa prima le domande`
              : `la risposta ${position + 1} usa la domanda ${answer.questionId}, inesistente`,
          });
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
          // Stored as practice stores it: the form the verdict was given on.
          t: key.type === "gap" ? normaliseGapAnswer(answer.answerText ?? "") || null : null,
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
      (
        json,
      ) => sql`INSERT INTO attempts (id, user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score)
        SELECT json_extract(value, '$.id'), json_extract(value, '$.u'), json_extract(value, '$.s'), json_extract(value, '$.st'), json_extract(value, '$.sa'),
               json_extract(value, '$.fa'), json_extract(value, '$.tt'), json_extract(value, '$.to'), json_extract(value, '$.c'), json_extract(value, '$.w'),
               json_extract(value, '$.b'), json_extract(value, '$.sc')
        FROM json_each(${json})`,
    ),
    ...jsonStatements(
      db,
      answerData,
      (
        json,
      ) => sql`INSERT INTO attempt_answers (id, attempt_id, position, question_id, option_id, answer_text, correct, time_sec, answered_at)
        SELECT json_extract(value, '$.id'), json_extract(value, '$.a'), json_extract(value, '$.p'), json_extract(value, '$.q'), json_extract(value, '$.o'),
               json_extract(value, '$.t'), json_extract(value, '$.c'), json_extract(value, '$.s'), json_extract(value, '$.at')
        FROM json_each(${json})`,
    ),
  ];
  return { errors, count: attemptData.length, statements };
}

export function attemptFromCsv(r: Record<string, string>): Record<string, unknown> {
  return { ...r };
}
