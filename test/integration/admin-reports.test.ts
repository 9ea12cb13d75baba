import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { adminReportState, storedReportStatus } from "~/server/admin/reports.server";
import { call, count, json, login, seed } from "./helpers";

let moderator: string;
let admin: string;

type R = {
  id: number;
  status: string;
  state: string;
  createdAt: string;
  questionId: number;
  byUser: string;
  userAnswerKey: string | null;
  assignedScore: number | null;
};

async function addReport(status: string, daysAgo: number, questionId = 1002) {
  const at = Date.now() - daysAgo * 86_400_000;
  const row = await env.DB.prepare(
    "INSERT INTO reports (user_id, question_id, status, message, user_answer_key, created_at) VALUES (1, ?, ?, 'prova', 'C', ?) RETURNING id",
  )
    .bind(questionId, status, at)
    .first<{ id: number }>();
  return row!.id;
}

beforeAll(async () => {
  await seed();
  moderator = await login("moderatore@example.com");
  admin = await login("admin@example.com");
});

describe("report status normalisation (spec section 4)", () => {
  it("maps open/aperta/in_review/pending to open and every other value to resolved", () => {
    for (const s of ["open", "aperta", "in_review", "pending", "OPEN"]) expect(adminReportState(s)).toBe("open");
    for (const s of ["resolved", "risolta", "rejected", "respinta", "chiusa", "boh", ""])
      expect(adminReportState(s)).toBe("resolved");
    expect(storedReportStatus("respinta")).toBe("resolved");
    expect(storedReportStatus("pending")).toBe("open");
    expect(storedReportStatus("in_review")).toBe("in_review");
    expect(storedReportStatus("boh")).toBeNull();
  });
});

