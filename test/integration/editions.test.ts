// Exam editions as data (issue 29): both editions come with the schema, 2026/27 the default; full-paper draws
// follow the default edition's split, `&edition=` an older one; an admin's correction reaches the next draw.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/server/db/client.server";
import { listEditions, updateEdition } from "~/server/editions.server";
import type { SessionUser } from "~/server/session.server";
import { call, json, login, seed } from "./helpers";

type PublicEdition = {
  id: number;
  academicYear: string;
  status: string;
  isDefault: boolean;
  format: {
    subjects: { subjectId: number; mc: number; gap: number; minutes: number }[];
    breakMin: number;
    sittings: { date: string; time: string; label: string }[];
  };
};

let student: string;

beforeAll(async () => {
  await seed();
  student = await login("studente@example.com");
});

async function editions() {
  const response = await call("GET", "/api/exam-editions");
  expect(response.status).toBe(200);
  return json<{ editions: PublicEdition[]; defaultId: number }>(response);
}

async function drawMix(subjectId: number, edition?: number) {
  const response = await call(
    "GET",
    `/api/quiz?subjectId=${subjectId}&count=31${edition ? `&edition=${edition}` : ""}`,
    { token: student },
  );
  expect(response.status).toBe(200);
  const quiz = await json<{ quizId: number; questions: { id: number; type: string }[] }>(response);
  return {
    quizId: quiz.quizId,
    ids: quiz.questions.map((q) => q.id),
    mc: quiz.questions.filter((q) => q.type === "mc").length,
    gap: quiz.questions.filter((q) => q.type === "gap").length,
  };
}

describe("GET /api/exam-editions", () => {
  it("lists 2025/26 and 2026/27 to anyone, 2026/27 the provisional default with 21 + 10, 50′, 30′ breaks and its two sittings", async () => {
    const { editions: list, defaultId } = await editions();
    const byYear = new Map(list.map((e) => [e.academicYear, e]));
    const current = byYear.get("2026/27")!;
    const previous = byYear.get("2025/26")!;
    expect(defaultId).toBe(current.id);
    expect(current).toMatchObject({ isDefault: true, status: "provvisorio" });
    expect(current.format.subjects.map((s) => [s.subjectId, s.mc, s.gap, s.minutes])).toEqual([
      [2, 21, 10, 50],
      [4, 21, 10, 50],
      [1, 21, 10, 50],
    ]);
    expect(current.format.breakMin).toBe(30);
    expect(current.format.sittings.map((s) => s.date)).toEqual(["2026-12-10", "2027-01-11"]);
    expect(previous.format.subjects.map((s) => [s.mc, s.gap, s.minutes])).toEqual([
      [15, 16, 45],
      [15, 16, 45],
      [15, 16, 45],
    ]);
    expect(previous.format.breakMin).toBe(15);
    expect(previous.isDefault).toBe(false);
  });
});

describe("full-paper draws follow the edition", () => {
  it("20 draws per core subject are exactly 21 + 10 with no repeat in a paper, stored with the default edition", async () => {
    const { defaultId } = await editions();
    for (const subjectId of [2, 4, 1]) {
      for (let i = 0; i < 20; i++) {
        const draw = await drawMix(subjectId);
        expect([draw.mc, draw.gap]).toEqual([21, 10]);
        expect(new Set(draw.ids).size).toBe(31);
        if (i === 0) {
          const row = await env.DB.prepare(
            "SELECT q.edition_id AS quiz, a.edition_id AS attempt FROM quizzes q JOIN attempts a ON a.quiz_id = q.id WHERE q.id = ?",
          )
            .bind(draw.quizId)
            .first<{ quiz: number; attempt: number }>();
          expect(row).toEqual({ quiz: defaultId, attempt: defaultId });
        }
      }
    }
  });

  it("&edition= of 2025/26 draws 15 + 16; an unknown edition is a 404 in Italian", async () => {
    const { editions: list } = await editions();
    const old = list.find((e) => e.academicYear === "2025/26")!;
    for (const subjectId of [2, 4, 1]) {
      const draw = await drawMix(subjectId, old.id);
      expect([draw.mc, draw.gap]).toEqual([15, 16]);
    }
    const unknown = await call("GET", "/api/quiz?subjectId=2&count=31&edition=999", { token: student });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toBe("Edizione dell'esame non trovata.");
    const bad = await call("GET", "/api/quiz?subjectId=2&count=31&edition=abc", { token: student });
    expect(bad.status).toBe(400);
  });

  it("an admin's correction of the split (20 + 11) reaches the next draw, with no deploy", async () => {
    const db = getDb(env.DB);
    const current = (await listEditions(db)).find((e) => e.isDefault)!;
    const admin = { id: 3, email: "admin@example.com" } as SessionUser;
    const corrected = {
      ...current,
      format: { ...current.format, subjects: current.format.subjects.map((s) => ({ ...s, mc: 20, gap: 11 })) },
    };
    await updateEdition(db, admin, current.id, corrected);
    try {
      const draw = await drawMix(4);
      expect([draw.mc, draw.gap]).toEqual([20, 11]);
      const audit = await env.DB.prepare(
        "SELECT count(*) AS n FROM audit_log WHERE action = 'edition.update' AND target_id = ?",
      )
        .bind(String(current.id))
        .first<{ n: number }>();
      expect(audit!.n).toBeGreaterThan(0);
    } finally {
      await updateEdition(db, admin, current.id, current);
    }
    expect((await drawMix(4)).mc).toBe(21);
  });
});

