// THE seal policy (issue 44, point 2): the one rule for when an account may see a question's key (correct option,
// accepted answers), explanation, verdict, per-question score and its own answer, with every source of a seal listed
// here and the checks that every path serving or grading questions calls.
//
// A question is SEALED
//   - while it belongs to a live simulation (started, not graded, until its stored seal_until: the latest
//     candidate's end, extra time included, plus the room's grace and a minute; app/lib/sitting-timeline.ts):
//       · one an admin created (a national sitting): for every account, in its audience or not;
//       · a teacher's: for its audience (its listed users and the members of its classes, read now, and whoever has a
//         seat in it: leaving the class mid-sitting does not lift the seal for a candidate still in the room). A class mock is
//         not a national sitting: sealing every account's practice for each of a thousand classes' mocks would empty
//         the bank on a school morning, so a teacher's seals only for those who can sit it (at most two at once, with
//         short breaks: policy.server.ts);
//       · a student's day alone (issue 46, solo.server.ts): for its candidate only, its audience of one (as a class mock);
//   - for one user while it belongs to a Quiz Rush quiz they have claimed and not submitted (still open);
//   - for one pupil while it belongs to the common set of a "comune" assignment of a class they are a member of,
//     not yet due, that they have not submitted; and while it belongs to their own open assignment quiz (either
//     mode: a Test mirato is drawn at start) until they submit it or it expires;
//   - for one user while it belongs to a quiz they downloaded for offline use (issue 47) until submitted or expired.
// While sealed, no new quiz draws it, a redo of it is refused, and wherever a past attempt holds it its
// key, explanation, verdict, score and the student's own answer are withheld; the attempt's totals are
// counted without it (visibleTotals), so they cannot be subtracted to find the verdict. Outside the seal a
// key and explanation reach a user only in the summary of a submitted attempt the server served them.
// Staff keep their own view through the console (GET /api/admin/questions/{id}), which never comes here.
//
// Every question path in app/routes.ts is walked by test/integration/sealed-questions.test.ts.
import { sql, type SQL } from "drizzle-orm";
import { MAX_QUESTIONS } from "~/lib/constants";
import { assignmentOnTimeSql } from "~/lib/assignments";
import { attemptDeadlineSql } from "~/lib/timer";
import type { Db } from "../db/client.server";
import { HttpError } from "../errors.server";

export const SEALED_TEXT = {
  redoNotAnswered: "Puoi ripetere solo domande a cui hai già risposto.",
  redoSealed:
    "Questa domanda fa parte di una simulazione in corso, di un Quiz Rush, di un compito o di un quiz scaricato per l'offline che non hai ancora consegnato: potrai ripeterla quando saranno conclusi.",
  gradeNotServed: "Puoi consegnare solo le domande di un tuo quiz in corso: avvia il quiz e consegnalo da lì.",
  submitSealed:
    "Questo quiz contiene domande di una simulazione in corso, di un Quiz Rush, di un compito o di un quiz scaricato per l'offline che non hai ancora consegnato: potrai consegnarlo quando saranno conclusi.",
} as const;

/** An attempt's drawn quiz is still open: the same deadline as attemptDeadline() / abandonExpiredStatement. */
export function openAttemptSql(attempt: string, quiz: string, now: number): SQL {
  const deadline = attemptDeadlineSql(`${attempt}.started_at`, `${quiz}.time_limit_sec`, `${attempt}.offline`);
  return sql.raw(`${attempt}.status = 'in_progress' AND ${deadline} >= ${Math.floor(now)}`);
}

/**
 * A submitted attempt whose questions the server chose: a drawn quiz, or history written on the server (seed, admin
 * import). Attempts of the old open POST /api/grade (no quiz, client-chosen ids, with an idempotency key) do not
 * count: they are how keys used to leak.
 */
export function servedAttemptSql(attempt: string): SQL {
  return sql.raw(
    `${attempt}.status = 'completed' AND (${attempt}.quiz_id IS NOT NULL OR ${attempt}.idempotency_key IS NULL)`,
  );
}

/** The same test as servedAttemptSql, on a row already read. */
export function servedAttempt(attempt: { status: string; quizId: number | null; idempotencyKey: string | null }) {
  return attempt.status === "completed" && (attempt.quizId != null || attempt.idempotencyKey == null);
}

/**
 * The questions of the live simulations that seal them for `userId` (an admin's for everybody, a teacher's for its
 * audience), until each one's stored seal_until. Without a user: every live simulation's, whoever it seals for (a view
 * across many users, such as a class's progress, hides them all).
 */
