// Site-wide aggregates (score histogram, topic accuracy, daily averages) kept up to date as each
// attempt lands, so analytics read a few small rows instead of every answer.
import { sql } from "drizzle-orm";
import { scoreBin } from "~/lib/analytics";
import { italianDay } from "~/lib/days";
import type { Db } from "./db/client.server";
import { REBUILD_AGGREGATES_SQL } from "./db/aggregate-sql";
import { statDailyScores, statScoreHistogram, statTopicAccuracy } from "./db/schema";

export type LandedAttempt = {
  subjectId: number | null;
  startedAt: Date;
  correct: number;
  total: number;
  score: number | null;
  /** One entry per answered (non-blank) question. */
  answers: { topicId: number | null; correct: boolean }[];
};

/**
 * Statements that add one completed attempt to the aggregates; run them in the same batch as the attempt.
 * Query builders, not `db.run(sql\`...\`)`: drizzle's D1 batch cannot bind a raw statement that has parameters.
 * The histogram's write raises the stats version (a trigger: migrations/NNNN_stats_triggers.sql): the dashboards' shared snapshot follows.
 */
export function aggregateStatementsFor(db: Db, attempt: LandedAttempt) {
  if (attempt.subjectId == null || attempt.total <= 0) return [];
  const day = italianDay(attempt.startedAt);
  const statements = [
    db
      .insert(statScoreHistogram)
      .values({
        subjectId: attempt.subjectId,
        score: scoreBin(attempt.score, attempt.correct, attempt.total),
        count: 1,
      })
      .onConflictDoUpdate({
        target: [statScoreHistogram.subjectId, statScoreHistogram.score],
        set: { count: sql`${statScoreHistogram.count} + 1` },
      }),
    db
      .insert(statDailyScores)
      .values({ subjectId: attempt.subjectId, day, attempts: 1, scoreSum: attempt.score ?? 0 })
      .onConflictDoUpdate({
        target: [statDailyScores.subjectId, statDailyScores.day],
        set: {
          attempts: sql`${statDailyScores.attempts} + 1`,
          scoreSum: sql`${statDailyScores.scoreSum} + excluded.score_sum`,
        },
      }),
  ];
  const perTopic = new Map<number, { answered: number; correct: number }>();
  for (const answer of attempt.answers) {
    if (answer.topicId == null) continue;
    const t = perTopic.get(answer.topicId) ?? { answered: 0, correct: 0 };
    t.answered++;
    if (answer.correct) t.correct++;
    perTopic.set(answer.topicId, t);
  }
  const topicStatements = [...perTopic].map(([topicId, t]) =>
    db
      .insert(statTopicAccuracy)
      .values({ topicId, subjectId: attempt.subjectId!, answered: t.answered, correct: t.correct })
      .onConflictDoUpdate({
        target: statTopicAccuracy.topicId,
        set: {
          answered: sql`${statTopicAccuracy.answered} + excluded.answered`,
          correct: sql`${statTopicAccuracy.correct} + excluded.correct`,
        },
      }),
  );
  return [...statements, ...topicStatements];
}

/** Rebuilds every aggregate from the attempts (recalc-stats, after imports). */
export async function rebuildAggregates(db: Db): Promise<void> {
  const [first, ...rest] = REBUILD_AGGREGATES_SQL.map((statement) => db.run(sql.raw(statement)));
  await db.batch([first!, ...rest]);
}