describe("the console's Edizioni tab (/admin/edizioni)", () => {
  const post = (token: string, body: unknown) => call("POST", "/admin/edizioni", { token, json: body });

  it("lets only admins in, refuses a split that does not add up in Italian and changes nothing", async () => {
    const admin = await login("admin@example.com");
    const teacher = await login("docente@example.com");
    expect((await call("GET", "/admin/edizioni", { token: student })).status).toBe(302);
    expect((await call("GET", "/admin/edizioni", { token: teacher })).status).toBe(302);
    const { editions: list } = await editions();
    const current = list.find((e) => e.isDefault)!;
    const full = await listEditions(getDb(env.DB));
    const input = full.find((e) => e.id === current.id)!;
    const broken = {
      ...input,
      format: { ...input.format, subjects: input.format.subjects.map((s) => ({ ...s, mc: 22 })) },
    };
    expect((await post(teacher, { intent: "save", id: current.id, edition: broken })).status).toBe(302);
    const refused = await post(admin, { intent: "save", id: current.id, edition: broken });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await json(refused))).toContain("scelta multipla e completamento devono sommare 31 domande");
    const zeroMinutes = {
      ...input,
      format: { ...input.format, subjects: input.format.subjects.map((s) => ({ ...s, minutes: 0 })) },
    };
    expect((await post(admin, { intent: "save", id: current.id, edition: zeroMinutes })).status).toBe(400);
    expect((await drawMix(2)).mc).toBe(21);
  });

  it("refuses a sitting dated on a day that does not exist (issue 44: 2026-02-31 became 3 March) and saves nothing", async () => {
    const admin = await login("admin@example.com");
    const full = await listEditions(getDb(env.DB));
    const input = full.find((e) => e.isDefault)!;
    const audits = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'edition.update'").first<{
        n: number;
      }>())!.n;
    const before = {
      row: await env.DB.prepare("SELECT * FROM exam_editions WHERE id = ?").bind(input.id).first(),
      audits: await audits(),
    };
    for (const [date, time] of [
      ["2026-02-31", "09:00"],
      ["2026-11-31", "09:00"],
      ["2026-12-10", "24:00"],
    ]) {
      const sittings = [{ date, time, label: "Appello impossibile" }];
      const refused = await post(admin, {
        intent: "save",
        id: input.id,
        edition: { ...input, format: { ...input.format, sittings } },
      });
      expect(refused.status, date).toBe(400);
      expect(JSON.stringify(await json(refused)), date).toMatch(
        date.endsWith("31") ? /Data dell'appello non valida/ : /Ora dell'appello/,
      );
    }
    expect(await env.DB.prepare("SELECT * FROM exam_editions WHERE id = ?").bind(input.id).first()).toEqual(before.row);
    expect(await audits()).toBe(before.audits);
  });

  it("an admin saves 20 + 11 through the tab and the next draw follows; the default moves to 2025/26 and back", async () => {
    const admin = await login("admin@example.com");
    const full = await listEditions(getDb(env.DB));
    const current = full.find((e) => e.isDefault)!;
    const old = full.find((e) => e.academicYear === "2025/26")!;
    const changed = {
      ...current,
      format: { ...current.format, subjects: current.format.subjects.map((s) => ({ ...s, mc: 20, gap: 11 })) },
    };
    expect((await post(admin, { intent: "save", id: current.id, edition: changed })).status).toBe(200);
    expect([(await drawMix(1)).mc, (await drawMix(1)).gap]).toEqual([20, 11]);
    expect((await post(admin, { intent: "save", id: current.id, edition: current })).status).toBe(200);
    expect((await post(admin, { intent: "default", id: old.id })).status).toBe(200);
    expect((await editions()).defaultId).toBe(old.id);
    expect((await drawMix(1)).mc).toBe(15);
    expect((await post(admin, { intent: "default", id: current.id })).status).toBe(200);
    expect((await editions()).defaultId).toBe(current.id);
    const audit = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_log WHERE action IN ('edition.update', 'edition.default')",
    ).first<{ n: number }>();
    expect(audit!.n).toBeGreaterThanOrEqual(4);
  });
});

describe("the 2026/27 syllabus in the draws (issue 30)", () => {
  it("a 2026/27 paper never holds a question fuori programma 2026/27; the 2025/26 edition may draw them", async () => {
    const outside = (
      await env.DB.prepare(
        `SELECT q.id FROM questions q WHERE q.subject_id = 4 AND q.legacy = 0 AND q.id NOT IN
           (SELECT question_id FROM question_edition_units WHERE edition_id = (SELECT id FROM exam_editions WHERE academic_year = '2026/27'))`,
      ).all<{ id: number }>()
    ).results.map((r) => r.id);
    expect(outside.length).toBeGreaterThan(0);
    const { editions: list } = await editions();
    const old = list.find((e) => e.academicYear === "2025/26")!;
    const seenNew = new Set<number>();
    const seenOld = new Set<number>();
    for (let i = 0; i < 15; i++) {
      for (const id of (await drawMix(4)).ids) seenNew.add(id);
      for (const id of (await drawMix(4, old.id)).ids) seenOld.add(id);
    }
    expect(outside.filter((id) => seenNew.has(id))).toEqual([]);
    // Out of 15 × 31 draws from the 2025/26 pool (251 Fisica questions), some of the fuori programma ones show up.
    expect(outside.some((id) => seenOld.has(id)) || outside.length < 3).toBe(true);
  });
});
