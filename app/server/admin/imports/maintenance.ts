// Regrading, the aggregate rebuild and the database reset.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { summaryScore } from "~/lib/scoring";
import type { AuditActor } from "../../audit.server";
import type { Db } from "../../db/client.server";
import { HttpError, withLabels } from "../../errors.server";
import { rebuildLearningMemory } from "../../learning.server";
import { stmt, chunks, jsonStatements, runBatch, rebuildStatements, audit } from "./common";
import { gradeAnswer, questionKeys } from "./attempts";

/** POST /api/admin/reprocess-attempt-answers: regrades every stored answer against the current keys. */
export async function reprocessAttemptAnswers(db: Db, actor: AuditActor) {
  const keys = await questionKeys(db);
  const answers = await db.all<{
    id: number;
    attempt_id: number;
    question_id: number;
    option_id: number | null;
    answer_text: string | null;
    correct: number | null;
  }>(sql`SELECT id, attempt_id, question_id, option_id, answer_text, correct FROM attempt_answers`);
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
      (
        json,
      ) => sql`UPDATE attempts SET correct = j.c, wrong = j.w, blank = j.b, score = CASE WHEN attempts.status = 'completed' THEN j.s ELSE attempts.score END
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
export const RESET_TABLES = [
  "question_memory",
  "stat_question_accuracy",
  "rush_progress",
  "rush_events",
  // Before their plans: a started simulation's subjects and questions cannot be deleted on their own (a trigger,
  // issue 44); with the simulation gone, the cascade removes them.
  "simulations",
  "simulation_attempts",
  "simulation_allowed_users",
  "simulation_allowed_classes",
  "simulation_questions",
  "simulation_subjects",
  "assignment_quizzes",
  "assignment_questions",
  "assignments",
  "class_members",
  "class_invitations",
  "classes",
  "reports",
  "attempt_answers",
  "attempts",
  "quiz_questions",
  "quizzes",
  "friendships",
  "stat_score_histogram",
  "stat_topic_accuracy",
  "stat_daily_scores",
  "page_views",
  "consent_records",
  "login_events",
  "questions",
  "topics",
  "units",
  "subjects",
];

/**
 * POST /api/admin/reset-db: empties the bank and every activity table and removes every account except
 * the admin doing it (who stays signed in). Refused unless the server runs with ALLOW_DB_RESET=1.
 * The audit log is kept, with the reset recorded in it.
 */
// Declared in workers/env.d.ts, but the generated global Env does not pick that declaration up.
export type ResetEnv = Env & { ALLOW_DB_RESET?: string };

export function assertResetAllowed(env: Env) {
  if ((env as ResetEnv).ALLOW_DB_RESET !== "1") {
    throw new HttpError(
      403,
      "Reset del database disattivato su questo server: va abilitato con l'impostazione ALLOW_DB_RESET=1.",
    );
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
