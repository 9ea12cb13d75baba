// The part of a student's analytics every student shares (issue 33, point 3): subjects, topics, units, the default
// edition's topic → unit mix, the peer histograms, topic and unit accuracies and the daily averages. It is composed
// once per stats version (stats_version, raised by triggers and by the aggregates' writers: see schema.ts), stored as
// one JSON row (stats_snapshot) and kept per isolate, so a dashboard's cost does not grow with the bank or the history.
//
// One batch, sent with the student's own reads: the version row (and the stored snapshot, only when this isolate's copy
// is older), and the shared tables guarded by the version: each is read only when neither this isolate nor the stored
// snapshot is at the current version (the bank's shape only when neither is at the current taxonomy). The guard is the
// outer loop of a CROSS JOIN, so a warm call reads a couple of rows per statement, whatever the bank's size. A miss
// composes the snapshot from the rows of that same batch (one transaction: consistent with the version read) and
// stores it, the one extra round trip.
import { and, asc, eq, getTableColumns, gte, type SQL, sql } from "drizzle-orm";
import { fullHistogram, histogramMean, histogramPercentile, round1 } from "~/lib/analytics";
import type { SiteAggregate } from "~/lib/analytics-types";
import { ANALYTICS_TREND_DAYS } from "~/lib/constants";
import { addDays, italianDay } from "~/lib/days";
import { editionTopicUnits, sumByUnit } from "~/lib/unit-stats";
import type { Db } from "./db/client.server";
import {
  examEditions,
  questionEditionUnits,
  questions,
  statDailyScores,
  statScoreHistogram,
  statsSnapshot,
  statsVersion,
  statTopicAccuracy,
  subjects,
  topics,
  units,
} from "./db/schema";
import { editionsFromRows, pickDefaultEdition } from "./editions.server";

/** A subject's shared part, in the order and shape of SubjectAnalytics' fields. */
export type SharedSubject = {
  id: number;
  name: string;
  /** Topic id → name. */
  topics: Record<string, string>;
  units: { number: number; title: string; credits: number }[];
  topicUnits: Record<string, number | null>;
  /** attemptsOverTime holds every day from the snapshot's dailyFrom; a request keeps its own window. */
  siteAggregate: SiteAggregate;
};

/** What stats_snapshot's body holds, with the version and taxonomy it was composed at. */
export type SharedSnapshot = { version: number; taxonomy: number; dailyFrom: string; subjects: SharedSubject[] };

type Taxonomy = Omit<SharedSubject, "siteAggregate">[];
type HistogramRow = { subjectId: number; score: number; count: number };
type TopicStatRow = { topicId: number; subjectId: number; answered: number; correct: number };
type DailyRow = { subjectId: number; day: string; attempts: number; scoreSum: number };

/** This isolate's copy. */
let cached: SharedSnapshot | null = null;

/** Forgets this isolate's copy (tests: a fresh isolate). */
export function forgetSharedStats(): void {
  cached = null;
}

/** The first day of the daily averages a dashboard shows at `now`. */
export const trendSince = (now: number) => addDays(italianDay(now), -ANALYTICS_TREND_DAYS);

/**
 * The shared part of every subject's analytics at `now`, newest stats version, ready to merge with a student's own.
 * The objects are the caller's (a copy of the isolate's).
 */
