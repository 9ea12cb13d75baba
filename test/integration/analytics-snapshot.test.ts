// Issue 33, point 3: the part of the dashboard every student shares is one snapshot per stats version, kept per
// isolate. The analytics stay exactly what a from-scratch computation gives, through every kind of change, and a
// warm call reads a bounded number of shared rows whatever the bank's size.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { StudentAnalytics } from "~/server/analytics.server";
import { studentAnalytics } from "~/server/analytics.server";
import { aggregateStatementsFor, rebuildAggregates } from "~/server/aggregates.server";
import { getDb } from "~/server/db/client.server";
import { forgetSharedStats } from "~/server/shared-stats.server";
import { insertAttempts, insertUser } from "./analytics-fixtures";
import { countingD1 } from "./d1-counter";
import { seed } from "./helpers";

const STUDENT = 1; // the demo student (studente@example.com), with a seeded history
const db = () => getDb(env.DB);

async function version() {
  return (await env.DB.prepare("SELECT version, taxonomy FROM stats_version WHERE id = 1").first<{
    version: number;
    taxonomy: number;
  }>())!;
}

/** The analytics as a fresh isolate computes them with no stored snapshot: straight from the tables. */
async function fromScratch(userId = STUDENT): Promise<StudentAnalytics> {
  forgetSharedStats();
  await env.DB.prepare("DELETE FROM stats_snapshot").run();
  const fresh = await studentAnalytics(db(), userId);
  forgetSharedStats();
  return fresh;
}

/** The analytics twice as a warm isolate serves them (its copy, or the stored snapshot), checked against scratch. */
async function expectCurrent(): Promise<StudentAnalytics> {
  const warm = await studentAnalytics(db(), STUDENT);
  const again = await studentAnalytics(db(), STUDENT);
  const scratch = await fromScratch();
  expect(JSON.stringify(warm)).toBe(JSON.stringify(scratch));
  expect(JSON.stringify(again)).toBe(JSON.stringify(scratch));
  return warm;
}

const bins = (a: StudentAnalytics, subjectId: number) =>
  a.subjects.find((s) => s.id === subjectId)!.siteAggregate.scoreDistribution.reduce((n, b) => n + b.count, 0);

beforeAll(async () => {
  await seed();
});

