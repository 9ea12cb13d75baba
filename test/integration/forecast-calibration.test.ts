// The forecast against reality (issue 46, point 4) through the real routes and D1: the forecast keeps its daily value,
// and the admin's analytics compare the value kept the week before a sitting with the grades students entered.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExamCalibration } from "~/server/forecast-days.server";
import { italianDay, addDays } from "~/lib/days";
import { answeredBefore, call, json, login } from "./helpers";
import { EDITION, freshStudent, PAST, seedWithSittings } from "./plan-fixtures";

beforeAll(seedWithSittings);

const FISICA = 4;

async function fisicaCalibration(admin: string): Promise<ExamCalibration> {
  const response = await call("GET", "/api/admin/analytics", { token: admin });
  expect(response.status, await response.clone().text()).toBe(200);
  const { calibration } = await json<{ calibration: ExamCalibration[] }>(response);
  return calibration.find((c) => c.subjectId === FISICA)!;
}

const keptRows = (userId: number) =>
  env.DB.prepare("SELECT day, subject_id, pass_probability FROM forecast_days WHERE user_id = ? ORDER BY subject_id")
    .bind(userId)
    .all<{ day: string; subject_id: number; pass_probability: number }>()
    .then((r) => r.results);

describe("the forecast against reality", () => {
  it("keeps the forecast of the day, once per exam, the day's last value winning", async () => {
    const s = await freshStudent();
    const fisica = await env.DB.prepare("SELECT id FROM questions WHERE subject_id = ? AND active = 1 LIMIT 40")
      .bind(FISICA)
      .all<{ id: number }>();
    await answeredBefore(
      s.email,
      fisica.results.map((q) => q.id),
    );
    const first = await json<{ subjects: { subjectId: number; passProbability: number | null }[] }>(
      await call("GET", "/api/me/forecast", { token: s.token }),
    );
    const fisicaP = first.subjects.find((x) => x.subjectId === FISICA)!.passProbability;
    expect(fisicaP).not.toBeNull();
    expect(await keptRows(s.id)).toEqual([
      { day: italianDay(Date.now()), subject_id: FISICA, pass_probability: fisicaP },
    ]);

    // A practice attempt handed in keeps the new value after the response (waitUntil), on the same row.
    await env.DB.prepare(
      "UPDATE attempt_answers SET correct = 1 WHERE attempt_id IN (SELECT id FROM attempts WHERE user_id = ?)",
    )
      .bind(s.id)
      .run();
    const ctx = createExecutionContext();
    const draw = await call("GET", "/api/quiz?subjectId=4&count=5", { token: s.token });
    expect(draw.status, await draw.clone().text()).toBe(200);
    const quiz = await json<{ quizId: number; questions: { id: number }[] }>(draw);
    const handedIn = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: s.token,
      ctx,
      json: {
        answers: quiz.questions.map((q) => ({ question_id: q.id, option_id: null, time_sec: 3 })),
        timeTaken: 20,
      },
    });
    expect(handedIn.status, await handedIn.clone().text()).toBe(200);
    await waitOnExecutionContext(ctx);
    const after = await keptRows(s.id);
    expect(after).toHaveLength(1);
    expect(after[0]!.pass_probability).toBeGreaterThan(fisicaP!);
  });

  it("compares the value kept in the week before the sitting with the grades entered: Brier and tenths, with counts", async () => {
    const admin = await login("admin@example.com");
    const before = await fisicaCalibration(admin);
    // Four students whose forecast the day before the sitting was 0,9 / 0,8 / 0,2 / 0,1, who got 24, 17,9, 18 and 10.
    const cases: Array<[number, number]> = [
      [0.9, 24],
      [0.8, 17.9],
      [0.2, 18],
      [0.1, 10],
    ];
    for (const [p, grade] of cases) {
      const s = await freshStudent();
      await env.DB.prepare("INSERT INTO forecast_days (user_id, day, subject_id, pass_probability) VALUES (?, ?, ?, ?)")
        .bind(s.id, addDays(PAST, -1), FISICA, p)
        .run();
      const saved = await call("POST", "/api/me/sitting-grades", {
        token: s.token,
        json: {
          editionId: EDITION,
          sittingDate: PAST,
          grades: [2, 4, 1].map((id) => ({ subjectId: id, grade: id === FISICA ? grade : null })),
        },
      });
      expect(saved.status, await saved.clone().text()).toBe(200);
    }
    // Not cases: a forecast kept on the sitting's own day, one older than a week, and an exam not sat.
    for (const [day, grade] of [
      [PAST, 30],
      [addDays(PAST, -8), 30],
      [addDays(PAST, -1), null],
    ] as const) {
      const s = await freshStudent();
      await env.DB.prepare(
        "INSERT INTO forecast_days (user_id, day, subject_id, pass_probability) VALUES (?, ?, ?, 0.5)",
      )
        .bind(s.id, day, FISICA)
        .run();
      await call("POST", "/api/me/sitting-grades", {
        token: s.token,
        json: {
          editionId: EDITION,
          sittingDate: PAST,
          grades: [2, 4, 1].map((id) => ({ subjectId: id, grade: id === FISICA ? grade : null })),
        },
      });
    }
    const after = await fisicaCalibration(admin);
    expect(after.cases).toBe(before.cases + 4);
    // (0,9−1)² + (0,8−0)² + (0,2−1)² + (0,1−0)² = 0,01 + 0,64 + 0,64 + 0,01 = 1,30 (17,9 fails: below the pass mark).
    const sum = (before.brier ?? 0) * before.cases + 1.3;
    expect(after.brier).toBeCloseTo(sum / after.cases, 10);
    const grew = (tenth: number) => after.bins[tenth]!.cases - before.bins[tenth]!.cases;
    expect([0, 1, 2, 8, 9].map(grew)).toEqual([0, 1, 1, 1, 1]);
    expect(after.bins.reduce((n, b) => n + b.cases, 0)).toBe(after.cases);
  });

  it("is the admin's only: a student asking for the analytics is refused", async () => {
    const student = await login("studente@example.com");
    expect((await call("GET", "/api/admin/analytics", { token: student })).status).toBe(403);
  });
});