export async function sharedStats(db: Db, now = Date.now()): Promise<SharedSubject[]> {
  const since = trendSince(now);
  // A day of margin: a request near midnight may ask for the day before the one the snapshot was built on.
  const dailyFrom = addDays(since, -1);
  const seen = cached;
  const seenVersion = seen?.version ?? -1;
  const seenTaxonomy = seen?.taxonomy ?? -1;
  const v = statsVersion;
  const s = statsSnapshot;
  // Neither this isolate nor the stored snapshot is at the current version (or the current taxonomy).
  const needStats: SQL = sql`${v.id} = 1 AND ${v.version} IS NOT ${seenVersion} AND NOT EXISTS (SELECT 1 FROM stats_snapshot ss WHERE ss.id = 1 AND ss.version = ${v.version})`;
  const needTaxonomy: SQL = sql`${needStats} AND ${v.taxonomy} IS NOT ${seenTaxonomy} AND NOT EXISTS (SELECT 1 FROM stats_snapshot ss WHERE ss.id = 1 AND ss.taxonomy = ${v.taxonomy})`;
  const [head, subjectRows, topicRows, unitRows, editionRows, mixRows, histogramRows, topicStatRows, dailyRows] =
    await db.batch([
      db
        .select({
          version: v.version,
          taxonomy: v.taxonomy,
          // Aliased: D1 answers rows by column name, and "version" is in both tables.
          snapshotVersion: sql<number | null>`${s.version}`.as("snapshot_version"),
          // The stored body, only when this isolate can use it: it is at the current version, or (this isolate's copy
          // being of an older taxonomy) its taxonomy is the current one.
          body: sql<
            string | null
          >`CASE WHEN ${v.version} IS NOT ${seenVersion} AND ${s.taxonomy} = ${v.taxonomy} AND (${s.version} = ${v.version} OR ${v.taxonomy} IS NOT ${seenTaxonomy}) THEN ${s.body} END`,
        })
        .from(v)
        .leftJoin(s, eq(s.id, 1))
        .where(eq(v.id, 1)),
      db
        .select({ id: subjects.id, name: subjects.name })
        .from(v)
        .crossJoin(subjects)
        .where(needTaxonomy)
        .orderBy(asc(subjects.id)),
      db
        .select({
          id: topics.id,
          subjectId: topics.subjectId,
          name: topics.name,
          unit: topics.unit,
          legacy: topics.legacy,
        })
        .from(v)
        .crossJoin(topics)
        .where(needTaxonomy)
        .orderBy(asc(topics.subjectId), asc(topics.id)),
      db
        .select({ subjectId: units.subjectId, number: units.number, title: units.title, credits: units.credits })
        .from(v)
        .crossJoin(units)
        .where(needTaxonomy)
        .orderBy(asc(units.subjectId), asc(units.number)),
      db
        .select(getTableColumns(examEditions))
        .from(v)
        .crossJoin(examEditions)
        .where(needTaxonomy)
        .orderBy(asc(examEditions.academicYear)),
      // The default edition's topic → unit mix: the one read that grows with the bank. CROSS JOINs keep SQLite's
      // join order: the guard, the default edition, its question units, their questions.
      db
        .select({ topicId: questions.topicId, unit: questionEditionUnits.unit, n: sql<number>`count(*)` })
        .from(v)
        .crossJoin(examEditions)
        .crossJoin(questionEditionUnits)
        .crossJoin(questions)
        .where(
          and(
            needTaxonomy,
            eq(examEditions.isDefault, true),
            eq(questionEditionUnits.editionId, examEditions.id),
            eq(questions.id, questionEditionUnits.questionId),
          ),
        )
        .groupBy(questions.topicId, questionEditionUnits.unit),
      db
        .select({
          subjectId: statScoreHistogram.subjectId,
          score: statScoreHistogram.score,
          count: statScoreHistogram.count,
        })
        .from(v)
        .crossJoin(statScoreHistogram)
        .where(needStats),
      db
        .select({
          topicId: statTopicAccuracy.topicId,
          subjectId: statTopicAccuracy.subjectId,
          answered: statTopicAccuracy.answered,
          correct: statTopicAccuracy.correct,
        })
        .from(v)
        .crossJoin(statTopicAccuracy)
        .where(needStats),
      db
        .select({
          subjectId: statDailyScores.subjectId,
          day: statDailyScores.day,
          attempts: statDailyScores.attempts,
          scoreSum: statDailyScores.scoreSum,
        })
        .from(v)
        .crossJoin(statDailyScores)
        .where(and(needStats, gte(statDailyScores.day, dailyFrom)))
        .orderBy(asc(statDailyScores.day)),
    ]);

  const current = head[0];
  let snapshot: SharedSnapshot;
  if (!current) {
    // No version row (the triggers migration makes it and nothing deletes it): make one newer than any copy, and ask again.
    await db.insert(statsVersion).values({ id: 1, version: Date.now(), taxonomy: Date.now() }).onConflictDoNothing();
    cached = null;
    return sharedStats(db, now);
  }
  if (seen && seen.version === current.version) {
    snapshot = seen;
  } else if (current.body != null && current.snapshotVersion === current.version) {
    snapshot = JSON.parse(current.body) as SharedSnapshot;
  } else {
    // A miss: the stats were read above; the taxonomy too, unless this isolate or the stored snapshot has it.
    const taxonomy: Taxonomy =
      seen && seen.taxonomy === current.taxonomy
        ? seen.subjects
        : current.body != null
          ? (JSON.parse(current.body) as SharedSnapshot).subjects
          : composeTaxonomy(subjectRows, topicRows, unitRows, editionRows, mixRows);
    snapshot = {
      version: current.version,
      taxonomy: current.taxonomy,
      dailyFrom,
      subjects: composeStats(taxonomy, histogramRows, topicStatRows, dailyRows),
    };
    await storeSnapshot(db, snapshot);
  }
  cached = snapshot;

  // The request's window of daily averages; a request older than the snapshot's days reads its own.
  let trend: DailyRow[] | null = null;
  if (since < snapshot.dailyFrom) {
    trend = await db
      .select({
        subjectId: statDailyScores.subjectId,
        day: statDailyScores.day,
        attempts: statDailyScores.attempts,
        scoreSum: statDailyScores.scoreSum,
      })
      .from(statDailyScores)
      .where(gte(statDailyScores.day, since))
      .orderBy(asc(statDailyScores.day));
  }
  return structuredClone(snapshot.subjects).map((subject) => ({
    ...subject,
    siteAggregate: {
      ...subject.siteAggregate,
      attemptsOverTime: trend
        ? attemptsOverTime(trend, subject.id)
        : subject.siteAggregate.attemptsOverTime.filter((d) => d.date >= since),
    },
  }));
}

