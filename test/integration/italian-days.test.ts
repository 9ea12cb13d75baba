// Days are Italian days (Europe/Rome) everywhere the server groups by day: the SQL rule and the
// TypeScript one agree hour by hour, and the admin analytics and streaks count a late-night attempt
// on the day the student lived it.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { italianDay } from "~/lib/days";
import { adminAnalytics } from "~/server/admin/analytics.server";
import { userDetail } from "~/server/admin/users.server";
import { italianDaySql } from "~/server/db/aggregate-sql";
import { getDb } from "~/server/db/client.server";
import { insertUser } from "./analytics-fixtures";
import { seed } from "./helpers";

const HOUR = 60 * 60 * 1000;

describe("the Italian day in SQL", () => {
  it("matches italianDay for every hour (and half hour past) from 2024 to 2029, daylight-saving switches included", async () => {
    const from = Date.UTC(2024, 0, 1);
    const to = Date.UTC(2029, 0, 1);
    const { results } = await env.DB.prepare(
      `WITH RECURSIVE h(t) AS (SELECT ?1 UNION ALL SELECT t + ${HOUR / 2} FROM h WHERE t < ?2)
       SELECT t, ${italianDaySql("t")} AS d FROM h`,
    )
      .bind(from, to)
      .all<{ t: number; d: string }>();
    expect(results.length).toBe((to - from) / (HOUR / 2) + 1);
    const wrong = results
      .filter((r) => r.d !== italianDay(r.t))
      .map((r) => `${new Date(r.t).toISOString()}: ${r.d} ≠ ${italianDay(r.t)}`);
    expect(wrong).toEqual([]);
  });
});

describe("grouping by day", () => {
  const USER = 9401;
  // Sunday 31 March 2030, the night the clocks go forward: 23:30 UTC on the 30th is 00:30 in Rome on the 31st.
  const lateNight = Date.UTC(2030, 2, 30, 23, 30);
  const nextEvening = Date.UTC(2030, 2, 31, 18, 0);
  const now = Date.UTC(2030, 2, 31, 20, 0);

  beforeAll(async () => {
    await seed();
    await insertUser(USER, "notturno@example.com", "notturno");
    await env.DB.batch(
      [lateNight, nextEvening].map((at, i) =>
        env.DB.prepare(
          "INSERT INTO attempts (id, user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score) VALUES (?, ?, 1, 'completed', ?, ?, 600, 31, 20, 0, 11, 20)",
        ).bind(940_100 + i, USER, at, at + 600_000),
      ),
    );
  });

  it("the admin's attempts per day count a 00:30 attempt on that Italian day", async () => {
    const a = await adminAnalytics(getDb(env.DB), { days: 7, top: 10 }, now);
    expect(a.attemptsPerDay.at(-1)).toEqual({ date: "2030-03-31", count: 2 });
    expect(a.attemptsPerDay.at(-2)).toEqual({ date: "2030-03-30", count: 0 });
    expect(a.attemptsPerDay[0]!.date).toBe("2030-03-25");
  });

  it("two attempts on the same Italian day are a streak of one day, not two", async () => {
    const detail = await userDetail(getDb(env.DB), USER, new Date(now));
    expect(detail.stats).toMatchObject({ streak: 1, bestStreak: 1 });
  });
});
