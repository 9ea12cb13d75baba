// Practice quizzes: the subject/topic catalogue, drawing a quiz (random, redo, rush) and reading it back.
// A drawn quiz is stored (quizzes + quiz_questions) together with its attempt row 'in_progress', so
// the submission is graded against what was drawn and a never-submitted quiz can become 'abandoned'.
// Questions leave the server WITHOUT the correct option, accepted answers or explanation.
import { extendedSeconds } from "~/lib/simulation-day";
import { practiceExtraPct } from "./accommodations.server";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { DEFAULT_DIFFICULTY, MAX_QUESTIONS } from "~/lib/constants";
import type { NewQuizRequest } from "~/lib/forms/new-quiz";
import { attemptDeadline, attemptOpen, clampQuestionCount } from "~/lib/timer";
import type { Db } from "./db/client.server";
import {
  attempts,
  questions,
  quizQuestions,
  quizzes,
  statQuestionAccuracy,
  subjects,
  topics,
  type Question,
} from "./db/schema";
import { HttpError } from "./errors.server";
import { editionGapBoxes, editionSubject, paperSplit } from "~/lib/edition";
import { drawForSubject } from "./draws.server";
import { DEFAULT_EDITION_ID_SQL, editionOrDefault } from "./editions.server";
import { peerDifficulty, targetedQuestionIds } from "./learning-advice.server";
import { claimRushStart } from "./rush.server";
import { assertRedoAllowed, sealedQuestionIdsSql } from "~/server/simulation/seal.server";
import { OFFLINE_TEXT, storeOfflineFingerprint } from "./offline-quizzes.server";

/** GET /api/quiz with a Rush event: refused, nothing drawn or claimed (issue 28). */
export const RUSH_NEEDS_POST_MESSAGE =
  "Un quiz Rush si avvia solo con una richiesta POST a /api/quiz (dalla pagina Quiz Rush di Unicum): un indirizzo aperto con GET non può usare il tuo tentativo.";

export type PublicQuestion = {
  id: number;
  type: "mc" | "gap";
  question_text: string;
  options: { id: number; option_text: string }[];
  difficulty: number;
  subjectId: number;
  topicId: number | null;
  topic: string | null;
};

export type DrawnQuiz = {
  quizId: number;
  kind: "random" | "redo" | "rush";
  subjectId: number | null;
  subjectName: string | null;
  topicId: number | null;
  timeLimitSec: number | null;
  rushEventId: number | null;
  startedAt: string;
  /** Seconds left on the timer at the moment of the answer (null without a timer). */
  remainingSec: number | null;
  /** Seconds since the quiz was drawn. */
  elapsedSec: number;
  /** The attempt's status by attemptOpen: an unsubmitted attempt past its deadline reads "abandoned". */
  status: "in_progress" | "completed" | "abandoned";
  /** Downloaded for offline use (issue 47): open until `expiresAt`, timed by the device. */
  offline: boolean;
  /** The last instant a submission is accepted (attemptDeadline). */
  expiresAt: string;
  attemptId: number | null;
  /** The completamento boxes of the quiz's edition (the default edition's when it follows none). */
  gapBoxes: number;
  questions: PublicQuestion[];
};

export async function listSubjects(db: Db) {
  return db.select({ id: subjects.id, name: subjects.name }).from(subjects).orderBy(asc(subjects.id)).all();
}

export async function listTopics(db: Db, subjectId: number) {
  const subject = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.id, subjectId)).get();
  if (!subject) throw new HttpError(404, "Materia non trovata.");
  return db
    .select({ id: topics.id, name: topics.name, parentId: topics.parentId })
    .from(topics)
    .where(eq(topics.subjectId, subjectId))
    .orderBy(asc(topics.id))
    .all();
}

/** The names a /test link's settings show before anything is drawn (an unknown id, or a topic of another subject: null). */
export async function subjectTopicNames(db: Db, subjectId: number | null, topicId: number | null) {
  const [subject, topic] = await Promise.all([
    subjectId ? db.select({ name: subjects.name }).from(subjects).where(eq(subjects.id, subjectId)).get() : undefined,
    topicId
      ? db.select({ name: topics.name, subjectId: topics.subjectId }).from(topics).where(eq(topics.id, topicId)).get()
      : undefined,
  ]);
  return { subject: subject?.name ?? null, topic: topic && topic.subjectId === subjectId ? topic.name : null };
}

