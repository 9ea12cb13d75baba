// The exam day alone's integration fixtures (issue 46, point 2): fresh students, a start, the stored timeline and the
// development clock hook that moves it (moveTimeline, the room told), shared by solo-day*.test.ts.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { call, login } from "./helpers";

export type Edition = {
  id: number;
  format: { questionTotal: number; breakMin: number; subjects: { subjectId: number; minutes: number }[] };
};
export type Started = { id: string; startTime: number; endsAt: number };

export const MIN = 60_000;

export async function defaultEditionRow(): Promise<Edition> {
  const row = await env.DB.prepare("SELECT id, format FROM exam_editions WHERE is_default = 1").first<{
    id: number;
    format: string;
  }>();
  return { id: row!.id, format: JSON.parse(row!.format) };
}

/** The whole day of the edition, breaks included, with no extra time. */
export const wholeDay = (f: Edition["format"]) =>
  f.subjects.reduce((sum, x) => sum + x.minutes * MIN, 0) + (f.subjects.length - 1) * f.breakMin * MIN;

export async function newStudent(label: string, extraPct = 0) {
  const email = `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const row = await env.DB.prepare(
    "INSERT INTO users (email, name, created_at, extra_time_pct) VALUES (?, ?, ?, ?) RETURNING id",
  )
    .bind(email, label, Date.now(), extraPct)
    .first<{ id: number }>();
  return { id: row!.id, token: await login(email) };
}

export const startDay = (token: string, body: unknown) => call("POST", "/api/me/exam-days", { token, json: body });

export const stored = (id: string) =>
  env.DB.prepare(
    "SELECT start_time AS startTime, ends_at AS endsAt, seal_until AS sealUntil, seal_scope AS scope, solo_user_id AS owner FROM simulations WHERE id = ?",
  )
    .bind(id)
    .first<{ startTime: number; endsAt: number; sealUntil: number; scope: string; owner: number }>();

/** Moves the day so that `at` ms of it have passed (the development clock hook: moveTimeline, the room told). */
export async function passTo(admin: string, id: string, at: number) {
  const { startTime } = (await stored(id))!;
  const moved = await call("POST", `/api/admin/simulations/${id}/clock`, {
    token: admin,
    json: { aheadMs: Math.max(1, Math.round(at - (Date.now() - startTime))) },
  });
  expect(moved.status, await moved.clone().text()).toBe(200);
}