export function liveSimulationQuestionIdsSql(now: number, userId?: number): SQL {
  const forWhom =
    userId === undefined
      ? sql``
      : sql` AND (s.seal_scope = 'all'
          OR EXISTS (SELECT 1 FROM simulation_allowed_users au WHERE au.simulation_id = s.id AND au.user_id = ${userId})
          OR EXISTS (SELECT 1 FROM simulation_seats se WHERE se.simulation_id = s.id AND se.user_id = ${userId})
          OR EXISTS (SELECT 1 FROM class_members cm
            JOIN simulation_allowed_classes ac ON ac.class_id = cm.class_id AND ac.simulation_id = s.id
            WHERE cm.user_id = ${userId}))`;
  return sql`SELECT sq.question_id FROM simulation_questions sq
      JOIN simulations s ON s.id = sq.simulation_id
      WHERE s.started = 1 AND s.graded_at IS NULL AND ${now} <= s.seal_until${forWhom}`;
}

/** The questions of the user's open Rush or downloaded quizzes (but `exceptQuizId`, so it can still be submitted). */
function openOwnQuestionIdsSql(kind: "rush" | "offline", userId: number, now: number, exceptQuizId?: number): SQL {
  const which = kind === "rush" ? sql`q.rush_event_id IS NOT NULL` : sql`a.offline = 1`;
  return sql`SELECT qq.question_id FROM quizzes q
      JOIN attempts a ON a.quiz_id = q.id
      JOIN quiz_questions qq ON qq.quiz_id = q.id
      WHERE q.user_id = ${userId} AND ${which} AND q.id <> ${exceptQuizId ?? 0}
        AND ${openAttemptSql("a", "q", now)}`;
}

/**
 * The questions of the user's assignments (issue 44): the common set of each "comune" assignment of a class they are
 * a member of, until it is due (assignmentOnTimeSql: while a submission would still be on time) unless they have
 * submitted it; and the questions of their own open assignment quiz (either mode) until they submit it or it expires
 * (openAttemptSql, as Rush). When `exceptQuizId` is one of the user's assignment quizzes, its questions are left out
 * (so that quiz can be submitted, even where another assignment's set holds one of them: a teacher who sets a question
 * twice repeats it, nothing leaks).
 */
function assignmentQuestionIdsSql(userId: number, now: number, exceptQuizId?: number): SQL {
  return sql`SELECT question_id FROM (
      SELECT aq.question_id FROM class_members cm
        JOIN assignments a ON a.class_id = cm.class_id AND a.mode = 'comune'
        JOIN assignment_questions aq ON aq.assignment_id = a.id
      WHERE cm.user_id = ${userId} AND ${sql.raw(assignmentOnTimeSql(String(Math.floor(now)), "a.due_at"))}
        AND NOT EXISTS (SELECT 1 FROM assignment_quizzes l JOIN attempts t ON t.quiz_id = l.quiz_id
          WHERE l.assignment_id = a.id AND l.user_id = ${userId} AND t.status = 'completed')
      UNION
      SELECT qq.question_id FROM quizzes q
        JOIN assignment_quizzes l ON l.quiz_id = q.id
        JOIN attempts t ON t.quiz_id = q.id
        JOIN quiz_questions qq ON qq.quiz_id = q.id
      WHERE q.user_id = ${userId} AND ${openAttemptSql("t", "q", now)})
    WHERE question_id NOT IN (SELECT qq.question_id FROM quiz_questions qq
      JOIN assignment_quizzes l ON l.quiz_id = qq.quiz_id
      WHERE qq.quiz_id = ${exceptQuizId ?? 0} AND l.user_id = ${userId})`;
}

/**
 * The ids of the questions sealed for `userId` at `now`, as a subquery (usable in NOT IN / IN without
 * binding a long list). `exceptQuizId` leaves out the seal a Rush or assignment quiz puts on its own
 * questions, so that quiz can still be submitted.
 */
export function sealedQuestionIdsSql(userId: number, now: number, exceptQuizId?: number): SQL {
  return sql`${liveSimulationQuestionIdsSql(now, userId)} UNION ${openOwnQuestionIdsSql("rush", userId, now, exceptQuizId)}
    UNION ${assignmentQuestionIdsSql(userId, now, exceptQuizId)}
    UNION ${openOwnQuestionIdsSql("offline", userId, now, exceptQuizId)}`;
}

/** What seals a question: a live simulation (for its audience or all), the user's open Rush quiz, assignment or download. */
export type SealReason = "simulation" | "rush" | "assignment" | "offline";

/** Which reason a question sealed twice shows: in this order. */
const SEAL_PRECEDENCE: Record<SealReason, number> = { simulation: 0, rush: 1, assignment: 2, offline: 3 };

function stronger(a: SealReason | null | undefined, b: SealReason): SealReason {
  return a != null && SEAL_PRECEDENCE[a] <= SEAL_PRECEDENCE[b] ? a : b;
}

/** The questions sealed for one user now, each with what seals it (SEAL_PRECEDENCE when two do). */
export type Seal = ReadonlyMap<number, SealReason>;