/** Subjects with their topics, for the New test form (one query each, the catalogue is small). */
export async function catalogue(db: Db) {
  const [subjectRows, topicRows] = await Promise.all([
    listSubjects(db),
    db
      .select({ id: topics.id, name: topics.name, subjectId: topics.subjectId })
      .from(topics)
      .orderBy(asc(topics.id))
      .all(),
  ]);
  return subjectRows.map((s) => ({
    ...s,
    topics: topicRows.filter((t) => t.subjectId === s.id).map((t) => ({ id: t.id, name: t.name })),
  }));
}

/**
 * The browser's copy of a question: never the correct option, accepted answers or explanation. The
 * difficulty is the peers' (share of right answers, after 20 answers) when known, else the author's.
 */
export function publicQuestion(
  q: Question,
  topicName: string | null,
  peer?: { answered: number | null; correct: number | null },
): PublicQuestion {
  return {
    id: q.id,
    type: q.type,
    question_text: q.stem,
    options: q.type === "mc" ? (q.options ?? []).map((text, id) => ({ id, option_text: text })) : [],
    difficulty: peerDifficulty(peer?.answered, peer?.correct) ?? q.difficulty ?? DEFAULT_DIFFICULTY,
    subjectId: q.subjectId,
    topicId: q.topicId,
    topic: topicName,
  };
}

type DrawArgs = {
  userId: number;
  subjectId?: number;
  topicId?: number;
  count?: number;
  ids?: number[];
  timeLimitSec?: number | null;
  rushEventId?: number | null;
  /** "mirato": weighted towards weak topics, due and unseen questions (learning engine). */
  mode?: "random" | "mirato";
  /** The exam edition whose split a whole-subject draw follows (`?edition=`); the default one when absent. */
  editionId?: number | null;
  /** Downloaded for offline use (issue 47: offline-quizzes.server.ts). */
  offline?: boolean;
  /** Only these units of the default edition's syllabus (a plan's practice item, issue 46). */
  units?: number[];
  now?: number;
};

/** Draws a random quiz (subject, optional topic with its sub-topics, count 1-31) or a redo of given ids. */
export async function drawQuiz(db: Db, args: DrawArgs): Promise<DrawnQuiz> {
  const now = args.now ?? Date.now();
  let questionIds: number[];
  let subjectId: number | null;
  let kind: DrawnQuiz["kind"] = "random";
  /** Set when the draw followed an edition's split (a whole semestre filtro subject): stored with the quiz. */
  let editionId: number | null = null;

  if (args.ids) {
    kind = "redo";
    const unique = [...new Set(args.ids)];
    // Only the user's own answered history, and nothing sealed for them now (simulation/seal.server.ts).
    await assertRedoAllowed(db, args.userId, unique, now);
    const rows = await db
      .select({ id: questions.id, subjectId: questions.subjectId })
      .from(questions)
      .where(inArray(questions.id, unique))
      .all();
    const found = new Set(rows.map((r) => r.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) throw new HttpError(404, `Domanda non trovata: ${missing.join(", ")}.`);
    questionIds = unique;
    const subjectIds = new Set(rows.map((r) => r.subjectId));
    subjectId = subjectIds.size === 1 ? rows[0]!.subjectId : null;
  } else {
    subjectId = args.subjectId!;
    const subject = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.id, subjectId)).get();
    if (!subject) throw new HttpError(404, "Materia non trovata.");
    let topicFilter: SQL | undefined;
    if (args.topicId) {
      const topic = await db.select().from(topics).where(eq(topics.id, args.topicId)).get();
      if (!topic || topic.subjectId !== subjectId) {
        throw new HttpError(404, "Sotto-argomento non trovato per questa materia.");
      }
      topicFilter = sql`(${questions.topicId} = ${args.topicId} OR ${questions.topicId} IN (SELECT id FROM topics WHERE parent_id = ${args.topicId}))`;
    }
    // A sealed question (any live simulation's, for every account; the user's open Rush quiz's) is never
    // drawn: its graded result would tell whether a guess was right.
    const unsealed = sql`${questions.id} NOT IN (${sealedQuestionIdsSql(args.userId, now)})`;
    if (args.units?.length) {
      // The plan's "unità 3 e 6": those units of the default edition's syllabus, targeted or at random.
      if (args.rushEventId) throw new HttpError(400, "Un quiz Rush comprende tutte le unità della materia.");
      const inUnits = sql`${questions.id} IN (SELECT question_id FROM question_edition_units
        WHERE edition_id = (${DEFAULT_EDITION_ID_SQL}) AND unit IN (${sql.join(
          args.units.map((u) => sql`${u}`),
          sql`, `,
        )}))`;
      topicFilter = and(topicFilter, inUnits);
    }
    if (args.mode === "mirato" && !args.rushEventId) {
      // Test mirato: weak topics, due and unseen questions first (learning engine).
      questionIds = await targetedQuestionIds(db, {
        userId: args.userId,
        subjectId,
        topicFilter: and(topicFilter, unsealed)!,
        count: args.count!,
        now,
      });
    } else if (!topicFilter && !args.units?.length) {
      // A whole subject: the edition's split and unit weights (semestre filtro subjects) or plain random (older test).
      const edition = await editionOrDefault(db, args.editionId);
      const split = paperSplit(edition, subjectId);
      const draw = await drawForSubject(db, subjectId, args.count!, { exclude: unsealed, split, edition });
      questionIds = draw.ids;
      if (draw.weighted && editionSubject(edition, subjectId)) editionId = edition.id;
    } else {
      // One chosen topic (or the plan's units): a random draw inside it (a legacy topic is the older test's, chosen on purpose).
      const rows = await db
        .select({ id: questions.id })
        .from(questions)
        .where(and(eq(questions.subjectId, subjectId), eq(questions.active, true), topicFilter, unsealed))
        .orderBy(sql`random()`)
        .limit(args.count!)
        .all();
      questionIds = rows.map((r) => r.id);
    }
    if (questionIds.length === 0) {
      throw new HttpError(404, "Nessuna domanda disponibile per questa materia e questo sotto-argomento.");
    }
  }

  if (args.rushEventId) {
    if (subjectId == null || args.ids)
      throw new HttpError(400, "Un quiz Rush si avvia da una materia, non da un ripasso.");
    await claimRushStart(db, { userId: args.userId, eventId: args.rushEventId, subjectId, now });
    kind = "rush";
  }

  const [inserted] = await db.batch(
    storeQuizStatements(db, {
      userId: args.userId,
      subjectId,
      topicId: args.topicId ?? null,
      kind,
      timeLimitSec: args.timeLimitSec ?? null,
      rushEventId: args.rushEventId ?? null,
      editionId,
      questionIds,
      offline: args.offline,
      now,
    }),
  );
  return getQuiz(db, args.userId, inserted[0]!.id, now);
}

