// Compiti (issue 32): a teacher assigns a practice set to a class they own, with an opening and a due date.
// - "comune": the set is drawn once at creation (the default edition's unit weights and mc/gap split, optionally only
//   some units) and every pupil gets the same questions; "mirato": each pupil gets a Test mirato drawn when they start.
// - A pupil starts it with one button: the practice machinery stores a quiz and its attempt (quiz.server.ts
//   storeQuizStatements), the runner and the grading are practice's own (attempts.server.ts), so the keys stay sealed
//   until that pupil submits, and the summary is practice's. One attempt counts (startAssignment), open by practice's
//   rule (attemptOpen). Until a pupil submits, the common set is sealed for them everywhere else (draws, redo,
//   summaries: an assignment is a source of simulation/seal.server.ts), until the due date.
// - Who sees what: only members of the class (an invitation counts once accepted: it makes a membership) see and start
//   it; only the class's teacher (or an admin) sees the results, and only of pupils who are members now.
import { and, asc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import {
  ASSIGNMENT_TEXT as T,
  assignmentStatus,
  type AssignmentDatesInput,
  type AssignmentInputValue,
  type AssignmentReport,
  type AssignmentStatus,
  type AssignmentSummary,
  type PupilRow,
  type QuestionRow,
} from "~/lib/assignments";
import { editionSubject, paperSplit, type ExamEdition } from "~/lib/edition";
import { effectiveExtraPct, extendedSeconds } from "~/lib/simulation-day";
import { attemptOpen } from "~/lib/timer";
import type { z } from "zod";
import { requireManagedClass } from "./classes.server";
import type { Db } from "./db/client.server";
import {
  assignmentQuestions,
  assignmentQuizzes,
  assignments,
  attempts,
  classes,
  classMembers,
  questions,
  quizzes,
  subjects,
  users,
} from "./db/schema";
import { drawForSubject } from "./draws.server";
import { defaultEdition, editionOrDefault } from "./editions.server";
import { HttpError } from "./errors.server";
import { targetedQuestionIds } from "./learning-advice.server";
import { NEW_QUIZ_ID, storeQuizStatements } from "./quiz.server";
import { assertNoneSealed, readSeal, sealedQuestionIdsSql } from "~/server/simulation/seal.server";
import type { SessionUser } from "./session.server";

/** An assignment quiz is started online and never downloaded: practice's deadline rule without the offline week. */
const ASSIGNMENT_NEVER_OFFLINE = false;

type AssignmentRow = typeof assignments.$inferSelect;

/** The edition's pace for a subject: its minutes over its questions, times `count` (null: the edition lacks it). */
export function editionTimerSeconds(edition: Pick<ExamEdition, "format">, subjectId: number, count: number) {
  const s = editionSubject(edition, subjectId);
  if (!s || s.mc + s.gap <= 0) return null;
  return Math.round((s.minutes * 60 * count) / (s.mc + s.gap));
}

/** Only questions of these syllabus units of the edition (none given: no filter). */
function unitFilter(editionId: number, units: readonly number[] | null): SQL | undefined {
  if (!units?.length) return undefined;
  return sql`${questions.id} IN (SELECT question_id FROM question_edition_units WHERE edition_id = ${editionId} AND unit IN (${sql.join(
    units.map((u) => sql`${u}`),
    sql`, `,
  )}))`;
}

async function findAssignment(db: Db, assignmentId: number): Promise<AssignmentRow> {
  const row = await db.select().from(assignments).where(eq(assignments.id, assignmentId)).get();
  if (!row) throw new HttpError(404, T.notFound);
  return row;
}

/** The assignment, if the caller manages its class: unknown → 404, someone else's → 403. */
async function requireManagedAssignment(db: Db, user: SessionUser, assignmentId: number) {
  const row = await findAssignment(db, assignmentId);
  await requireManagedClass(db, user, row.classId);
  return row;
}

/** Creates an assignment for a class the caller manages; a "comune" one draws its set now. */
export async function createAssignment(
  db: Db,
  user: SessionUser,
  classId: number,
  input: AssignmentInputValue,
  now = Date.now(),
) {
  await requireManagedClass(db, user, classId);
  const [subject, edition] = await Promise.all([
    db.select({ id: subjects.id }).from(subjects).where(eq(subjects.id, input.subjectId)).get(),
    defaultEdition(db),
  ]);
  if (!subject) throw new HttpError(404, T.unknownSubject);
  const units = [...new Set(input.units)].sort((a, b) => a - b);
  const known = new Set(edition.format.units.filter((u) => u.subjectId === input.subjectId).map((u) => u.number));
  const unknown = units.filter((u) => !known.has(u));
  if (unknown.length) throw new HttpError(400, T.unknownUnits(unknown));
  let timeLimitSec: number | null = null;
  if (input.timer === "edizione") {
    timeLimitSec = editionTimerSeconds(edition, input.subjectId, input.count);
    if (timeLimitSec == null) throw new HttpError(400, T.noEditionTimer);
  }
  let questionIds: number[] = [];
  if (input.mode === "comune") {
    // Never a question of a live simulation (sealed for everybody): its graded result would tell a guess's verdict.
    const unsealed = sql`${questions.id} NOT IN (${sealedQuestionIdsSql(user.id, now)})`;
    const draw = await drawForSubject(db, input.subjectId, input.count, {
      exclude: and(unsealed, unitFilter(edition.id, units)),
      split: paperSplit(edition, input.subjectId),
      edition,
    });
    questionIds = draw.ids;
    if (!questionIds.length) throw new HttpError(409, T.noQuestions);
  }
  const [inserted] = await db.batch([
    db
      .insert(assignments)
      .values({
        classId,
        createdBy: user.id,
        title: input.title,
        subjectId: input.subjectId,
        questionCount: input.mode === "comune" ? questionIds.length : input.count,
        timeLimitSec,
        mode: input.mode,
        units: units.length ? units : null,
        editionId: edition.id,
        opensAt: new Date(input.opensAt),
        dueAt: new Date(input.dueAt),
      })
      .returning({ id: assignments.id }),
    // 3 values per row: at most 31 rows, under D1's 100 bound values.
    ...(questionIds.length
      ? [
          db.insert(assignmentQuestions).values(
            questionIds.map((questionId, position) => ({
              assignmentId: sql<number>`(SELECT max(id) FROM assignments)`,
              position,
              questionId,
            })),
          ),
        ]
      : []),
  ]);
  return { id: inserted[0]!.id, questionCount: input.mode === "comune" ? questionIds.length : input.count };
}

const summaryColumns = {
  a: assignments,
  className: classes.name,
  subjectName: subjects.name,
};

function toSummary(r: { a: AssignmentRow; className: string; subjectName: string }): AssignmentSummary {
  return {
    id: r.a.id,
    classId: r.a.classId,
    className: r.className,
    title: r.a.title,
    subjectId: r.a.subjectId,
    subjectName: r.subjectName,
    questionCount: r.a.questionCount,
    timeLimitSec: r.a.timeLimitSec,
    mode: r.a.mode,
    units: r.a.units ?? null,
    opensAt: r.a.opensAt.getTime(),
    dueAt: r.a.dueAt.getTime(),
  };
}

export type ClassAssignment = AssignmentSummary & { counts: Record<AssignmentStatus, number> };

/** The assignments of a class the caller manages, newest due date first, with done / late / not done counts. */
export async function classAssignments(db: Db, user: SessionUser, classId: number): Promise<ClassAssignment[]> {
  await requireManagedClass(db, user, classId);
  const [rows, results, members] = await Promise.all([
    db
      .select(summaryColumns)
      .from(assignments)
      .innerJoin(classes, eq(classes.id, assignments.classId))
      .innerJoin(subjects, eq(subjects.id, assignments.subjectId))
      .where(eq(assignments.classId, classId))
      .orderBy(sql`${assignments.dueAt} DESC`, sql`${assignments.id} DESC`)
      .all(),
    // Only current members' attempts count (a pupil who left is no longer the teacher's to see).
    db
      .select({
        assignmentId: assignmentQuizzes.assignmentId,
        status: attempts.status,
        finishedAt: attempts.finishedAt,
      })
      .from(assignmentQuizzes)
      .innerJoin(assignments, eq(assignments.id, assignmentQuizzes.assignmentId))
      .innerJoin(
        classMembers,
        and(eq(classMembers.classId, assignments.classId), eq(classMembers.userId, assignmentQuizzes.userId)),
      )
      .innerJoin(attempts, eq(attempts.quizId, assignmentQuizzes.quizId))
      .where(and(eq(assignments.classId, classId), eq(attempts.status, "completed")))
      .all(),
    db.select({ n: sql<number>`count(*)` }).from(classMembers).where(eq(classMembers.classId, classId)).get(),
  ]);
  return rows.map((r) => {
    const summary = toSummary(r);
    const counts = { fatto: 0, in_ritardo: 0, non_fatto: 0 };
    for (const res of results.filter((x) => x.assignmentId === r.a.id)) {
      counts[assignmentStatus({ status: res.status, finishedAt: res.finishedAt?.getTime() ?? null }, summary.dueAt)]++;
    }
    counts.non_fatto = Math.max(0, (members?.n ?? 0) - counts.fatto - counts.in_ritardo);
    return { ...summary, counts };
  });
}

/**
 * The teacher's report (GET /api/assignments/:id): per pupil of the class (members only) done / late / not done,
 * score and time; per question the share right and the wrong answer chosen most often (of submitted attempts).
 */
export async function assignmentReport(
  db: Db,
  user: SessionUser,
  assignmentId: number,
  now = Date.now(),
): Promise<AssignmentReport> {
  const row = await requireManagedAssignment(db, user, assignmentId);
  const [head, pupils, answerGroups, setRows, seal] = await Promise.all([
    db
      .select(summaryColumns)
      .from(assignments)
      .innerJoin(classes, eq(classes.id, assignments.classId))
      .innerJoin(subjects, eq(subjects.id, assignments.subjectId))
      .where(eq(assignments.id, assignmentId))
      .get(),
    db
      .select({
        userId: users.id,
        name: users.name,
        email: users.email,
        status: attempts.status,
        finishedAt: attempts.finishedAt,
        score: attempts.score,
        correct: attempts.correct,
        total: attempts.total,
        timeSec: attempts.timeTaken,
      })
      .from(classMembers)
      .innerJoin(users, eq(users.id, classMembers.userId))
      .leftJoin(
        assignmentQuizzes,
        and(eq(assignmentQuizzes.assignmentId, assignmentId), eq(assignmentQuizzes.userId, classMembers.userId)),
      )
      .leftJoin(attempts, eq(attempts.quizId, assignmentQuizzes.quizId))
      .where(eq(classMembers.classId, row.classId))
      .orderBy(asc(users.name), asc(users.id))
      .all(),
    db.all<{
      question_id: number;
      option_id: number | null;
      answer_text: string | null;
      correct: number | null;
      n: number;
    }>(sql`
      SELECT aa.question_id, aa.option_id, aa.answer_text, aa.correct, count(*) AS n
      FROM assignment_quizzes aq
      JOIN class_members cm ON cm.class_id = ${row.classId} AND cm.user_id = aq.user_id
      JOIN attempts a ON a.quiz_id = aq.quiz_id AND a.status = 'completed'
      JOIN attempt_answers aa ON aa.attempt_id = a.id
      WHERE aq.assignment_id = ${assignmentId}
      GROUP BY aa.question_id, aa.option_id, aa.answer_text, aa.correct`),
    db
      .select({ position: assignmentQuestions.position, questionId: assignmentQuestions.questionId })
      .from(assignmentQuestions)
      .where(eq(assignmentQuestions.assignmentId, assignmentId))
      .orderBy(asc(assignmentQuestions.position))
      .all(),
    readSeal(db, user.id, now),
  ]);
  const assignment = toSummary(head!);
  const pupilRows: PupilRow[] = pupils.map((p) => {
    const finishedAt = p.finishedAt?.getTime() ?? null;
    const status = assignmentStatus({ status: p.status, finishedAt }, assignment.dueAt);
    const done = status !== "non_fatto";
    return {
      userId: p.userId,
      name: p.name || p.email,
      email: p.email,
      status,
      score: done ? p.score : null,
      correct: done ? p.correct : null,
      total: done ? p.total : null,
      timeSec: done ? p.timeSec : null,
      finishedAt: done ? finishedAt : null,
    };
  });
  // The common set in its order; a Test mirato: every question some pupil answered.
  const position = new Map(setRows.map((r) => [r.questionId, r.position]));
  const ids = [...new Set([...setRows.map((r) => r.questionId), ...answerGroups.map((g) => g.question_id)])];
  const texts = new Map<number, { stem: string; options: string[] | null }>();
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    for (const q of await db
      .select({ id: questions.id, stem: questions.stem, options: questions.options })
      .from(questions)
      .where(inArray(questions.id, part))
      .all())
      texts.set(q.id, { stem: q.stem, options: q.options ?? null });
  }
  const questionRows: QuestionRow[] = ids.map((id) => {
    const groups = answerGroups.filter((g) => g.question_id === id);
    const answered = groups.reduce((s, g) => s + g.n, 0);
    const right = groups.filter((g) => g.correct === 1).reduce((s, g) => s + g.n, 0);
    const wrong = new Map<string, number>();
    for (const g of groups.filter((g) => g.correct === 0)) {
      const answer =
        g.option_id != null
          ? (texts.get(id)?.options?.[g.option_id] ?? `Opzione ${g.option_id + 1}`)
          : (g.answer_text ?? "");
      wrong.set(answer, (wrong.get(answer) ?? 0) + g.n);
    }
    const top = [...wrong].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    const sealed = seal.has(id);
    return {
      questionId: id,
      position: position.has(id) ? position.get(id)! + 1 : null,
      stem: texts.get(id)?.stem ?? "",
      answered: sealed ? 0 : answered,
      right: sealed ? 0 : right,
      rightPct: sealed || !answered ? null : Math.round((right / answered) * 100),
      topWrong: sealed || !top ? null : { answer: top[0], count: top[1] },
      sealed,
    };
  });
  if (assignment.mode === "mirato") questionRows.sort((a, b) => b.answered - a.answered || a.questionId - b.questionId);
  return { assignment, pupils: pupilRows, questions: questionRows };
}

