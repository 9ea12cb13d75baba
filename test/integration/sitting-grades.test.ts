// After the sitting (issue 46, point 3) through the real routes and D1: the grades a student received, read by the
// edition's rules, the next sitting's plan turned towards what failed, bad grades refused with nothing changed, the
// rows private to their student (aggregates only over 30), and gone with the account.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { PlanPage } from "~/server/study-plan-page.server";
import { call, json } from "./helpers";
import { activePlan, EDITION, freshStudent, NEXT, PAST, plan, practiceOf, seedWithSittings } from "./plan-fixtures";

beforeAll(seedWithSittings);

describe("after the sitting", () => {
  const grades = (values: (number | null)[], sittingDate = PAST) => ({
    editionId: EDITION,
    sittingDate,
    grades: [2, 4, 1].map((subjectId, i) => ({ subjectId, grade: values[i] ?? null })),
  });

  it("reads the grades by the edition's rules, and turns the next sitting's plan towards what failed", async () => {
    const s = await freshStudent();
    await call("PUT", "/api/me/plan", { token: s.token, json: plan });
    const fisicaBefore = practiceOf((await activePlan(s.token)).days, 4);
    const response = await call("POST", "/api/me/sitting-grades", { token: s.token, json: grades([31, 17.9, null]) });
    expect(response.status, await response.clone().text()).toBe(200);
    const { results } = await json<Pick<PlanPage, "results">>(response);
    expect(results.rank).toMatchObject({ section: 100, key: 131 });
    expect(results.next).toMatchObject({ date: NEXT });
    expect(results.best.map((b) => b.improvable)).toEqual([null, "recupero", "recupero"]);
    const fisicaAfter = practiceOf((await activePlan(s.token)).days, 4);
    expect(fisicaAfter).toBeGreaterThan(fisicaBefore);
  });

  it("refuses grades out of bounds, of a sitting not held yet or of another edition, and changes nothing", async () => {
    const s = await freshStudent();
    expect((await call("POST", "/api/me/sitting-grades", { token: s.token, json: grades([24, 18, 18]) })).status).toBe(
      200,
    );
    const rows = async () =>
      (
        await env.DB.prepare("SELECT subject_id, grade FROM sitting_grades WHERE user_id = ? ORDER BY subject_id")
          .bind(s.id)
          .all()
      ).results;
    const before = await rows();
    const bad: [unknown, number, RegExp][] = [
      [grades([32, 18, 18]), 400, /Voto non valido/],
      [grades([-1, 18, 18]), 400, /Voto non valido/],
      [grades([24.5, 18, 18]), 400, /numero intero/],
      [grades([24, 18, 18], NEXT), 409, /non si è ancora svolto/],
      [{ ...grades([24, 18, 18]), editionId: 1 }, 400, /un'altra edizione/],
      [{ ...grades([24, 18, 18]), grades: [{ subjectId: 2, grade: 24 }] }, 400, /ciascun esame/],
    ];
    for (const [body, status, message] of bad) {
      const response = await call("POST", "/api/me/sitting-grades", { token: s.token, json: body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await json<{ error: string }>(response)).error).toMatch(message);
    }
    expect(await rows()).toEqual(before);
  });

  it("are private: another account reads only its own, and aggregates need 30 students", async () => {
    const a = await freshStudent();
    const b = await freshStudent();
    await call("POST", "/api/me/sitting-grades", { token: a.token, json: grades([27, 25, 30]) });
    const mine = await json<Pick<PlanPage, "results" | "aggregates">>(
      await call("GET", "/api/me/sitting-grades", { token: a.token }),
    );
    expect(mine.results.rank).toMatchObject({ section: 300, key: 382 });
    const theirs = await json<Pick<PlanPage, "results" | "aggregates">>(
      await call("GET", "/api/me/sitting-grades", { token: b.token }),
    );
    expect(theirs.results.rank).toBeNull();
    expect(JSON.stringify(theirs)).not.toContain("382");
    expect(theirs.aggregates).toEqual([]);
    // 30 students in all entered grades for the first sitting: the pass rates appear, never a student's own row.
    const n = (await env.DB.prepare("SELECT count(DISTINCT user_id) AS n FROM sitting_grades WHERE sitting_date = ?")
      .bind(PAST)
      .first<{ n: number }>())!.n;
    for (let i = n; i < 32; i++) {
      const other = await freshStudent();
      await env.DB.prepare(
        "INSERT INTO sitting_grades (user_id, edition_id, sitting_date, subject_id, grade, entered_at) VALUES (?, ?, ?, 2, ?, ?), (?, ?, ?, 4, NULL, ?), (?, ?, ?, 1, 20, ?)",
      )
        .bind(
          other.id,
          EDITION,
          PAST,
          i % 2 ? 24 : 12,
          Date.now(),
          other.id,
          EDITION,
          PAST,
          Date.now(),
          other.id,
          EDITION,
          PAST,
          Date.now(),
        )
        .run();
    }
    const agg = (
      await json<Pick<PlanPage, "aggregates">>(await call("GET", "/api/me/sitting-grades", { token: b.token }))
    ).aggregates;
    expect(agg).toHaveLength(1);
    expect(agg[0]!.students).toBeGreaterThanOrEqual(30);
    expect(agg[0]!.passed.find((p) => p.subjectId === 1)!.pct).toBeGreaterThan(90);
    // Fisica was sat by a handful: no rate.
    expect(agg[0]!.passed.find((p) => p.subjectId === 4)!.pct).toBeNull();
  });

  it("go with the student: in their data export, and deleted with their account", async () => {
    const s = await freshStudent();
    await call("PUT", "/api/me/plan", { token: s.token, json: plan });
    await call("POST", "/api/me/sitting-grades", { token: s.token, json: grades([22, 19, null]) });
    const exported = await json<{ studyPlan: { sittingDate: string }; sittingGrades: { grade: number | null }[] }>(
      await call("GET", "/api/profile/export", { token: s.token }),
    );
    expect(exported.studyPlan).toMatchObject({ sittingDate: NEXT });
    expect(exported.sittingGrades.map((g) => g.grade).sort()).toEqual([19, 22, null].sort());
    expect((await call("DELETE", "/api/profile", { token: s.token, json: { confirm: "ELIMINA" } })).status).toBe(200);
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM study_plans WHERE user_id = ?1) + (SELECT count(*) FROM sitting_grades WHERE user_id = ?1) AS n",
    )
      .bind(s.id)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});
