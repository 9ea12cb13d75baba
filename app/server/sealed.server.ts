// Sealed questions: the one rule for when a user may see a question's key (correct option, accepted
// answers) and explanation, and the checks that every path serving or grading questions calls.
//
// The rule: a key and explanation reach a user only in the summary of a submitted attempt in which the
// server served that question to them, and never while the question is SEALED for them. A question is
// sealed for a user while it belongs to
//   - a live simulation they take part in (started, not yet graded), or
//   - a Quiz Rush quiz they have claimed and not submitted (still open).
// Staff keep their own view through the admin routes (GET /api/admin/questions/{id}).
//
// Every question path in app/routes.ts is walked by test/integration/sealed-questions.test.ts.
import { sql, type SQL } from "drizzle-orm";
import { MAX_QUESTIONS, SIMULATION_GRACE_MS } from "~/lib/constants";
import { attemptDeadlineSql } from "~/lib/timer";
import type { Db } from "./db/client.server";
import { HttpError } from "./errors.server";

export const SEALED_TEXT = {
  redoNotAnswered: "Puoi ripetere solo domande a cui hai già risposto.",
  redoSealed:
    "Questa domanda fa parte di una simulazione in corso o di un Quiz Rush che non hai ancora consegnato: potrai ripeterla quando saranno concluse.",
  gradeNotServed: "Puoi consegnare solo le domande di un tuo quiz in corso: avvia il quiz e consegnalo da lì.",
  submitSealed:
    "Questo quiz contiene domande di una simulazione in corso o di un Quiz Rush che non hai ancora consegnato: potrai consegnarlo quando saranno concluse.",
} as const;

/**
 * A simulation whose room never wrote its grades stops sealing a minute after its last subject (and
 * the break counted after it) has closed: from then on the room accepts no answer, so no key can help.
 */
const SIMULATION_SEAL_MARGIN_MS = 60_000;

/** An attempt's drawn quiz is still open: the same deadline as attemptDeadline() / abandonExpiredStatement. */
export function openAttemptSql(attempt: string, quiz: string, now: number): SQL {
  return sql.raw(
    `${attempt}.status = 'in_progress' AND ${attemptDeadlineSql(`${attempt}.started_at`, `${quiz}.time_limit_sec`)} >= ${Math.floor(now)}`,
  );
}

/**
 * A submitted attempt whose questions the server chose: a drawn quiz, or history written on the server
 * (seed, admin import). Attempts of the old open POST /api/grade (no quiz, client-chosen ids, with an
 * idempotency key) do not count: they are how keys used to leak.
 */
export function servedAttemptSql(attempt: string): SQL {
  return sql.raw(
    `${attempt}.status = 'completed' AND (${attempt}.quiz_id IS NOT NULL OR ${attempt}.idempotency_key IS NULL)`,
  );
}

/**
 * The ids of the questions sealed for `userId` at `now`, as a subquery (usable in NOT IN / IN without
 * binding a long list). `exceptQuizId` leaves out the seal a Rush quiz puts on its own questions, so that
 * quiz can still be submitted.
 */
export function sealedQuestionIdsSql(userId: number, now: number, exceptQuizId?: number): SQL {
  // "Takes part in": the simulation's audience (simulationAudience: its picked users ∪ the members of its classes).
  return sql`SELECT sq.question_id FROM simulation_questions sq
      JOIN simulations s ON s.id = sq.simulation_id
      WHERE s.started = 1 AND s.graded_at IS NULL
        AND (EXISTS (SELECT 1 FROM simulation_allowed_users su WHERE su.simulation_id = s.id AND su.user_id = ${userId})
          OR EXISTS (SELECT 1 FROM simulation_allowed_classes sc JOIN class_members cm ON cm.class_id = sc.class_id
                     WHERE sc.simulation_id = s.id AND cm.user_id = ${userId}))
        AND ${now} <= s.start_time + ${SIMULATION_GRACE_MS + SIMULATION_SEAL_MARGIN_MS}
          + 60000 * (SELECT COALESCE(SUM(ss.time_min + ss.break_after_min), 0) FROM simulation_subjects ss WHERE ss.simulation_id = s.id)
    UNION
    SELECT qq.question_id FROM quizzes q
      JOIN attempts a ON a.quiz_id = q.id
      JOIN quiz_questions qq ON qq.quiz_id = q.id
      WHERE q.user_id = ${userId} AND q.rush_event_id IS NOT NULL AND q.id <> ${exceptQuizId ?? 0}
        AND ${openAttemptSql("a", "q", now)}`;
}