describe("the dashboard's shared snapshot", () => {
  it("equals a from-scratch computation before and after an attempt lands, a rebuild and bank changes", async () => {
    // Warm this isolate and store a snapshot.
    const start = await expectCurrent();

    // An attempt lands (the aggregates' writes of the attempt's batch): the version moves, not the taxonomy.
    const before = await version();
    const [first, ...rest] = aggregateStatementsFor(db(), {
      subjectId: 1,
      startedAt: new Date(),
      correct: 25,
      total: 31,
      score: 24.4,
      answers: [
        { topicId: 101, correct: true },
        { topicId: 102, correct: false },
      ],
    });
    await db().batch([first!, ...rest]);
    const landed = await version();
    expect(landed.version).toBeGreaterThan(before.version);
    expect(landed.taxonomy).toBe(before.taxonomy);
    const afterLanding = await expectCurrent();
    expect(bins(afterLanding, 1)).toBe(bins(start, 1) + 1);

    // Attempts written behind the aggregates' back, then the rebuild (recalc-stats, imports).
    await insertUser(9301, "snap.altri@example.com", "snap.altri", "Altri Snapshot");
    await insertAttempts(9301, 2, [7, 19, 28], 930_000);
    expect(bins(await studentAnalytics(db(), STUDENT), 2)).toBe(bins(afterLanding, 2));
    await rebuildAggregates(db());
    expect((await version()).version).toBeGreaterThan(landed.version);
    const rebuilt = await expectCurrent();
    expect(bins(rebuilt, 2)).toBe(bins(afterLanding, 2) + 3);

    // The bank's shape: a topic renamed. The taxonomy moves and the new name shows at once.
    const renamed = await version();
    await env.DB.prepare("UPDATE topics SET name = 'Cellula (rinominata)' WHERE id = 101").run();
    expect((await version()).taxonomy).toBeGreaterThan(renamed.taxonomy);
    const afterRename = await expectCurrent();
    expect(afterRename.subjects.find((s) => s.id === 1)!.topics["101"]).toBe("Cellula (rinominata)");

    // The default edition switched (2026/27 → 2025/26): its units and topic → unit map show at once.
    const unitsBefore = afterRename.subjects.find((s) => s.id === 4)!.units!;
    await env.DB.prepare("UPDATE exam_editions SET is_default = (id = 1)").run();
    const switched = await expectCurrent();
    const unitsAfter = switched.subjects.find((s) => s.id === 4)!.units!;
    expect(unitsAfter.find((u) => u.number === 7)!.title).toBe("Radiazioni elettromagnetiche");
    expect(unitsAfter).not.toEqual(unitsBefore);

    // A question's unit in the default edition moved, by hand: the topic's unit follows.
    const topic = await env.DB.prepare(
      `SELECT q.topic_id AS topicId, min(qeu.unit) AS unit, count(*) AS n FROM question_edition_units qeu
       JOIN questions q ON q.id = qeu.question_id JOIN topics t ON t.id = q.topic_id AND t.legacy = 0
       WHERE qeu.edition_id = 1 AND q.subject_id = 4
       GROUP BY q.topic_id ORDER BY n LIMIT 1`,
    ).first<{ topicId: number; unit: number; n: number }>();
    await env.DB.prepare(
      "UPDATE question_edition_units SET unit = 6 WHERE edition_id = 1 AND question_id IN (SELECT id FROM questions WHERE topic_id = ?)",
    )
      .bind(topic!.topicId)
      .run();
    const moved = await expectCurrent();
    expect(moved.subjects.find((s) => s.id === 4)!.topicUnits![String(topic!.topicId)]).toBe(6);
    await env.DB.prepare("UPDATE exam_editions SET is_default = (id = 2)").run();
    await expectCurrent();
  });

  it("serves another isolate from the stored snapshot, and keeps each request's window of daily averages", async () => {
    const warm = await studentAnalytics(db(), STUDENT);
    // A fresh isolate: the stored snapshot, not the tables.
    forgetSharedStats();
    const counter = countingD1();
    const other = await studentAnalytics(getDb(counter.db), STUDENT);
    expect(JSON.stringify(other)).toBe(JSON.stringify(warm));
    const stores = (c: typeof counter) => c.statements().filter((st) => /insert into "stats_snapshot"/i.test(st.sql));
    expect(stores(counter)).toHaveLength(0);
    // With no snapshot stored for the current version, the first call composes and stores it; the next one does not.
    await env.DB.prepare("UPDATE topics SET name = name WHERE id = 101").run();
    const miss = countingD1();
    await studentAnalytics(getDb(miss.db), STUDENT);
    expect(stores(miss)).toHaveLength(1);
    const hit = countingD1();
    await studentAnalytics(getDb(hit.db), STUDENT);
    expect(stores(hit)).toHaveLength(0);

    // Asked as of 40 days ago: the trend ends and starts 40 days earlier, as a from-scratch computation has it.
    const past = Date.now() - 40 * 86_400_000;
    const then = await studentAnalytics(db(), STUDENT, past);
    forgetSharedStats();
    await env.DB.prepare("DELETE FROM stats_snapshot").run();
    const thenScratch = await studentAnalytics(db(), STUDENT, past);
    expect(JSON.stringify(then)).toBe(JSON.stringify(thenScratch));
    forgetSharedStats();
    expect(JSON.stringify(await studentAnalytics(db(), STUDENT))).toBe(JSON.stringify(await fromScratch()));
  });

  it("reads the same rows on a warm call with 2,000 more questions in the bank", async () => {
    const warmRows = async () => {
      await studentAnalytics(db(), STUDENT); // warm: this isolate at the current version, the snapshot stored
      const counter = countingD1();
      await studentAnalytics(getDb(counter.db), STUDENT);
      const perStatement = await counter.rowsPerStatement();
      // The shared statements (guarded by the stats version): a couple of rows each, not the tables behind them.
      const shared = perStatement.filter((st) => /from "stats_version"/i.test(st.sql));
      return {
        rows: perStatement.reduce((n, st) => n + st.rows, 0),
        sharedRows: shared.reduce((n, st) => n + st.rows, 0),
        statements: counter.statements().length,
        sharedStatements: shared.length,
      };
    };
    const small = await warmRows();

    const before = await version();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
       INSERT INTO questions (subject_id, topic_id, type, stem, options, correct_index, active)
       SELECT 1, 101, 'mc', 'Domanda sintetica ' || i, '["a","b","c","d","e"]', 0, 0 FROM n`,
    ).run();
    await env.DB.prepare(
      `INSERT INTO question_edition_units (edition_id, question_id, unit)
       SELECT 2, id, 3 FROM questions WHERE stem LIKE 'Domanda sintetica %'`,
    ).run();
    expect((await version()).taxonomy).toBeGreaterThan(before.taxonomy);
    const big = await warmRows();

    expect(big.statements).toBe(small.statements);
    expect(big.rows).toBe(small.rows);
    expect(big.sharedStatements).toBe(9);
    expect(big.sharedRows).toBeLessThanOrEqual(2 * big.sharedStatements);
    // And the new mix shows: most of topic 101's questions are now in unit 3.
    const fresh = await fromScratch();
    expect(fresh.subjects.find((s) => s.id === 1)!.topicUnits!["101"]).toBe(3);
  });
});
