import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { count, seed } from "./helpers";

const TABLES = ["subjects", "topics", "questions", "users", "attempts", "attempt_answers", "login_events", "reports", "friendships"];

describe("demo seed", () => {
  it("creates the bank, the demo accounts and the generated history", async () => {
    await seed();
    const subjects = await env.DB.prepare("SELECT id, name FROM subjects ORDER BY id").all<{ id: number; name: string }>();
    expect(subjects.results).toEqual([
      { id: 1, name: "Biologia" },
      { id: 2, name: "Chimica" },
      { id: 3, name: "Matematica" },
      { id: 4, name: "Fisica" },
      { id: 5, name: "Ragionamento Logico" },
    ]);
    for (const [id, min] of [[1, 40], [2, 40], [4, 40], [3, 20], [5, 20]] as const) {
      expect(await count("questions", `subject_id = ${id}`)).toBeGreaterThanOrEqual(min);
      expect(await count("questions", `subject_id = ${id} AND type = 'mc'`)).toBeGreaterThan(0);
      expect(await count("questions", `subject_id = ${id} AND type = 'gap'`)).toBeGreaterThan(0);
      expect(await count("topics", `subject_id = ${id}`)).toBeGreaterThanOrEqual(4);
    }
    // The semestre filtro day needs 15 mc + 16 gap per exam subject.
    for (const id of [1, 2, 4]) {
      expect(await count("questions", `subject_id = ${id} AND type = 'mc'`)).toBeGreaterThanOrEqual(15);
      expect(await count("questions", `subject_id = ${id} AND type = 'gap'`)).toBeGreaterThanOrEqual(16);
    }
    expect(await count("questions", "explanation = '' OR difficulty NOT BETWEEN 1 AND 5")).toBe(0);
    expect(await count("questions", "type = 'mc' AND (json_array_length(options) != 5 OR correct_index NOT BETWEEN 0 AND 4)")).toBe(0);
    expect(await count("questions", "type = 'gap' AND json_array_length(accepted_answers) < 1")).toBe(0);

    const roles = await env.DB.prepare(
      "SELECT email, role, status, suspension_reason FROM users WHERE email LIKE '%@example.com' ORDER BY id",
    ).all();
    expect(roles.results).toEqual([
      { email: "studente@example.com", role: "studente", status: "attivo", suspension_reason: null },
      { email: "amico@example.com", role: "studente", status: "attivo", suspension_reason: null },
      { email: "moderatore@example.com", role: "moderator", status: "attivo", suspension_reason: null },
      { email: "admin@example.com", role: "admin", status: "attivo", suspension_reason: null },
      { email: "sospeso@example.com", role: "studente", status: "sospeso", suspension_reason: "Violazione del regolamento" },
    ]);
    expect(await count("users", "email LIKE '%@demo.unicum.it'")).toBeGreaterThanOrEqual(45);
    expect(await count("attempts", "user_id = 1")).toBeGreaterThanOrEqual(20);
    const span = await env.DB.prepare("SELECT min(started_at) AS lo, max(started_at) AS hi FROM attempts").first<{ lo: number; hi: number }>();
    expect((span!.hi - span!.lo) / 86_400_000).toBeGreaterThan(30);
    expect(Date.now() - span!.lo).toBeLessThanOrEqual(61 * 86_400_000);
    // Stored scores follow the summary formula.
    const wrongScores = await count("attempts", "status = 'completed' AND abs(score - round((correct * 31.0 / total) - 0.1 * wrong, 1)) > 0.1001");
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
