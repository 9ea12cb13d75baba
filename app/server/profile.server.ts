// The profile (spec section 2 'Profile', GET/POST /api/profile), the export of everything the
// platform holds about a user, and account deletion (GDPR right to erasure).
import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { isValidCap, isValidCodiceFiscale, isValidPhone } from "~/lib/italian-ids";
import { DELETE_ACCOUNT_CONFIRMATION, PRIVACY } from "~/lib/constants";
import { summaryScore } from "~/lib/scoring";
import type { Db } from "./db/client.server";
import {
  attemptAnswers,
  attempts,
  classInvitations,
  consentRecords,
  friendships,
  loginEvents,
  pageViews,
  reports,
  rushProgress,
  simulationAttempts,
  sittingGrades,
  forecastDays,
  studyPlans,
  users,
  type User,
} from "./db/schema";
import { BUMP_STATS_VERSION_SQL, italianDaySql, SCORE_BIN_SQL } from "./db/aggregate-sql";
import { HttpError, withLabels } from "./errors.server";
import { canSeeKeys, readSeal, servedAttempt, visibleTotals } from "~/server/simulation/seal.server";
import type { Profile } from "~/lib/profile";
import { describeDevice } from "~/lib/device";
import { listSessions, type SessionUser } from "./session.server";

export type { Profile };

export function toProfile(user: User): Profile {
  return {
    username: user.username,
    name: user.name,
    phone: user.phone,
    bio: user.bio,
    goal: user.goal,
    city: user.city,
    school: user.school,
    schoolYear: user.schoolYear,
    birth: user.birth,
    cf: user.cf,
    address: user.address,
    zip: user.zip,
    email: user.email,
    createdAt: user.createdAt.toISOString(),
    lastLogin: user.lastLogin ? user.lastLogin.toISOString() : null,
  };
}

export async function getProfile(db: Db, userId: number): Promise<Profile> {
  const user = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw new HttpError(404, "Profilo non trovato.");
  return toProfile(user);
}

export { profileUpdateSchema, type ProfileUpdate } from "~/lib/forms/profile";
import type { ProfileUpdate } from "~/lib/forms/profile";

export async function updateProfile(db: Db, userId: number, patch: ProfileUpdate): Promise<Profile> {
  const values = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (Object.keys(values).length === 0) return getProfile(db, userId);
  const user = await db.update(users).set(values).where(eq(users.id, userId)).returning().get();
  if (!user) throw new HttpError(404, "Profilo non trovato.");
  return toProfile(user);
}

