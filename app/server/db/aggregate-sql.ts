// Bulk rebuild of the site-wide aggregates from attempts and answers (used by the seed and recalc-stats).
// Plain SQL with no imports, so the Node seed script can use it too.

/**
 * The histogram bin of a completed attempt (alias `a`): its summary score (the official one, with the
 * -0.1 per wrong answer, as the dashboard's 'Tua media' uses) rounded to a whole point and kept in 0-31;
 * the list score when no summary score was stored. `scoreBin` in ~/lib/analytics is the same in TypeScript.
 */
/**
 * The calendar day in Italy, as 'YYYY-MM-DD', of an epoch-milliseconds column. Europe/Rome is UTC+1,
 * and UTC+2 from the last Sunday of March to the last Sunday of October (the switch at 01:00 UTC; the
 * first Sunday on or after the 25th is the month's last). SQLite knows no time zones, so the EU rule is
 * written out. `italianDay` in ~/lib/days is the same in TypeScript; a test compares the two hour by hour.
 */
export function italianDaySql(ms: string): string {
  const t = `${ms} / 1000, 'unixepoch'`;
  const year = `strftime('%Y', ${t})`;
  const summer = `datetime(${t}) >= date(${year} || '-03-25', 'weekday 0') || ' 01:00:00' AND datetime(${t}) < date(${year} || '-10-25', 'weekday 0') || ' 01:00:00'`;
  return `(CASE WHEN ${summer} THEN date(${t}, '+2 hours') ELSE date(${t}, '+1 hour') END)`;
}

/**
 * Raises the stats version (issue 33: the dashboards' shared snapshot is rebuilt). A trigger on stat_score_histogram
 * raises it too, for every writer of the aggregates; this says it outright where aggregates are rebuilt or removed.
 */
export const BUMP_STATS_VERSION_SQL = "UPDATE stats_version SET version = version + 1 WHERE id = 1";

export const SCORE_BIN_SQL = "CAST(round(max(0, min(31, coalesce(a.score, a.correct * 31.0 / a.total)))) AS INTEGER)";
export const REBUILD_AGGREGATES_SQL: string[] = [
  "DELETE FROM stat_score_histogram",
  `INSERT INTO stat_score_histogram (subject_id, score, count)
     SELECT a.subject_id, ${SCORE_BIN_SQL} AS s, count(*)
     FROM attempts a WHERE a.status = 'completed' AND a.total > 0 AND a.subject_id IS NOT NULL
     GROUP BY a.subject_id, s`,
  "DELETE FROM stat_topic_accuracy",
  `INSERT INTO stat_topic_accuracy (topic_id, subject_id, answered, correct)
     SELECT q.topic_id, q.subject_id, count(*), sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END)
     FROM attempt_answers aa
     JOIN attempts a ON a.id = aa.attempt_id AND a.status = 'completed'
     JOIN questions q ON q.id = aa.question_id
     WHERE q.topic_id IS NOT NULL AND aa.correct IS NOT NULL
     GROUP BY q.topic_id, q.subject_id`,
  "DELETE FROM stat_question_accuracy",
  `INSERT INTO stat_question_accuracy (question_id, answered, correct)
     SELECT aa.question_id, count(*), sum(CASE WHEN aa.correct = 1 THEN 1 ELSE 0 END)
     FROM attempt_answers aa
     JOIN attempts a ON a.id = aa.attempt_id AND a.status = 'completed'
     WHERE aa.correct IS NOT NULL
     GROUP BY aa.question_id`,
  "DELETE FROM stat_daily_scores",
  `INSERT INTO stat_daily_scores (subject_id, day, attempts, score_sum)
     SELECT subject_id, ${italianDaySql("started_at")} AS d, count(*), sum(score)
     FROM attempts WHERE status = 'completed' AND subject_id IS NOT NULL AND score IS NOT NULL
     GROUP BY subject_id, d`,
  BUMP_STATS_VERSION_SQL,
];