describe("admin reports", () => {
  it("lists open reports first, then newest, and filters Aperta / Risolta (moderator)", async () => {
    const oldOpen = await addReport("open", 30);
    const newResolved = await addReport("resolved", 0.5);
    const midReview = await addReport("in_review", 10);
    const response = await call("GET", "/api/admin/reports", { token: moderator });
    expect(response.status).toBe(200);
    const list = await json<R[]>(response);
    const firstResolved = list.findIndex((r) => r.state === "resolved");
    expect(list.slice(0, firstResolved).every((r) => r.state === "open")).toBe(true);
    expect(list.slice(firstResolved).every((r) => r.state === "resolved")).toBe(true);
    const open = list.filter((r) => r.state === "open");
    expect(open.map((r) => r.createdAt)).toEqual([...open.map((r) => r.createdAt)].sort().reverse());
    expect(open.map((r) => r.id)).toContain(midReview);
    expect(open.findIndex((r) => r.id === midReview)).toBeLessThan(open.findIndex((r) => r.id === oldOpen));
    expect(list.findIndex((r) => r.id === newResolved)).toBeGreaterThan(list.findIndex((r) => r.id === oldOpen));

    const onlyOpen = await json<R[]>(await call("GET", "/api/admin/reports?status=open", { token: moderator }));
    expect(onlyOpen.length).toBeGreaterThan(0);
    expect(onlyOpen.every((r) => r.state === "open")).toBe(true);
    const onlyResolved = await json<R[]>(await call("GET", "/api/admin/reports?status=risolta", { token: moderator }));
    expect(onlyResolved.every((r) => r.state === "resolved")).toBe(true);
    expect(onlyResolved.map((r) => r.id)).toContain(newResolved);
    expect((await call("GET", "/api/admin/reports?status=forse", { token: moderator })).status).toBe(400);
    expect(list[0]).toHaveProperty("byUser", "Giulia Rossi");
  });

  it("saving moves an open report to in_review unless a status is forced; bad input writes nothing", async () => {
    const id = await addReport("open", 2);
    const saved = await call("PUT", `/api/admin/reports/${id}`, {
      token: moderator,
      json: { userAnswerKey: "D", assignedScore: 12.5 },
    });
    expect(saved.status).toBe(200);
    let row = await env.DB.prepare("SELECT status, user_answer_key, assigned_score FROM reports WHERE id = ?")
      .bind(id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({ status: "in_review", user_answer_key: "D", assigned_score: 12.5 });

    const forced = await call("PUT", `/api/admin/reports/${id}`, { token: moderator, json: { status: "open" } });
    expect(forced.status).toBe(200);
    row = await env.DB.prepare("SELECT status FROM reports WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row?.status).toBe("open");

    for (const body of [{ assignedScore: 40 }, { status: "boh" }, { assignedScore: "tanti" }]) {
      const bad = await call("PUT", `/api/admin/reports/${id}`, { token: moderator, json: body });
      expect(bad.status).toBe(400);
      expect(typeof (await json(bad)).error).toBe("string");
    }
    row = await env.DB.prepare("SELECT status, assigned_score FROM reports WHERE id = ?")
      .bind(id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({ status: "open", assigned_score: 12.5 });
    expect((await call("PUT", "/api/admin/reports/999999", { token: moderator, json: {} })).status).toBe(404);
  });

  it("'Segna risolta' resolves (audited with the moderator's name); delete removes", async () => {
    const id = await addReport("open", 1);
    const resolved = await call("POST", `/api/admin/reports/${id}/resolve`, { token: moderator });
    expect(resolved.status).toBe(200);
    expect(await count("reports", `id = ${id} AND status = 'resolved'`)).toBe(1);
    expect(
      await count(
        "audit_log",
        `action = 'report.resolve' AND target_id = '${id}' AND actor_email = 'moderatore@example.com'`,
      ),
    ).toBe(1);
    const deleted = await call("DELETE", `/api/admin/reports/${id}`, { token: moderator });
    expect(deleted.status).toBe(200);
    expect(await count("reports", `id = ${id}`)).toBe(0);
  });

  it("a student can neither list nor change reports", async () => {
    const student = await login("studente@example.com");
    const id = await addReport("open", 1);
    expect((await call("GET", "/api/admin/reports", { token: student })).status).toBe(403);
    expect((await call("POST", `/api/admin/reports/${id}/resolve`, { token: student })).status).toBe(403);
    expect(await count("reports", `id = ${id} AND status = 'open'`)).toBe(1);
  });
});

describe("question editor", () => {
  it("returns the mc question with the correct option first, and keeps option ids stable on save", async () => {
    const stored = await env.DB.prepare("SELECT options, correct_index FROM questions WHERE id = 1001").first<{
      options: string;
      correct_index: number;
    }>();
    const options = JSON.parse(stored!.options) as string[];
    const response = await call("GET", "/api/admin/questions/1001", { token: moderator });
    expect(response.status).toBe(200);
    const q = await json<{
      type: string;
      stem: string;
      options: { text: string }[];
      explanation: string;
      difficulty: number;
    }>(response);
    expect(q.options[0]!.text).toBe(options[stored!.correct_index]);
    expect(q.options.map((o) => o.text).sort()).toEqual([...options].sort());

    const edited = q.options.map((o, i) => ({ text: i === 0 ? `${o.text} (rivisto)` : o.text }));
    const saved = await call("PUT", "/api/admin/questions/1001", {
      token: moderator,
      json: { stem: `${q.stem} `, explanation: "Nuova spiegazione.", options: edited, difficulty: 4, type: "mc" },
    });
    expect(saved.status).toBe(200);
    const after = await env.DB.prepare(
      "SELECT options, correct_index, difficulty, explanation FROM questions WHERE id = 1001",
    ).first<{ options: string; correct_index: number; difficulty: number; explanation: string }>();
    expect(after!.correct_index).toBe(stored!.correct_index);
    const afterOptions = JSON.parse(after!.options) as string[];
    expect(afterOptions[after!.correct_index]).toBe(`${options[stored!.correct_index]} (rivisto)`);
    afterOptions.forEach((text, i) => {
      if (i !== after!.correct_index) expect(text).toBe(options[i]);
    });
    expect(after).toMatchObject({ difficulty: 4, explanation: "Nuova spiegazione." });
  });

  it("edits a gap question's accepted answers and refuses bad input without writing", async () => {
    const gap = await env.DB.prepare(
      "SELECT id, stem, accepted_answers FROM questions WHERE type = 'gap' LIMIT 1",
    ).first<{ id: number; stem: string; accepted_answers: string }>();
    const q = await json<{ options: { text: string }[] }>(
      await call("GET", `/api/admin/questions/${gap!.id}`, { token: admin }),
    );
    expect(q.options.map((o) => o.text)).toEqual(JSON.parse(gap!.accepted_answers));
    for (const body of [
      { stem: "", options: [{ text: "a" }], type: "gap" },
      { stem: "x", options: [], type: "gap" },
      { stem: "x", options: [{ text: "a" }], type: "vero-falso" },
      { stem: "x", options: [{ text: "a" }], difficulty: 9, type: "gap" },
      { stem: "x", options: [{ text: "una frase" }], type: "gap" },
      { stem: "x", options: [{ text: "solo una" }], type: "mc" },
    ]) {
      const bad = await call("PUT", `/api/admin/questions/${gap!.id}`, { token: admin, json: body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    const unchanged = await env.DB.prepare("SELECT stem FROM questions WHERE id = ?")
      .bind(gap!.id)
      .first<{ stem: string }>();
    expect(unchanged!.stem).toBe(gap!.stem);
    const ok = await call("PUT", `/api/admin/questions/${gap!.id}`, {
      token: admin,
      json: {
        stem: gap!.stem,
        options: [{ text: "Na" }, { text: "sodio" }],
        difficulty: 2,
        type: "gap",
        explanation: "",
      },
    });
    expect(ok.status).toBe(200);
    const after = await env.DB.prepare("SELECT accepted_answers FROM questions WHERE id = ?")
      .bind(gap!.id)
      .first<{ accepted_answers: string }>();
    expect(JSON.parse(after!.accepted_answers)).toEqual(["Na", "sodio"]);
    expect((await call("GET", "/api/admin/questions/999999", { token: admin })).status).toBe(404);
  });
});