/** A new opening or due date ("Chiudi ora": the due date becomes now; whoever submits later is late). */
export async function updateAssignmentDates(
  db: Db,
  user: SessionUser,
  assignmentId: number,
  input: z.output<typeof AssignmentDatesInput>,
  now = Date.now(),
) {
  const row = await requireManagedAssignment(db, user, assignmentId);
  const opensAt = input.opensAt ?? row.opensAt.getTime();
  const dueAt = input.dueNow ? now : (input.dueAt ?? row.dueAt.getTime());
  if (dueAt <= opensAt) throw new HttpError(400, T.dueBeforeOpen);
  await db
    .update(assignments)
    .set({ opensAt: new Date(opensAt), dueAt: new Date(dueAt) })
    .where(eq(assignments.id, assignmentId));
  return { id: assignmentId, opensAt, dueAt };
}

export async function deleteAssignment(db: Db, user: SessionUser, assignmentId: number) {
  await requireManagedAssignment(db, user, assignmentId);
  // The pupils' attempts stay in their history (the link rows go with the assignment).
  await db.delete(assignments).where(eq(assignments.id, assignmentId));
  return { ok: true };
}

export type MyAssignment = AssignmentSummary & {
  teacher: string;
  status: AssignmentStatus;
  /** The pupil's quiz: open (resume) or submitted (its attempt). */
  quizId: number | null;
  attemptId: number | null;
  inProgress: boolean;
  score: number | null;
};

