// Small, known data sets for the analytics, friends and profile tests (ids far from the seed's).
import { env } from "cloudflare:test";
import { REBUILD_AGGREGATES_SQL } from "~/server/db/aggregate-sql";

const DAY = 86_400_000;

export async function insertUser(id: number, email: string, username: string, name = `Utente ${id}`) {
  await env.DB.prepare(
    "INSERT OR IGNORE INTO users (id, email, name, first_name, username, role, status, share_code, created_at) VALUES (?, ?, ?, ?, ?, 'studente', 'attivo', ?, ?)",
  )
    .bind(id, email, name, name.split(" ")[0], username, `U${String(id).padStart(5, "0")}`, Date.now() - 30 * DAY)
    .run();
}

/** Completed attempts with total 31 and `correct` = the score (no wrong answers), one per day back from now. */
export async function insertAttempts(
  userId: number,
  subjectId: number,
  scores: number[],
  firstId: number,
  withAnswersOn?: number,
) {
  const now = Date.now();
  const statements: D1PreparedStatement[] = [];
  scores.forEach((score, i) => {
    const id = firstId + i;
    const startedAt = now - (scores.length - i) * DAY;
    statements.push(
      env.DB.prepare(
        "INSERT INTO attempts (id, user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score) VALUES (?, ?, ?, 'completed', ?, ?, 600, 31, ?, 0, ?, ?)",
      ).bind(id, userId, subjectId, startedAt, startedAt + 600_000, score, 31 - score, score),
    );
    if (withAnswersOn) {
      // Two answers on the given question: one right, one wrong.
      statements.push(
        env.DB.prepare(
          "INSERT INTO attempt_answers (attempt_id, position, question_id, correct, time_sec, answered_at) VALUES (?, 0, ?, 1, 20, ?), (?, 1, ?, 0, 20, ?)",
        ).bind(id, withAnswersOn, startedAt, id, withAnswersOn, startedAt),
      );
    }
  });
  await env.DB.batch(statements);
}

export async function rebuild() {
  await env.DB.batch(REBUILD_AGGREGATES_SQL.map((s) => env.DB.prepare(s)));
}

export async function aggregateSnapshot() {
  const rows = async (q: string) => (await env.DB.prepare(q).all()).results;
  return {
    histogram: await rows(
      "SELECT subject_id, score, count FROM stat_score_histogram WHERE count > 0 ORDER BY subject_id, score",
    ),
    daily: await rows(
      "SELECT subject_id, day, attempts, round(score_sum, 3) AS s FROM stat_daily_scores WHERE attempts > 0 ORDER BY subject_id, day",
    ),
    topics: await rows(
      "SELECT topic_id, answered, correct FROM stat_topic_accuracy WHERE answered > 0 ORDER BY topic_id",
    ),
  };
}
