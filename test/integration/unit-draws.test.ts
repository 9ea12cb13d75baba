// A plan's practice item names its units ("20 domande di Fisica (unità 3 e 6)", issue 46): its button draws from those
// units of the default edition's syllabus only, targeted or at random; bad units are refused with nothing drawn.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { itemView } from "~/lib/study-plan-view";
import { call, count, json, login, seed } from "./helpers";

let student: string;
beforeAll(async () => {
  await seed();
  student = await login("studente@example.com");
});

async function unitsOf(ids: number[]): Promise<number[]> {
  const rows = await env.DB.prepare(
    `SELECT unit FROM question_edition_units WHERE edition_id = (SELECT id FROM exam_editions ORDER BY is_default DESC, academic_year DESC, id DESC LIMIT 1)
     AND question_id IN (${ids.map(() => "?").join(",")})`,
  )
    .bind(...ids)
    .all<{ unit: number }>();
  return rows.results.map((r) => r.unit);
}

describe("a practice draw limited to units", () => {
  it("draws only from the named units, targeted and at random", async () => {
    for (const mode of ["mirato", "random"]) {
      const response = await call("GET", `/api/quiz?subjectId=4&count=20&mode=${mode}&units=3,6`, { token: student });
      expect(response.status, await response.clone().text()).toBe(200);
      const quiz = await json<{ questions: { id: number }[] }>(response);
      expect(quiz.questions).toHaveLength(20);
      const units = await unitsOf(quiz.questions.map((q) => q.id));
      expect(units).toHaveLength(20);
      expect(new Set(units)).toEqual(new Set([3, 6]));
    }
  });

  it("the plan's button carries its units to the draw", () => {
    const view = itemView({ kind: "practice", subjectId: 4, count: 20, units: [3, 6], minutes: 30 }, { 4: "Fisica" });
    expect(view.text).toBe("20 domande di Fisica (unità 3 e 6)");
    expect(view.href).toBe("/test/nuovo?subject=4&q=20&mode=mirato&units=3,6");
  });

  it("refuses units that are not numbers 1-20 (at most 12), drawing nothing", async () => {
    const quizzes = await count("quizzes");
    for (const units of ["0", "3,x", "99", "1,2,3,4,5,6,7,8,9,10,11,12,13"]) {
      const refused = await call("GET", `/api/quiz?subjectId=4&count=5&units=${units}`, { token: student });
      expect(refused.status, units).toBe(400);
      expect((await json<{ error: string }>(refused)).error).toMatch(/Unità non valide/);
    }
    expect(await count("quizzes")).toBe(quizzes);
  });
});