/** Everything the platform holds about the user: profile, attempts with answers, reports, and the rest. */
export async function exportUserData(db: Db, userId: number, now = Date.now()) {
  const [
    userRows,
    attemptRows,
    answerRows,
    reportRows,
    friendshipRows,
    simRows,
    rushRows,
    loginRows,
    consentRows,
    planRows,
    gradeRows,
    forecastRows,
  ] = await db.batch([
    db.select().from(users).where(eq(users.id, userId)),
    db.select().from(attempts).where(eq(attempts.userId, userId)).orderBy(asc(attempts.startedAt)),
    db
      .select({
        attemptId: attemptAnswers.attemptId,
        position: attemptAnswers.position,
        questionId: attemptAnswers.questionId,
        optionId: attemptAnswers.optionId,
        answerText: attemptAnswers.answerText,
        correct: attemptAnswers.correct,
        timeSec: attemptAnswers.timeSec,
        answeredAt: attemptAnswers.answeredAt,
      })
      .from(attemptAnswers)
      .innerJoin(attempts, eq(attempts.id, attemptAnswers.attemptId))
      .where(eq(attempts.userId, userId))
      .orderBy(asc(attemptAnswers.attemptId), asc(attemptAnswers.position)),
    db.select().from(reports).where(eq(reports.userId, userId)).orderBy(asc(reports.createdAt)),
    db
      .select()
      .from(friendships)
      .where(sql`${friendships.requesterId} = ${userId} OR ${friendships.addresseeId} = ${userId}`),
    db.select().from(simulationAttempts).where(eq(simulationAttempts.userId, userId)),
    db.select().from(rushProgress).where(eq(rushProgress.userId, userId)),
    db.select().from(loginEvents).where(eq(loginEvents.userId, userId)).orderBy(asc(loginEvents.at)),
    db.select().from(consentRecords).where(eq(consentRecords.userId, userId)),
    // The plan to a sitting and the grades entered after it (issue 46)
    db.select().from(studyPlans).where(eq(studyPlans.userId, userId)),
    db.select().from(sittingGrades).where(eq(sittingGrades.userId, userId)),
    db.select().from(forecastDays).where(eq(forecastDays.userId, userId)).orderBy(asc(forecastDays.day)),
  ]);
  const user = userRows[0];
  if (!user) throw new HttpError(404, "Profilo non trovato.");
  // The key rule (simulation/seal.server.ts): nothing of a question sealed now (live simulation, open Rush quiz),
  // neither the verdict nor the answer, and totals counted without it.
  const seal = await readSeal(db, userId, now);
  const attemptById = new Map(attemptRows.map((a) => [a.id, a]));
  const answersByAttempt = new Map<number, (typeof answerRows)[number][]>();
  for (const answer of answerRows) {
    answersByAttempt.set(answer.attemptId, [...(answersByAttempt.get(answer.attemptId) ?? []), answer]);
  }
  const shownAnswer = ({ attemptId, ...answer }: (typeof answerRows)[number]) => {
    const attempt = attemptById.get(attemptId);
    const access = canSeeKeys({ served: attempt ? servedAttempt(attempt) : false, seal }, answer.questionId);
    return {
      ...answer,
      optionId: access.ownAnswer ? answer.optionId : null,
      answerText: access.ownAnswer ? answer.answerText : null,
      correct: access.keys ? answer.correct : null,
    };
  };
  const { googleSub: _googleSub, ...account } = user;
  return {
    exportedAt: new Date(now).toISOString(),
    profile: account,
    attempts: attemptRows.map(({ idempotencyKey: _k, ...a }) => {
      const answers = answersByAttempt.get(a.id) ?? [];
      const totals = visibleTotals(a, answers, seal);
      const partial = totals.partial
        ? { ...totals, score: summaryScore(totals.correct, totals.wrong, totals.total) }
        : {};
      return { ...a, ...partial, answers: answers.map(shownAnswer) };
    }),
    reports: reportRows.map((r) =>
      canSeeKeys({ served: false, seal }, r.questionId).ownAnswer ? r : { ...r, userAnswerKey: null },
    ),
    friendships: friendshipRows,
    simulationAttempts: simRows,
    rushProgress: rushRows,
    logins: loginRows,
    consents: consentRows,
    studyPlan: planRows[0] ?? null,
    sittingGrades: gradeRows,
    forecastDays: forecastRows,
  };
}

const completed = (alias: string, userId: number) =>
  `${alias}.user_id = ${userId} AND ${alias}.status = 'completed' AND ${alias}.subject_id IS NOT NULL`;

/**
 * Deletes the user's personal data and attempts (right to erasure). The site aggregates lose the
 * user's contribution in the same batch; everything owned by the user goes with the row (cascades).
 */