/** A pupil's assignments (GET /api/assignments): those of the classes they are a member of, by due date. */
export async function myAssignments(db: Db, userId: number, now = Date.now()): Promise<MyAssignment[]> {
  const rows = await db
    .select({
      ...summaryColumns,
      teacher: users.name,
      teacherEmail: users.email,
      quizId: assignmentQuizzes.quizId,
      attemptId: attempts.id,
      status: attempts.status,
      startedAt: attempts.startedAt,
      finishedAt: attempts.finishedAt,
      score: attempts.score,
      quizLimit: quizzes.timeLimitSec,
    })
    .from(classMembers)
    .innerJoin(assignments, eq(assignments.classId, classMembers.classId))
    .innerJoin(classes, eq(classes.id, assignments.classId))
    .innerJoin(users, eq(users.id, classes.ownerId))
    .innerJoin(subjects, eq(subjects.id, assignments.subjectId))
    .leftJoin(
      assignmentQuizzes,
      and(eq(assignmentQuizzes.assignmentId, assignments.id), eq(assignmentQuizzes.userId, classMembers.userId)),
    )
    .leftJoin(quizzes, eq(quizzes.id, assignmentQuizzes.quizId))
    .leftJoin(attempts, eq(attempts.quizId, assignmentQuizzes.quizId))
    .where(eq(classMembers.userId, userId))
    .orderBy(asc(assignments.dueAt), asc(assignments.id))
    .limit(200)
    .all();
  return rows.map((r) => {
    const summary = toSummary(r);
    const finishedAt = r.finishedAt?.getTime() ?? null;
    const status = assignmentStatus({ status: r.status, finishedAt }, summary.dueAt);
    // The pupil's quiz can be resumed while practice's one rule says it can still be submitted.
    const open =
      r.status != null &&
      attemptOpen(r.status, r.startedAt?.getTime() ?? 0, r.quizLimit, ASSIGNMENT_NEVER_OFFLINE, now);
    return {
      ...summary,
      teacher: r.teacher || r.teacherEmail,
      status,
      quizId: r.quizId ?? null,
      attemptId: status === "non_fatto" ? null : (r.attemptId ?? null),
      inProgress: open,
      score: status === "non_fatto" ? null : (r.score ?? null),
    };
  });
}