/** The seal of this user now (see the rule at the top of this module). */
export async function readSeal(db: Db, userId: number, now = Date.now(), exceptQuizId?: number): Promise<Seal> {
  const rows = await db.all<{ question_id: number; reason: SealReason }>(sql`
    SELECT question_id, 'simulation' AS reason FROM (${liveSimulationQuestionIdsSql(now, userId)})
    UNION ALL
    SELECT question_id, 'rush' AS reason FROM (${openOwnQuestionIdsSql("rush", userId, now, exceptQuizId)})
    UNION ALL
    SELECT question_id, 'assignment' AS reason FROM (${assignmentQuestionIdsSql(userId, now, exceptQuizId)})
    UNION ALL
    SELECT question_id, 'offline' AS reason FROM (${openOwnQuestionIdsSql("offline", userId, now, exceptQuizId)})`);
  const seal = new Map<number, SealReason>();
  for (const r of rows) seal.set(r.question_id, stronger(seal.get(r.question_id), r.reason));
  return seal;
}

/** Where a question would be shown next to its answer: whether the server served it in that attempt, and the seal. */
export type KeyView = { served: boolean; seal: Seal };

export type KeyAccess = {
  /** The key, explanation, verdict and per-question score. */
  keys: boolean;
  /** The student's own answer. */
  ownAnswer: boolean;
  /** Why they are withheld, when the question is sealed. */
  sealedBy: SealReason | null;
};

/**
 * THE rule, asked by every path that shows a question or a verdict next to a student's answer (summaries,
 * the export, reports, totals): keys only in a served attempt, and nothing of a sealed question, not even
 * the student's own answer (with the verdict hidden, the answer plus the totals would give the key away).
 */
export function canSeeKeys(view: KeyView, questionId: number): KeyAccess {
  const sealedBy = view.seal.get(questionId) ?? null;
  return { keys: view.served && sealedBy == null, ownAnswer: sealedBy == null, sealedBy };
}

export type Totals = { total: number; correct: number; wrong: number; blank: number };

/** An attempt's totals as they may be shown, and how many of its questions they leave out (and why). */
export type VisibleTotals = Totals & { hidden: number; partial: SealReason | null };

/**
 * The totals an attempt may show: its stored totals less the answers to sealed questions, i.e. what the
 * same attempt without those questions would show. Nothing in them depends on a hidden verdict, so they
 * cannot be subtracted from to find one. `answers` may be all of the attempt's answers or only the sealed ones.
 */
export function visibleTotals(
  stored: Totals,
  answers: readonly { questionId: number; correct: boolean | null }[],
  seal: Seal,
): VisibleTotals {
  const { total, correct, wrong, blank } = stored;
  const out: VisibleTotals = { total, correct, wrong, blank, hidden: 0, partial: null };
  for (const answer of answers) {
    const { sealedBy } = canSeeKeys({ served: true, seal }, answer.questionId);
    if (!sealedBy) continue;
    out.hidden++;
    out.total--;
    if (answer.correct === true) out.correct--;
    else if (answer.correct === false) out.wrong--;
    else out.blank--;
    out.partial = stronger(out.partial, sealedBy);
  }
  // Stored totals written by hand (imports) may not match the answers: never below zero.
  for (const key of ["total", "correct", "wrong", "blank"] as const) out[key] = Math.max(0, out[key]);
  return out;
}

export type SealedAnswer = { attemptId: number; questionId: number; topicId: number | null; correct: boolean | null };

/** The seal of this user now and their completed answers to sealed questions (for totals over many attempts). */
export async function readSealedHistory(
  db: Db,
  userId: number,
  now = Date.now(),
): Promise<{ seal: Seal; answers: SealedAnswer[] }> {
  const [seal, rows] = await Promise.all([
    readSeal(db, userId, now),
    db.all<{ attempt_id: number; question_id: number; topic_id: number | null; correct: number | null }>(sql`
      SELECT aa.attempt_id, aa.question_id, q.topic_id, aa.correct
      FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id JOIN questions q ON q.id = aa.question_id
      WHERE a.user_id = ${userId} AND a.status = 'completed'
        AND aa.question_id IN (${sealedQuestionIdsSql(userId, now)})`),
  ]);
  // Read apart, the seal may have moved between the two queries: keep only answers it covers.
  const answers = rows
    .filter((r) => seal.has(r.question_id))
    .map((r) => ({
      attemptId: r.attempt_id,
      questionId: r.question_id,
      topicId: r.topic_id,
      correct: r.correct == null ? null : r.correct === 1,
    }));
  return { seal, answers };
}

/** The sealed answers grouped by attempt. */
export function byAttempt(answers: readonly SealedAnswer[]): Map<number, SealedAnswer[]> {
  const map = new Map<number, SealedAnswer[]>();
  for (const a of answers) map.set(a.attemptId, [...(map.get(a.attemptId) ?? []), a]);
  return map;
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
export function assertNoneSealed(questionIds: number[], sealed: Seal): void {
  if (questionIds.some((id) => sealed.has(id))) throw new HttpError(409, SEALED_TEXT.submitSealed);
}
