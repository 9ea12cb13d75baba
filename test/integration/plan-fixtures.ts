// Shared by the plan's integration tests (issue 46): the default edition's sittings moved around today (so a test
// means the same on any date: one three days ago, one in twenty days), a fresh student, the plan's reads.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { addDays, italianDay } from "~/lib/days";
import type { PlanPage } from "~/server/study-plan-page.server";
import { call, json, login, seed } from "./helpers";

export const DAY = 86_400_000;
const today = italianDay(Date.now());
export { today };
/** The default edition's sittings, moved around today. */
export const PAST = addDays(today, -3);
export const NEXT = addDays(today, 20);
export const EDITION = 2;

export type Active = Extract<PlanPage["plan"], { state: "active" }>;

/** The seed, with the default edition's sittings moved (its version raised, so the cached edition is read again). */
export async function seedWithSittings() {
  await seed();
  await env.DB.prepare(
    `UPDATE exam_editions SET version = version + 1, format = json_set(format, '$.sittings', json(?)) WHERE id = ?`,
  )
    .bind(
      JSON.stringify([
        { date: PAST, time: "11:00", label: "Primo appello" },
        { date: NEXT, time: "11:00", label: "Secondo appello" },
      ]),
      EDITION,
    )
    .run();
}

export async function freshStudent(): Promise<{ id: number; token: string; email: string }> {
  const email = `plan-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const row = await env.DB.prepare(
    "INSERT INTO users (email, name, role, status) VALUES (?, ?, 'studente', 'attivo') RETURNING id",
  )
    .bind(email, "Piano")
    .first<{ id: number }>();
  return { id: row!.id, email, token: await login(email) };
}

export const plan = { editionId: EDITION, sittingDate: NEXT, minutesPerDay: 60 };

export async function page(token: string): Promise<PlanPage> {
  const response = await call("GET", "/api/me/plan", { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<PlanPage>(response);
}

export async function activePlan(token: string): Promise<Active> {
  const p = (await page(token)).plan;
  expect(p.state).toBe("active");
  return p as Active;
}

export async function planRow(userId: number) {
  return env.DB.prepare("SELECT sitting_date, minutes_per_day, weekday_minutes FROM study_plans WHERE user_id = ?")
    .bind(userId)
    .first();
}

/** New questions of a subject over the whole plan. */
export function practiceOf(days: Active["days"], subjectId: number): number {
  let n = 0;
  for (const d of days)
    for (const item of d.items) if (item.kind === "practice" && item.subjectId === subjectId) n += item.count;
  return n;
}