/** What the dashboard reminds a pupil of: open assignments not submitted yet (overdue ones too), by due date. */
export function dueReminders(list: MyAssignment[], now: number) {
  return list.filter((a) => a.status === "non_fatto" && a.opensAt <= now).slice(0, 5);
}

/**
 * POST /api/assignments/:id/start: the pupil's quiz for the assignment. Members only; not before it opens; after the due
 * date it still starts (the submission will count as late). One attempt counts, by practice's rule (attemptOpen):
 * - a submitted one is the pupil's result for good: it answers its attempt, and no new quiz is ever drawn (a fresh try
 *   at a set whose keys they have read would be no test);
 * - an open one (its timer and the submit grace, or 3 hours without a timer, not yet run out) is resumed: never a
 *   second quiz beside it, which could be submitted blank to read the keys of the same set;
 * - one that ran out unsubmitted is replaced by a new draw, and marked abandoned in the batch that stores the new quiz.
 */
export async function startAssignment(
  db: Db,
  user: Pick<SessionUser, "id">,
  assignmentId: number,
  now = Date.now(),
): Promise<{ quizId: number; attemptId: number | null; completed: boolean }> {
  const row = await findAssignment(db, assignmentId);
  const [member, existing] = await Promise.all([
    db
      .select({ extra: classMembers.extraTimePct, own: users.extraTimePct })
      .from(classMembers)
      .innerJoin(users, eq(users.id, classMembers.userId))
      .where(and(eq(classMembers.classId, row.classId), eq(classMembers.userId, user.id)))
      .get(),
    pupilQuiz(db, assignmentId, user.id),
  ]);
  // Someone else's class looks like a missing assignment: its existence is not the caller's to learn.
  if (!member) throw new HttpError(404, T.notFound);
  if (now < row.opensAt.getTime()) throw new HttpError(409, T.notOpenYet(row.opensAt.getTime()));
  const current = existing && currentQuiz(existing, now);
  if (current) return current;

  const edition = await editionOrDefault(db, row.editionId).catch(() => defaultEdition(db));
  let questionIds: number[];
  if (row.mode === "comune") {
    const set = await db
      .select({ id: assignmentQuestions.questionId })
      .from(assignmentQuestions)
      .where(eq(assignmentQuestions.assignmentId, assignmentId))
      .orderBy(asc(assignmentQuestions.position))
      .all();
    questionIds = set.map((r) => r.id);
    // A question that joined a live simulation (or the pupil's open Rush quiz) since: the submission would be
    // refused, so say it now. The seal of assignments (this set's own, another set sharing a question) does not count:
    // the pupil's assignment quiz is theirs to submit (simulation/seal.server.ts).
    const seal = await readSeal(db, user.id, now);
    assertNoneSealed(
      questionIds.filter((id) => seal.get(id) !== "assignment"),
      seal,
    );
  } else {
    const unsealed = sql`${questions.id} NOT IN (${sealedQuestionIdsSql(user.id, now)})`;
    questionIds = await targetedQuestionIds(db, {
      userId: user.id,
      subjectId: row.subjectId,
      topicFilter: and(unsealed, unitFilter(edition.id, row.units ?? null))!,
      count: row.questionCount,
      now,
    });
  }
  if (!questionIds.length) throw new HttpError(409, T.noQuestions);
  // The class's teacher's accommodation for this pupil (or the pupil's own): the largest, never added up.
  const timeLimitSec = extendedSeconds(row.timeLimitSec, effectiveExtraPct(member.own, member.extra));
  const stored = storeQuizStatements(db, {
    userId: user.id,
    subjectId: row.subjectId,
    topicId: null,
    kind: "random",
    timeLimitSec,
    rushEventId: null,
    editionId: null,
    questionIds,
    now,
  });
  const link = and(eq(assignmentQuizzes.assignmentId, assignmentId), eq(assignmentQuizzes.userId, user.id));
  try {
    const [inserted] = existing
      ? await db.batch([
          ...stored,
          // The attempt read above must still be the pupil's and unsubmitted, or nothing here is written: a
          // submission that landed in between (it read the clock before the deadline) stays the only one, and of two
          // restarts at once only the first draws. The guard selects the link row back into its own table (a
          // duplicate key, so the batch rolls back) when the link moved or the old attempt was submitted.
          db.insert(assignmentQuizzes).select(
            db
              .select({
                assignmentId: assignmentQuizzes.assignmentId,
                userId: assignmentQuizzes.userId,
                quizId: assignmentQuizzes.quizId,
              })
              .from(assignmentQuizzes)
              .where(
                and(
                  link,
                  or(
                    ne(assignmentQuizzes.quizId, existing.quizId),
                    sql`EXISTS (SELECT 1 FROM attempts WHERE quiz_id = ${existing.quizId} AND status = 'completed')`,
                  ),
                ),
              ),
          ),
          // The older attempt is abandoned in the same batch that stores the new one (no moment with two open).
          db
            .update(attempts)
            .set({ status: "abandoned" })
            .where(and(eq(attempts.quizId, existing.quizId), eq(attempts.status, "in_progress"))),
          db.update(assignmentQuizzes).set({ quizId: NEW_QUIZ_ID }).where(link),
        ])
      : await db.batch([
          ...stored,
          db.insert(assignmentQuizzes).values({ assignmentId, userId: user.id, quizId: NEW_QUIZ_ID }),
        ]);
    return { quizId: inserted[0]!.id, attemptId: null, completed: false };
  } catch (error) {
    // Another start (a double click) or a submission won the race: answer what is there now.
    const again = await pupilQuiz(db, assignmentId, user.id);
    const answer = again && currentQuiz(again, now);
    if (answer) return answer;
    throw error;
  }
}