/** The id of the quiz the statements of storeQuizStatements insert, usable later in the same batch. */
export const NEW_QUIZ_ID = sql<number>`(SELECT max(id) FROM quizzes)`;

/**
 * The statements that store a drawn quiz: the quiz, its questions and its attempt 'in_progress', in one batch (the
 * quiz's id is the largest, as D1 runs a batch alone: NEW_QUIZ_ID). The first statement returns the quiz's id.
 * Practice draws here, and so do assignments (assignments.server.ts), which add their own row to the same batch.
 */
export function storeQuizStatements(
  db: Db,
  args: {
    userId: number;
    subjectId: number | null;
    topicId: number | null;
    kind: DrawnQuiz["kind"];
    timeLimitSec: number | null;
    rushEventId: number | null;
    editionId: number | null;
    questionIds: number[];
    offline?: boolean;
    now: number;
  },
) {
  const startedAt = new Date(args.now);
  return [
    db
      .insert(quizzes)
      .values({
        userId: args.userId,
        subjectId: args.subjectId,
        topicId: args.topicId,
        kind: args.kind,
        timeLimitSec: args.timeLimitSec,
        rushEventId: args.rushEventId,
        editionId: args.editionId,
        createdAt: startedAt,
      })
      .returning({ id: quizzes.id }),
    db
      .insert(quizQuestions)
      .values(args.questionIds.map((questionId, position) => ({ quizId: NEW_QUIZ_ID, position, questionId }))),
    db.insert(attempts).values({
      userId: args.userId,
      quizId: NEW_QUIZ_ID,
      subjectId: args.subjectId,
      status: "in_progress",
      startedAt,
      total: args.questionIds.length,
      rushEventId: args.rushEventId,
      editionId: args.editionId,
      offline: args.offline ?? false,
    }),
  ] as const;
}

/**
 * A quiz as asked by /api/quiz or the form posted to /test: a redo of given questions, or a draw of a subject (a Rush
 * quiz with `rushEventId`: only through a POST, see api.quiz.ts).
 */
