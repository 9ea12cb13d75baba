// Review of mistakes: questions whose latest (non-blank) answer by this user was wrong.
// A correct answer in a later attempt takes the question off the list. A sealed question (any live
// simulation's, the user's open Rush quiz's) is left out while it is: a redo of it would be refused. Ordered by the
// learning engine's due date (question_memory), most overdue first.
import { sql } from "drizzle-orm";
import { REVIEW_COOLDOWN_MS } from "~/lib/constants";
import { isReviewPaused, reviewReadyAt } from "~/lib/review";
import type { Db } from "./db/client.server";
import { sealedQuestionIdsSql } from "~/server/simulation/seal.server";

export type WrongQuestion = {
  id: number;
  subjectId: number;
  subjectName: string;
  topicId: number | null;
  topicName: string | null;
  lastWrongAt: string;
  readyAt: string;
  paused: boolean;
  questionText: string;
  /** The latest wrong answer came from a quiz taken offline (issue 47). */
  offline: boolean;
};

export async function listWrongQuestions(db: Db, userId: number, now = Date.now()): Promise<WrongQuestion[]> {
  const rows = await db.all<{
    id: number;
    subject_id: number;
    subject_name: string;
    topic_id: number | null;
    topic_name: string | null;
    last_at: number;
    stem: string;
    offline: number;
  }>(sql`
    WITH latest AS (
      SELECT aa.question_id, aa.correct, aa.answered_at, a.offline,
        ROW_NUMBER() OVER (PARTITION BY aa.question_id ORDER BY aa.answered_at DESC, aa.id DESC) AS rn
      FROM attempt_answers aa JOIN attempts a ON a.id = aa.attempt_id
      WHERE a.user_id = ${userId} AND a.status = 'completed' AND aa.correct IS NOT NULL
    )
    SELECT q.id, q.subject_id, s.name AS subject_name, q.topic_id, t.name AS topic_name,
      l.answered_at AS last_at, q.stem, l.offline
    FROM latest l
    JOIN questions q ON q.id = l.question_id
    JOIN subjects s ON s.id = q.subject_id
    LEFT JOIN topics t ON t.id = q.topic_id
    LEFT JOIN question_memory m ON m.user_id = ${userId} AND m.question_id = q.id
    WHERE l.rn = 1 AND l.correct = 0 AND q.active = 1 AND q.id NOT IN (${sealedQuestionIdsSql(userId, now)})
    ORDER BY coalesce(m.due, l.answered_at + ${REVIEW_COOLDOWN_MS}) ASC, l.answered_at DESC`);
  return rows.map((r) => ({
    id: r.id,
    subjectId: r.subject_id,
    subjectName: r.subject_name,
    topicId: r.topic_id,
    topicName: r.topic_name,
    lastWrongAt: new Date(r.last_at).toISOString(),
    readyAt: new Date(reviewReadyAt(r.last_at)).toISOString(),
    paused: isReviewPaused(r.last_at, now),
    questionText: r.stem,
    offline: r.offline === 1,
  }));
}