type PupilQuiz = {
  quizId: number;
  attemptId: number | null;
  status: "in_progress" | "completed" | "abandoned" | null;
  startedAt: Date | null;
  limit: number | null;
};

/** The pupil's linked quiz for the assignment and its attempt, if they have started it. */
function pupilQuiz(db: Db, assignmentId: number, userId: number): Promise<PupilQuiz | undefined> {
  return db
    .select({
      quizId: assignmentQuizzes.quizId,
      attemptId: attempts.id,
      status: attempts.status,
      startedAt: attempts.startedAt,
      limit: quizzes.timeLimitSec,
    })
    .from(assignmentQuizzes)
    .innerJoin(quizzes, eq(quizzes.id, assignmentQuizzes.quizId))
    .leftJoin(attempts, eq(attempts.quizId, assignmentQuizzes.quizId))
    .where(and(eq(assignmentQuizzes.assignmentId, assignmentId), eq(assignmentQuizzes.userId, userId)))
    .get();
}

/** The pupil's quiz as the start answers it: submitted, or still open (resumed); null when it ran out unsubmitted. */
function currentQuiz(q: PupilQuiz, now: number) {
  if (q.status === "completed") return { quizId: q.quizId, attemptId: q.attemptId, completed: true };
  if (q.status && attemptOpen(q.status, q.startedAt?.getTime() ?? 0, q.limit, ASSIGNMENT_NEVER_OFFLINE, now))
    return { quizId: q.quizId, attemptId: null, completed: false };
  return null;
}