/** Stores a composed snapshot unless a newer one is there already (isolates race; the newest wins). */
async function storeSnapshot(db: Db, snapshot: SharedSnapshot): Promise<void> {
  const row = {
    id: 1,
    version: snapshot.version,
    taxonomy: snapshot.taxonomy,
    dailyFrom: snapshot.dailyFrom,
    body: JSON.stringify(snapshot),
    builtAt: new Date(),
  };
  await db
    .insert(statsSnapshot)
    .values(row)
    .onConflictDoUpdate({
      target: statsSnapshot.id,
      set: {
        version: row.version,
        taxonomy: row.taxonomy,
        dailyFrom: row.dailyFrom,
        body: row.body,
        builtAt: row.builtAt,
      },
      // A newer version, or the same one with more days (a request near midnight built it a day earlier).
      setWhere: sql`${statsSnapshot.version} < ${row.version} OR (${statsSnapshot.version} = ${row.version} AND ${statsSnapshot.dailyFrom} > ${row.dailyFrom})`,
    });
}

/** Subjects with their topics, units and each topic's unit (the default edition's when it has a syllabus). */
function composeTaxonomy(
  subjectRows: { id: number; name: string }[],
  topicRows: { id: number; subjectId: number; name: string; unit: number | null; legacy: boolean }[],
  unitRows: { subjectId: number; number: number; title: string; credits: number }[],
  editionRows: (typeof examEditions.$inferSelect)[],
  mixRows: { topicId: number | null; unit: number; n: number }[],
): Taxonomy {
  // The default edition's units and topic → unit map (issue 29); the units table (2025/26) only without an edition.
  const edition = pickDefaultEdition(editionsFromRows(editionRows)) ?? null;
  const byEdition = edition && mixRows.length ? editionTopicUnits(mixRows) : null;
  return subjectRows.map((subject) => {
    const subjectTopics = topicRows.filter((t) => t.subjectId === subject.id);
    return {
      id: subject.id,
      name: subject.name,
      topics: Object.fromEntries(subjectTopics.map((t) => [String(t.id), t.name])),
      // By syllabus unit: topics are its sub-topics (legacy topics belong to none).
      units: (byEdition ? edition!.format.units : unitRows)
        .filter((u) => u.subjectId === subject.id)
        .map((u) => ({ number: u.number, title: u.title, credits: u.credits })),
      topicUnits: Object.fromEntries(
        subjectTopics.map((t) => [String(t.id), t.legacy ? null : byEdition ? (byEdition.get(t.id) ?? null) : t.unit]),
      ),
    };
  });
}

/** Each subject's site aggregate: the score distribution and its percentiles, topic and unit accuracy, daily averages. */
function composeStats(
  taxonomy: Taxonomy,
  histogramRows: HistogramRow[],
  topicStatRows: TopicStatRow[],
  dailyRows: DailyRow[],
): SharedSubject[] {
  return taxonomy.map((subject) => {
    const bins = fullHistogram(
      histogramRows.filter((h) => h.subjectId === subject.id).map((h) => ({ score: h.score, count: h.count })),
    );
    const mean = histogramMean(bins);
    const topicAccuracy: Record<string, number> = {};
    for (const row of topicStatRows) {
      if (row.subjectId === subject.id && row.answered > 0)
        topicAccuracy[row.topicId] = Math.round((row.correct / row.answered) * 1000) / 1000;
    }
    const unitAccuracy: Record<string, number> = {};
    const siteByUnit = sumByUnit(
      Object.fromEntries(
        topicStatRows
          .filter((r) => r.subjectId === subject.id)
          .map((r) => [String(r.topicId), { answered: r.answered, correct: r.correct }]),
      ),
      subject.topicUnits,
    );
    for (const [unit, c] of siteByUnit)
      if (c.answered > 0) unitAccuracy[unit] = Math.round((c.correct / c.answered) * 1000) / 1000;
    return {
      ...subject,
      siteAggregate: {
        scoreDistribution: bins,
        attemptsOverTime: attemptsOverTime(dailyRows, subject.id),
        topicAccuracy,
        unitAccuracy,
        p80: histogramPercentile(bins, 80),
        p90: histogramPercentile(bins, 90),
        average: mean == null ? null : round1(mean),
      },
    };
  });
}

/** A subject's site-wide average score per day with attempts, in day order. */
function attemptsOverTime(dailyRows: DailyRow[], subjectId: number) {
  return dailyRows
    .filter((d) => d.subjectId === subjectId && d.attempts > 0)
    .map((d) => ({ date: d.day, avgScore: round1(d.scoreSum / d.attempts), attempts: d.attempts }));
}