export async function deleteAccount(db: Db, userId: number): Promise<void> {
  const id = Number(userId);
  if (!Number.isInteger(id)) throw new HttpError(400, "Utente non valido.");
  // Peer difficulty counts every completed attempt, with or without a single subject.
  const anyCompleted = `a.user_id = ${id} AND a.status = 'completed'`;
  const statements = [
    `UPDATE stat_score_histogram SET count = count - (
       SELECT count(*) FROM attempts a WHERE ${completed("a", id)} AND a.total > 0
         AND a.subject_id = stat_score_histogram.subject_id AND ${SCORE_BIN_SQL} = stat_score_histogram.score)
     WHERE (subject_id, score) IN (SELECT a.subject_id, ${SCORE_BIN_SQL} FROM attempts a WHERE ${completed("a", id)} AND a.total > 0)`,
    `UPDATE stat_daily_scores SET
       attempts = attempts - (SELECT count(*) FROM attempts a WHERE ${completed("a", id)} AND a.score IS NOT NULL
         AND a.subject_id = stat_daily_scores.subject_id AND ${italianDaySql("a.started_at")} = stat_daily_scores.day),
       score_sum = score_sum - (SELECT coalesce(sum(a.score), 0) FROM attempts a WHERE ${completed("a", id)} AND a.score IS NOT NULL
         AND a.subject_id = stat_daily_scores.subject_id AND ${italianDaySql("a.started_at")} = stat_daily_scores.day)
     WHERE (subject_id, day) IN (SELECT a.subject_id, ${italianDaySql("a.started_at")} FROM attempts a WHERE ${completed("a", id)})`,
    `UPDATE stat_topic_accuracy SET
       answered = answered - (SELECT count(*) FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
         JOIN questions q ON q.id = aa.question_id
         WHERE ${completed("a", id)} AND aa.correct IS NOT NULL AND q.topic_id = stat_topic_accuracy.topic_id),
       correct = correct - (SELECT count(*) FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
         JOIN questions q ON q.id = aa.question_id
         WHERE ${completed("a", id)} AND aa.correct = 1 AND q.topic_id = stat_topic_accuracy.topic_id)
     WHERE topic_id IN (SELECT q.topic_id FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
         JOIN questions q ON q.id = aa.question_id WHERE ${completed("a", id)})`,
    `UPDATE stat_question_accuracy SET
       answered = answered - (SELECT count(*) FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
         WHERE ${anyCompleted} AND aa.correct IS NOT NULL AND aa.question_id = stat_question_accuracy.question_id),
       correct = correct - (SELECT count(*) FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
         WHERE ${anyCompleted} AND aa.correct = 1 AND aa.question_id = stat_question_accuracy.question_id)
     WHERE question_id IN (SELECT aa.question_id FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id WHERE ${anyCompleted})`,
    "DELETE FROM stat_question_accuracy WHERE answered <= 0",
    "DELETE FROM stat_score_histogram WHERE count <= 0",
    "DELETE FROM stat_daily_scores WHERE attempts <= 0",
    BUMP_STATS_VERSION_SQL,
  ].map((statement) => db.run(sql.raw(statement)));
  // Class invitations are addressed to the e-mail, not the account: they go too.
  const account = await db.select({ email: users.email }).from(users).where(eq(users.id, id)).get();
  await db.batch([
    ...(statements as [(typeof statements)[number], ...(typeof statements)[number][]]),
    db.delete(classInvitations).where(eq(classInvitations.email, (account?.email ?? "").trim().toLowerCase())),
    db.delete(pageViews).where(eq(pageViews.userId, id)),
    db.update(consentRecords).set({ userId: null }).where(eq(consentRecords.userId, id)),
    // Cascades: sessions, login events, quizzes, attempts and answers, reports, friendships,
    // simulation attempts and permissions, rush progress; the question memories by a trigger (no foreign key).
    db.delete(users).where(eq(users.id, id)),
  ]);
}

export type SessionView = { current: boolean; device: string; createdAt: string; lastUsedAt: string };

/** The sessions shown on /profilo: the device in words, when it signed in, when it was last used. */
export async function activeSessions(db: Db, user: Pick<SessionUser, "id" | "sessionId">): Promise<SessionView[]> {
  return (await listSessions(db, user)).map(({ userAgent, ...session }) => ({
    ...session,
    device: describeDevice(userAgent),
  }));
}

/** Deletes the account once the typed confirmation matches (the danger zone of /profilo and DELETE /api/profile). */
export async function deleteAccountConfirmed(db: Db, userId: number, confirm: string): Promise<void> {
  if (confirm.trim() !== DELETE_ACCOUNT_CONFIRMATION) {
    throw new HttpError(400, `Conferma non valida: scrivi ${DELETE_ACCOUNT_CONFIRMATION} per eliminare l'account.`);
  }
  await deleteAccount(db, userId);
}
