import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { count, seed } from "./helpers";

const TABLES = [
  "subjects",
  "topics",
  "questions",
  "users",
  "attempts",
  "attempt_answers",
  "login_events",
  "reports",
  "friendships",
  "classes",
  "class_members",
  "simulations",
  "simulation_subjects",
  "simulation_questions",
  "simulation_allowed_classes",
];

describe("demo seed", () => {
  it("creates the bank, the demo accounts and the generated history", async () => {
    await seed();
    const subjects = await env.DB.prepare("SELECT id, name FROM subjects ORDER BY id").all<{
      id: number;
      name: string;
    }>();
    expect(subjects.results).toEqual([
      { id: 1, name: "Biologia" },
      { id: 2, name: "Chimica" },
      { id: 3, name: "Matematica" },
      { id: 4, name: "Fisica" },
      { id: 5, name: "Ragionamento Logico" },
    ]);
    for (const [id, min] of [
      [1, 40],
      [2, 40],
      [4, 40],
      [3, 20],
      [5, 20],
    ] as const) {
      expect(await count("questions", `subject_id = ${id}`)).toBeGreaterThanOrEqual(min);
      expect(await count("questions", `subject_id = ${id} AND type = 'mc'`)).toBeGreaterThan(0);
      expect(await count("questions", `subject_id = ${id} AND type = 'gap'`)).toBeGreaterThan(0);
      expect(await count("topics", `subject_id = ${id}`)).toBeGreaterThanOrEqual(4);
    }
    // The semestre filtro day needs 21 mc (2026/27) and 16 gap (2025/26) per exam subject.
    for (const id of [1, 2, 4]) {
      expect(await count("questions", `subject_id = ${id} AND type = 'mc'`)).toBeGreaterThanOrEqual(21);
      expect(await count("questions", `subject_id = ${id} AND type = 'gap'`)).toBeGreaterThanOrEqual(16);
    }
    expect(await count("questions", "explanation = '' OR difficulty NOT BETWEEN 1 AND 5")).toBe(0);
    expect(
      await count(
        "questions",
        "type = 'mc' AND (json_array_length(options) != 5 OR correct_index NOT BETWEEN 0 AND 4)",
      ),
    ).toBe(0);
    expect(await count("questions", "type = 'gap' AND json_array_length(accepted_answers) < 1")).toBe(0);

    const roles = await env.DB.prepare(
      "SELECT email, role, status, suspension_reason FROM users WHERE email LIKE '%@example.com' ORDER BY id",
    ).all();
    expect(roles.results).toEqual([
      { email: "studente@example.com", role: "studente", status: "attivo", suspension_reason: null },
      { email: "amico@example.com", role: "studente", status: "attivo", suspension_reason: null },
      { email: "moderatore@example.com", role: "moderator", status: "attivo", suspension_reason: null },
      { email: "admin@example.com", role: "admin", status: "attivo", suspension_reason: null },
      {
        email: "sospeso@example.com",
        role: "studente",
        status: "sospeso",
        suspension_reason: "Violazione del regolamento",
      },
      { email: "docente@example.com", role: "docente", status: "attivo", suspension_reason: null },
    ]);
    // The demo teacher's class: the demo student, the friend and 25 synthetic students; its simulation
    // is not started and follows the spec's sample flow.
    const demoClass = await env.DB.prepare(
      "SELECT c.name, u.email FROM classes c JOIN users u ON u.id = c.owner_id WHERE c.id = 1",
    ).first();
    expect(demoClass).toEqual({ name: "5ªB Liceo Volta", email: "docente@example.com" });
    expect(await count("class_members", "class_id = 1")).toBe(27);
    expect(await count("class_members", "class_id = 1 AND user_id IN (1, 2)")).toBe(2);
    expect(
      await count(
        "class_members",
        "class_id = 1 AND user_id IN (SELECT id FROM users WHERE email LIKE '%@demo.unicum.it')",
      ),
    ).toBe(25);
    const flow = await env.DB.prepare(
      `SELECT s.name, ss.time_min AS min, ss.question_count AS n, (SELECT count(*) FROM simulation_questions q WHERE q.simulation_id = ss.simulation_id AND q.subject_position = ss.position) AS stored
       FROM simulation_subjects ss JOIN subjects s ON s.id = ss.subject_id WHERE ss.simulation_id = 'demo-5b-volta' ORDER BY ss.position`,
    ).all<{ name: string; min: number; n: number; stored: number }>();
    expect(flow.results.map((r) => [r.name, r.min])).toEqual([
      ["Biologia", 5],
      ["Chimica", 4],
      ["Ragionamento Logico", 3],
    ]);
    for (const r of flow.results) expect(r.stored).toBe(r.n);
    expect(
      await count("simulations", "id = 'demo-5b-volta' AND started = 0 AND start_time IS NULL AND created_by = 6"),
    ).toBe(1);
    expect(await count("simulation_allowed_classes", "simulation_id = 'demo-5b-volta' AND class_id = 1")).toBe(1);
    expect(await count("users", "email LIKE '%@demo.unicum.it'")).toBeGreaterThanOrEqual(45);
    expect(await count("attempts", "user_id = 1")).toBeGreaterThanOrEqual(20);
    const span = await env.DB.prepare("SELECT min(started_at) AS lo, max(started_at) AS hi FROM attempts").first<{
      lo: number;
      hi: number;
    }>();
    expect((span!.hi - span!.lo) / 86_400_000).toBeGreaterThan(30);
    expect(Date.now() - span!.lo).toBeLessThanOrEqual(61 * 86_400_000);
    // Stored scores follow the summary formula.
    const wrongScores = await count(
      "attempts",
      "status = 'completed' AND abs(score - round((correct * 31.0 / total) - 0.1 * wrong, 1)) > 0.1001",
    );
    expect(wrongScores).toBe(0);
  });

  it("is idempotent: seeding again changes no row count", async () => {
    await seed();
    const before = await Promise.all(TABLES.map((t) => count(t)));
    await seed(Date.now() + 3_600_000);
    const after = await Promise.all(TABLES.map((t) => count(t)));
    expect(after).toEqual(before);
  });
});
