// Quizzes downloaded for offline use (issue 47). One is drawn by the same draw as any quiz (POST /api/quiz with
// `offline`, so it counts against the same draw limit) and leaves the server without keys like any other; what is
// particular to it lives here:
//   - what the student got is fingerprinted at the download (quizzes.offline_hash) and compared at the submission:
//     after an edit of a text or an option in between the answers belong to other questions, so it is refused (409);
//   - it stays open a week from the download (attemptDeadline in app/lib/timer.ts, attempts.offline), its questions
//     sealed for their owner meanwhile (simulation/seal.server.ts);
//   - its start and its time are the device's (clamped to what the server saw pass): labelled as taken offline and
//     never ranked by time (a Rush quiz, the one thing ranked by time, cannot be downloaded).
// The submission is POST /api/quiz/{id}/attempt, idempotent per quiz: a second send answers the same attempt.
import { asc, eq } from "drizzle-orm";
import { quizFingerprint, type AskedQuestion } from "~/lib/quiz-fingerprint";
import type { Db } from "./db/client.server";
import { questions, quizQuestions, quizzes, type Question } from "./db/schema";
import { HttpError } from "./errors.server";

export const OFFLINE_TEXT = {
  rush: "Un quiz Rush non si può scaricare per l'offline: avvialo dalla pagina Quiz Rush quando sei connesso.",
  redo: "Il ripasso degli errori non si può scaricare per l'offline: scarica un quiz di una materia.",
  edited:
    "Una domanda di questo quiz è stata modificata dopo che l'hai scaricato: il tentativo non può essere valutato. Le tue risposte restano su questo dispositivo.",
} as const;

/** A question as the student got it (publicQuestion's text and options), for the fingerprint. */
function asked(q: Question): AskedQuestion {
  const options = q.type === "mc" ? (q.options ?? []).map((text) => ({ option_text: text })) : [];
  return { id: q.id, type: q.type, question_text: q.stem, options };
}

/** The quiz's questions in their drawn order. */
function quizRows(db: Db, quizId: number) {
  return db
    .select({ question: questions })
    .from(quizQuestions)
    .innerJoin(questions, eq(questions.id, quizQuestions.questionId))
    .where(eq(quizQuestions.quizId, quizId))
    .orderBy(asc(quizQuestions.position))
    .all();
}

/** Right after an offline draw: stores the fingerprint of what the student is about to download. */
export async function storeOfflineFingerprint(db: Db, quizId: number): Promise<void> {
  const rows = await quizRows(db, quizId);
  const hash = await quizFingerprint(rows.map((r) => asked(r.question)));
  await db.update(quizzes).set({ offlineHash: hash }).where(eq(quizzes.id, quizId));
}

/** At the submission of a downloaded quiz: 409 when its questions are no longer what was downloaded. */
export async function assertAsDownloaded(offlineHash: string | null, ordered: readonly Question[]): Promise<void> {
  if (offlineHash == null) return;
  if ((await quizFingerprint(ordered.map(asked))) !== offlineHash) throw new HttpError(409, OFFLINE_TEXT.edited);
}

/**
 * The start and the time of a submission. Online: the draw's instant, and the time sent up to what passed since.
 * Offline: the device's start (`deviceStartedAt`) between the download and now, and its time up to what passed since
 * that start; a device without a start counts from the download.
 */
export function submissionTimes(
  drawnAt: Date,
  sent: { timeTaken: number; deviceStartedAt?: number | null },
  offline: boolean,
  now: number,
): { startedAt: Date; timeTaken: number } {
  const start = offline
    ? Math.min(now, Math.max(drawnAt.getTime(), sent.deviceStartedAt ?? drawnAt.getTime()))
    : drawnAt.getTime();
  const elapsed = Math.ceil((now - start) / 1000);
  return { startedAt: new Date(start), timeTaken: Math.max(0, Math.min(Math.round(sent.timeTaken), elapsed)) };
}