/** The questions sealed for this user now (see the rule at the top of this module). */
export async function sealedQuestionIds(
  db: Db,
  userId: number,
  now = Date.now(),
  exceptQuizId?: number,
): Promise<Set<number>> {
  const rows = await db.all<{ question_id: number }>(sealedQuestionIdsSql(userId, now, exceptQuizId));
  return new Set(rows.map((r) => r.question_id));
}

/** Where a key would be shown: an attempt of the viewer's (or any, for an admin) and the viewer's seal. */
export type KeyContext = {
  attempt: { status: string; quizId: number | null; idempotencyKey: string | null };
  sealed: ReadonlySet<number>;
};

/** THE rule: may this viewer see this question's key and explanation in this attempt's summary? */
export function canSeeKeys(context: KeyContext, questionId: number): boolean {
  const { attempt } = context;
  const served = attempt.status === "completed" && (attempt.quizId != null || attempt.idempotencyKey == null);
  return served && !context.sealed.has(questionId);
}

/**
 * GET /api/quiz?ids= (redo): only questions of the user's own answered history (403), and none that is
 * sealed for them now (409), even if answered before. Nothing is written before this passes.
 */
export async function assertRedoAllowed(db: Db, userId: number, ids: number[], now = Date.now()): Promise<void> {
  const unique = [...new Set(ids)];
  const rows = await db.all<{ id: number; sealed: number }>(sql`
    SELECT aa.question_id AS id, aa.question_id IN (${sealedQuestionIdsSql(userId, now)}) AS sealed
    FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
    WHERE a.user_id = ${userId} AND ${servedAttemptSql("a")}
      AND aa.question_id IN (${sql.join(
        unique.map((id) => sql`${id}`),
        sql`, `,
      )})
    GROUP BY aa.question_id`);
  const answered = new Map(rows.map((r) => [r.id, r.sealed === 1]));
  if (unique.some((id) => !answered.has(id))) throw new HttpError(403, SEALED_TEXT.redoNotAnswered);
  if ([...answered.values()].some(Boolean)) throw new HttpError(409, SEALED_TEXT.redoSealed);
}

/**
 * POST /api/grade: the user's open quiz that served every one of these questions (the one whose
 * questions are exactly these first, then the newest), or a 409: grading is never open to ids the
 * server did not serve.
 */
export async function openQuizServing(
  db: Db,
  userId: number,
  questionIds: number[],
  now = Date.now(),
): Promise<number> {
  const unique = [...new Set(questionIds)];
  if (unique.length === 0 || unique.length > MAX_QUESTIONS) throw new HttpError(409, SEALED_TEXT.gradeNotServed);
  const row = await db.get<{ id: number }>(sql`
    SELECT q.id,
      (SELECT count(*) FROM quiz_questions all_q WHERE all_q.quiz_id = q.id) AS size
    FROM quizzes q JOIN attempts a ON a.quiz_id = q.id
    WHERE q.user_id = ${userId} AND ${openAttemptSql("a", "q", now)}
      AND (SELECT count(DISTINCT qq.question_id) FROM quiz_questions qq
           WHERE qq.quiz_id = q.id AND qq.question_id IN (${sql.join(
             unique.map((id) => sql`${id}`),
             sql`, `,
           )})) = ${unique.length}
    ORDER BY size = ${unique.length} DESC, q.id DESC
    LIMIT 1`);
  if (!row) throw new HttpError(409, SEALED_TEXT.gradeNotServed);
  return row.id;
}

/** A quiz holding a question sealed by something else (a simulation, another Rush quiz) cannot be submitted yet. */
export function assertNoneSealed(questionIds: number[], sealed: ReadonlySet<number>): void {
  if (questionIds.some((id) => sealed.has(id))) throw new HttpError(409, SEALED_TEXT.submitSealed);
}
