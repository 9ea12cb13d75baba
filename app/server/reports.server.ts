// Reports of faulty questions, from the quiz runner and from the summary, and the author's own list.
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import {
  EMPTY_REPORT_MESSAGE,
  normaliseReportStatus,
  REPORT_STATUS_LABELS,
  type UserReportStatus,
} from "~/lib/report-status";
import type { Db } from "./db/client.server";
import { attemptAnswers, attempts, questions, reports, subjects, topics } from "./db/schema";
import { HttpError, withLabels } from "./errors.server";
import { canSeeKeys, readSeal, servedAttemptSql } from "~/server/simulation/seal.server";

export { reportSchema, type ReportInput } from "~/lib/forms/report";
import type { ReportInput } from "~/lib/forms/report";

export async function createReport(db: Db, userId: number, input: ReportInput, now = Date.now()) {
  const question = await db
    .select({ id: questions.id })
    .from(questions)
    .where(eq(questions.id, input.questionId))
    .get();
  if (!question) throw new HttpError(404, "Domanda non trovata.");
  if (input.attemptId != null) {
    const attempt = await db
      .select({ userId: attempts.userId })
      .from(attempts)
      .where(eq(attempts.id, input.attemptId))
      .get();
    if (!attempt || attempt.userId !== userId) throw new HttpError(404, "Tentativo non trovato");
    const inAttempt = await db
      .select({ id: attemptAnswers.id })
      .from(attemptAnswers)
      .where(and(eq(attemptAnswers.attemptId, input.attemptId), eq(attemptAnswers.questionId, input.questionId)))
      .get();
    if (!inAttempt) throw new HttpError(400, "La domanda non fa parte di questo tentativo.");
  }
  const message = (input.message ?? input.note ?? "").trim() || EMPTY_REPORT_MESSAGE;
  const row = await db
    .insert(reports)
    .values({
      userId,
      questionId: input.questionId,
      attemptId: input.attemptId ?? null,
      message,
      userAnswerKey: input.userAnswerKey?.trim() || null,
      status: "open",
      createdAt: new Date(now),
    })
    .returning({ id: reports.id })
    .get();
  return { ok: true, id: row.id };
}

export type MyReport = {
  id: number;
  title: string;
  subject: string | null;
  topic: string | null;
  questionId: number;
  status: UserReportStatus;
  statusLabel: string;
  message: string;
  /** The answer the author gave with the report; withheld while the question is sealed (simulation/seal.server.ts). */
  userAnswer: string | null;
  /** Only once the author has submitted an attempt the server served with this question, never while sealed. */
  correctAnswer: string | null;
  adminNotes: string | null;
  createdAt: string;
  updatedAt: string | null;
};

const TITLE_MAX = 90;

export async function listMyReports(db: Db, userId: number, now = Date.now()): Promise<MyReport[]> {
  const [rows, sealed] = await Promise.all([
    db
      .select({
        report: reports,
        stem: questions.stem,
        type: questions.type,
        options: questions.options,
        correctIndex: questions.correctIndex,
        accepted: questions.acceptedAnswers,
        subject: subjects.name,
        topic: topics.name,
        answered: sql<number>`EXISTS (SELECT 1 FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
          WHERE a.user_id = ${userId} AND ${servedAttemptSql("a")} AND aa.question_id = ${reports.questionId})`,
      })
      .from(reports)
      .innerJoin(questions, eq(questions.id, reports.questionId))
      .leftJoin(subjects, eq(subjects.id, questions.subjectId))
      .leftJoin(topics, eq(topics.id, questions.topicId))
      .where(eq(reports.userId, userId))
      .orderBy(desc(reports.createdAt), desc(reports.id))
      .all(),
    readSeal(db, userId, now),
  ]);
  return rows.map(({ report, stem, type, options, correctIndex, accepted, subject, topic, answered }) => {
    const access = canSeeKeys({ served: Boolean(answered), seal: sealed }, report.questionId);
    const status = normaliseReportStatus(report.status);
    const correct = type === "mc" ? (options?.[correctIndex ?? -1] ?? null) : (accepted ?? []).join(" / ") || null;
    return {
      id: report.id,
      title: stem.length > TITLE_MAX ? `${stem.slice(0, TITLE_MAX - 1)}…` : stem,
      subject,
      topic,
      questionId: report.questionId,
      status,
      statusLabel: REPORT_STATUS_LABELS[status],
      message: report.message,
      userAnswer: access.ownAnswer ? report.userAnswerKey : null,
      correctAnswer: access.keys ? correct : null,
      adminNotes: report.adminNotes,
      createdAt: report.createdAt.toISOString(),
      updatedAt: report.updatedAt?.toISOString() ?? null,
    };
  });
}