export async function drawRequested(db: Db, userId: number, q: NewQuizRequest): Promise<DrawnQuiz> {
  const asked = q.time ? Number(q.time) || null : null;
  // A pupil's accommodation extends practice timers if they chose so on /profilo; never a Rush race.
  const timeLimitSec =
    asked && q.rushEventId == null ? extendedSeconds(asked, await practiceExtraPct(db, userId)) : asked;
  if (q.ids != null) {
    const ids = q.ids
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map(Number);
    if (ids.length === 0) throw new HttpError(400, "Nessuna domanda per il ripasso");
    if (ids.some((n) => !Number.isInteger(n) || n <= 0))
      throw new HttpError(400, "Elenco di domande non valido: sono attesi numeri interi positivi (campo: Domande).");
    if (new Set(ids).size > MAX_QUESTIONS)
      throw new HttpError(400, `Al massimo ${MAX_QUESTIONS} domande per quiz (campo: Domande).`);
    if (q.offline === "1") throw new HttpError(400, OFFLINE_TEXT.redo);
    return drawQuiz(db, { userId, ids, timeLimitSec });
  }
  if (!q.subjectId) throw new HttpError(400, "Scegli una materia (campo: Materia).");
  if (q.offline === "1") {
    // A download (issue 47): a subject's quiz only; what the student gets is fingerprinted before it leaves.
    if (q.rushEventId != null) throw new HttpError(400, OFFLINE_TEXT.rush);
    const quiz = await drawQuiz(db, { ...drawArgs(userId, q, timeLimitSec), offline: true });
    await storeOfflineFingerprint(db, quiz.quizId);
    return quiz;
  }
  return drawQuiz(db, drawArgs(userId, q, timeLimitSec));
}

function drawArgs(userId: number, q: NewQuizRequest, timeLimitSec: number | null): DrawArgs {
  return {
    userId,
    subjectId: q.subjectId,
    topicId: q.topicId,
    count: clampQuestionCount(q.count || undefined, 10),
    timeLimitSec,
    rushEventId: q.rushEventId ?? null,
    mode: q.mode,
    editionId: q.edition ?? null,
    units: q.units,
  };
}

/** A stored quiz of this user, in drawn order; 404 for someone else's or a missing one. */
export async function getQuiz(db: Db, userId: number, quizId: number, now = Date.now()): Promise<DrawnQuiz> {
  const quiz = await db.select().from(quizzes).where(eq(quizzes.id, quizId)).get();
  if (!quiz || quiz.userId !== userId) throw new HttpError(404, "Quiz non trovato.");
  const [rows, attempt, subject, edition] = await Promise.all([
    db
      .select({
        question: questions,
        topicName: topics.name,
        answered: statQuestionAccuracy.answered,
        correct: statQuestionAccuracy.correct,
      })
      .from(quizQuestions)
      .innerJoin(questions, eq(questions.id, quizQuestions.questionId))
      .leftJoin(topics, eq(topics.id, questions.topicId))
      .leftJoin(statQuestionAccuracy, eq(statQuestionAccuracy.questionId, questions.id))
      .where(eq(quizQuestions.quizId, quizId))
      .orderBy(asc(quizQuestions.position))
      .all(),
    db
      .select({ id: attempts.id, status: attempts.status, startedAt: attempts.startedAt, offline: attempts.offline })
      .from(attempts)
      .where(eq(attempts.quizId, quizId))
      .get(),
    quiz.subjectId != null ? db.select().from(subjects).where(eq(subjects.id, quiz.subjectId)).get() : undefined,
    editionOrDefault(db, quiz.editionId ?? null).catch(() => null),
  ]);
  const startedAt = attempt?.startedAt ?? quiz.createdAt;
  const offline = attempt?.offline ?? false;
  const remainingSec =
    quiz.timeLimitSec != null ? Math.max(0, Math.round(quiz.timeLimitSec - (now - startedAt.getTime()) / 1000)) : null;
  return {
    quizId: quiz.id,
    kind: quiz.kind,
    subjectId: quiz.subjectId,
    subjectName: subject?.name ?? null,
    topicId: quiz.topicId,
    timeLimitSec: quiz.timeLimitSec,
    rushEventId: quiz.rushEventId,
    startedAt: startedAt.toISOString(),
    remainingSec,
    elapsedSec: Math.max(0, Math.round((now - startedAt.getTime()) / 1000)),
    // Past its deadline an attempt is over by the one rule, whether or not a list has written 'abandoned' yet.
    status:
      attempt && attemptOpen(attempt.status, startedAt.getTime(), quiz.timeLimitSec, offline, now)
        ? "in_progress"
        : attempt?.status === "completed"
          ? "completed"
          : "abandoned",
    attemptId: attempt?.id ?? null,
    offline,
    expiresAt: new Date(attemptDeadline(startedAt.getTime(), quiz.timeLimitSec, offline)).toISOString(),
    gapBoxes: editionGapBoxes(edition),
    questions: rows.map((r) => publicQuestion(r.question, r.topicName, r)),
  };
}
