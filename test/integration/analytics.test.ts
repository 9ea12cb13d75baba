import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { histogramPercentile, momentum, percentileRank } from "~/lib/analytics";
import type { StudentAnalytics } from "~/server/analytics.server";
import { aggregateStatementsFor } from "~/server/aggregates.server";
import { getDb } from "~/server/db/client.server";
import { insertAttempts, insertUser, rebuild } from "./analytics-fixtures";
import { BANK } from "../../seed/seed";
import { call, count, json, login, seed } from "./helpers";

beforeAll(async () => {
  await seed();
});

describe("GET /api/me/analytics", () => {
  it("answers the demo student's analytics in the spec's shape, with only her own attempts", async () => {
    const token = await login("studente@example.com");
    const response = await call("GET", "/api/me/analytics", { token });
    expect(response.status).toBe(200);
    const body = await json<StudentAnalytics>(response);
    expect(body.studentName).toBe("Giulia");
    expect(typeof body.improvementLastMonthPct === "number" || body.improvementLastMonthPct === null).toBe(true);
    expect(body.subjects.map((s) => s.name).slice(0, 5)).toEqual([
      "Biologia",
      "Chimica",
      "Matematica",
      "Fisica",
      "Ragionamento Logico",
    ]);
    const biologia = body.subjects[0]!;
    expect(biologia.topics["101"]).toBe(BANK[0]!.topics.find((t) => t.id === 101)!.name);

    const attempts = body.subjects.flatMap((s) => s.studentAttempts);
    expect(attempts.length).toBe(await count("attempts", "user_id = 1 AND status = 'completed'"));
    expect(attempts.length).toBeGreaterThan(10);
    const ids = attempts.map((a) => a.id).join(",");
    expect(await count("attempts", `id IN (${ids}) AND user_id <> 1`)).toBe(0);
    for (const a of attempts) {
      expect(a).toMatchObject({
        date: expect.any(String),
        score: expect.any(Number),
        correct: expect.any(Number),
        total: expect.any(Number),
        timeSec: expect.any(Number),
      });
      expect(a.topic).toEqual(expect.any(String));
      expect(a.topicIds.length).toBeGreaterThan(0);
    }
    // Chronological within a subject (the trend line reads them in order).
    for (const s of body.subjects) {
      const dates = s.studentAttempts.map((a) => a.date);
      expect(dates).toEqual([...dates].sort());
    }

    const agg = biologia.siteAggregate;
    expect(agg.scoreDistribution).toHaveLength(32);
    const siteCount = await count("attempts", "status = 'completed' AND subject_id = 1 AND total > 0");
    expect(agg.scoreDistribution.reduce((n, b) => n + b.count, 0)).toBe(siteCount);
    expect(agg.p80).toBe(histogramPercentile(agg.scoreDistribution, 80));
    expect(agg.p90!).toBeGreaterThanOrEqual(agg.p80!);
    expect(agg.attemptsOverTime.length).toBeGreaterThan(5);
    expect(agg.attemptsOverTime[0]).toMatchObject({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      avgScore: expect.any(Number),
    });
    // Every Biologia topic the seeded history touched has its site accuracy.
    const answeredTopics = await count("stat_topic_accuracy", "subject_id = 1 AND answered > 0");
    expect(Object.keys(agg.topicAccuracy).length).toBe(answeredTopics);
    expect(answeredTopics).toBeGreaterThanOrEqual(6);
    for (const v of Object.values(agg.topicAccuracy)) expect(v).toBeGreaterThan(0), expect(v).toBeLessThan(1);
    expect(Object.keys(biologia.studentTopicAccuracy).length).toBeGreaterThan(0);
  });

  it("answers 401 when signed out", async () => {
    const response = await call("GET", "/api/me/analytics");
    expect(response.status).toBe(401);
    expect((await json(response)).error).toMatch(/accedi/);
  });

  describe("on a known data set", () => {
    beforeAll(async () => {
      await env.DB.batch([
        env.DB.prepare("INSERT OR IGNORE INTO subjects (id, name) VALUES (99, 'Statistica di prova')"),
        env.DB.prepare("INSERT OR IGNORE INTO topics (id, subject_id, name) VALUES (9901, 99, 'Medie e mediane')"),
      ]);
      await insertUser(9001, "stat.studente@example.com", "stat.studente", "Stella Studente");
      await insertUser(9002, "stat.altri@example.com", "stat.altri", "Altri Studenti");
      // Everybody else: 10, 10, 15, 15, 15, 20, 20, 20, 25, 30.
      await insertAttempts(9002, 99, [10, 10, 15, 15, 15, 20, 20, 20, 25, 30], 900_100);
      // The student, in chronological order.
      await insertAttempts(9001, 99, [5, 10, 12, 14, 20, 21, 22], 900_000);
      await rebuild();
    });

    it("computes the distribution, p80 (Top 20%), p90, the student's rank and momentum", async () => {
      const token = await login("stat.studente@example.com");
      const body = await json<StudentAnalytics>(await call("GET", "/api/me/analytics", { token }));
      const subject = body.subjects.find((s) => s.id === 99)!;
      const counts = Object.fromEntries(
        subject.siteAggregate.scoreDistribution.filter((b) => b.count).map((b) => [b.score, b.count]),
      );
      expect(counts).toEqual({ 5: 1, 10: 3, 12: 1, 14: 1, 15: 3, 20: 4, 21: 1, 22: 1, 25: 1, 30: 1 });
      expect(subject.siteAggregate.p80).toBe(21);
      expect(subject.siteAggregate.p90).toBe(25);
      expect(subject.siteAggregate.average).toBe(16.7);
      const scores = subject.studentAttempts.map((a) => a.score);
      expect(scores).toEqual([5, 10, 12, 14, 20, 21, 22]);
      // Mean 14.86: 6 of the 17 attempts are below it.
      const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
      expect(percentileRank(subject.siteAggregate.scoreDistribution, mean)).toBe(35);
      expect(momentum(scores)).toEqual({ last: 21, previous: 12, delta: 9 });
    });

    it("keeps the site distribution up to date as an attempt lands, without a rebuild", async () => {
      const token = await login("stat.studente@example.com");
      const before = await json<StudentAnalytics>(await call("GET", "/api/me/analytics", { token }));
      const db = getDb(env.DB);
      const [first, ...rest] = aggregateStatementsFor(db, {
        subjectId: 99,
        startedAt: new Date(),
        correct: 31,
        total: 31,
        score: 31,
        answers: [{ topicId: 9901, correct: true }],
      });
      // 20 right and 11 wrong of 31: the official score 18.9 (list score 20) lands on 19.
      const penalised = aggregateStatementsFor(db, {
        subjectId: 99,
        startedAt: new Date(),
        correct: 20,
        total: 31,
        score: 18.9,
        answers: [],
      });
      await db.batch([first!, ...rest, ...penalised]);
      const after = await json<StudentAnalytics>(await call("GET", "/api/me/analytics", { token }));
      const bin = (a: StudentAnalytics, score: number) =>
        a.subjects.find((s) => s.id === 99)!.siteAggregate.scoreDistribution[score]!.count;
      expect(bin(after, 31)).toBe(bin(before, 31) + 1);
      expect(bin(after, 19)).toBe(bin(before, 19) + 1);
      expect(bin(after, 20)).toBe(bin(before, 20));
      expect(after.subjects.find((s) => s.id === 99)!.siteAggregate.topicAccuracy["9901"]).toBe(1);
      await rebuild();
    });
  });
});

describe("GET /api/friend/analytics", () => {
  it("answers the accepted friend's analytics to the demo student", async () => {
    const token = await login("studente@example.com");
    const response = await call("GET", "/api/friend/analytics", { token });
    expect(response.status).toBe(200);
    const body = await json<StudentAnalytics>(response);
    expect(body.studentName).toBe("Marco");
    const ids = body.subjects.flatMap((s) => s.studentAttempts.map((a) => a.id));
    expect(ids.length).toBe(await count("attempts", "user_id = 2 AND status = 'completed'"));
  });

  it("answers 404 without an accepted friendship, and for a user who is not a friend", async () => {
    const moderator = await login("moderatore@example.com");
    const none = await call("GET", "/api/friend/analytics", { token: moderator });
    expect(none.status).toBe(404);
    expect((await json(none)).error).toMatch(/Nessun amico/);
    const student = await login("studente@example.com");
    // user 100 is a synthetic student, not her friend
    expect((await call("GET", "/api/friend/analytics?userId=100", { token: student })).status).toBe(404);
    expect((await call("GET", "/api/friend/analytics?userId=abc", { token: student })).status).toBe(400);
    expect((await call("GET", "/api/friend/analytics")).status).toBe(401);
  });
});
