// The exam day alone (issue 46, point 2): a student's own simulation of the default edition's whole day, run by the
// live simulation's machinery. It is a simulation whose audience is that one student (simulation_allowed_users and a
// seat in its one room), started at once: the door, the runner, the room (server time, autosave, resume), the seal
// (scope "audience": sealed for its own candidate until its stored seal_until) and the grading are the group
// simulation's. What is its own: the start (no staff, at most one running per student), the skipped break (the rest of
// the student's timeline moves earlier through moveTimeline, the one way a stored timeline moves) and where the day
// stands among the days other students have done. The pure rules: app/lib/solo-day.ts.
import { sql } from "drizzle-orm";
import { SIMULATION_START_LEAD_MS } from "~/lib/constants";
import { dayTemplate, paperSplit } from "~/lib/edition";
import { rankKey } from "~/lib/rank-key";
import { effectiveExtraPct } from "~/lib/simulation-day";
import { candidateEnd, sittingTimeline } from "~/lib/sitting-timeline";
import { breakLeft, SOLO_DAYS_LISTED, SOLO_TEXT, soloStanding } from "~/lib/solo-day";
import { chunk } from "~/lib/chunk";
import type { Db } from "../db/client.server";
import { questions } from "../db/schema";
import { drawForSubject } from "../draws.server";
import { defaultEdition } from "../editions.server";
import { HttpError } from "../errors.server";
import { roomFor } from "./door.server";
import { percentileOf } from "./ranking.server";
import { sealedQuestionIdsSql } from "./seal.server";
import { simulationEdition } from "./results.server";
import { moveTimeline } from "./start.server";

/** A student's day alone still running at `now`: started, not graded, its questions still sealed (seal_until). */
export async function runningSoloDay(db: Db, userId: number, now = Date.now()) {
  return (
    (await db.get<{ id: string; startTime: number; endsAt: number } | null>(sql`
      SELECT id, start_time AS startTime, ends_at AS endsAt FROM simulations
      WHERE solo_user_id = ${userId} AND started = 1 AND graded_at IS NULL AND seal_until >= ${now}
      ORDER BY start_time DESC LIMIT 1`)) ?? null
  );
}

/** The default edition's day as the student would sit it: its papers and breaks, and their own extra time. */
export async function soloDayPlan(db: Db, userId: number) {
  const [edition, own] = await Promise.all([
    defaultEdition(db),
    db.get<{ pct: number | null }>(sql`SELECT extra_time_pct AS pct FROM users WHERE id = ${userId}`),
  ]);
  // A day alone admits no class: the student's own extra time (users.extra_time_pct), as the audience rule reads it.
  return { edition, rows: dayTemplate(edition).rows, extraPct: effectiveExtraPct(own?.pct) };
}

/**
 * Starts the student's day alone: the default edition's papers drawn as an admin's template day is (each a full paper
 * of the edition's split, weighted by unit, none of the questions sealed for the student now), the start a few seconds
 * ahead, THE timeline (sittingTimeline with their extra time) stored with it, in one D1 batch whose first statement
 * inserts the day only while none of theirs runs (so two starts racing make one: the other's rows fail their foreign
 * key and the batch lands nothing). Then the room is told, as Avvia tells it.
 */
export async function startSoloDay(
  db: Db,
  env: Env,
  userId: number,
  input: { editionId?: number | undefined },
  now = Date.now(),
) {
  const { edition, rows, extraPct } = await soloDayPlan(db, userId).catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 409) throw new HttpError(409, SOLO_TEXT.errors.noEdition);
    throw error;
  });
  if (input.editionId != null && input.editionId !== edition.id) throw new HttpError(400, SOLO_TEXT.errors.edition);
  if (await runningSoloDay(db, userId, now)) throw new HttpError(409, SOLO_TEXT.errors.running);
  const count = edition.format.questionTotal;
  const exclude = sql`${questions.id} NOT IN (${sealedQuestionIdsSql(userId, now)})`;
  const papers: number[][] = [];
  for (const row of rows) {
    const split = paperSplit(edition, row.subjectId);
    const mix = split && count === split.mc + split.gap ? split : undefined;
    const draw = await drawForSubject(db, row.subjectId, count, { mix, split, edition, exclude });
    if (draw.ids.length < count) {
      const name = edition.format.subjects.find((s) => s.subjectId === row.subjectId)?.name ?? `${row.subjectId}`;
      throw new HttpError(409, SOLO_TEXT.errors.short(name));
    }
    papers.push(draw.ids);
  }
  const id = `solo-${userId}-${now.toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const startTime = now + SIMULATION_START_LEAD_MS;
  const flow = rows.map((r) => ({ id: r.subjectId, name: "", timeMin: r.timeMin, breakAfterMin: r.breakAfterMin }));
  const timeline = sittingTimeline(flow, startTime, [extraPct]);
  const d1 = env.DB;
  const statements = [
    d1
      .prepare(
        `INSERT INTO simulations (id, title, started, shards, edition_id, solo_user_id, created_at, plan_version)
         SELECT ?1, ?2, 0, 1, ?3, ?4, ?5, 0 WHERE NOT EXISTS (SELECT 1 FROM simulations WHERE solo_user_id = ?4
           AND started = 1 AND graded_at IS NULL AND seal_until >= ?5)`,
      )
      .bind(id, SOLO_TEXT.dayTitle(edition.label), edition.id, userId, now),
    ...rows.map((r, position) =>
      d1
        .prepare(
          `INSERT INTO simulation_subjects (simulation_id, position, subject_id, time_min, question_count, break_after_min)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .bind(id, position, r.subjectId, r.timeMin, papers[position]!.length, r.breakAfterMin),
    ),
    // Multi-row inserts in chunks (D1: at most 100 bound variables per statement).
    ...chunk(
      papers.flatMap((ids, subjectPosition) =>
        ids.map((questionId, position) => [subjectPosition, position, questionId]),
      ),
      24,
    ).map((part) =>
      d1
        .prepare(
          `INSERT INTO simulation_questions (simulation_id, subject_position, position, question_id) VALUES ${part
            .map(() => "(?, ?, ?, ?)")
            .join(", ")}`,
        )
        .bind(...part.flatMap((values) => [id, ...values])),
    ),
    d1.prepare("INSERT INTO simulation_allowed_users (simulation_id, user_id) VALUES (?, ?)").bind(id, userId),
    d1.prepare("INSERT INTO simulation_seats (simulation_id, user_id, shard) VALUES (?, ?, 0)").bind(id, userId),
    ...(extraPct > 0
      ? [
          d1
            .prepare("INSERT INTO simulation_accommodations (simulation_id, user_id, extra_time_pct) VALUES (?, ?, ?)")
            .bind(id, userId, extraPct),
        ]
      : []),
    // Started last: the frozen-plan triggers (migration 0018) refuse rows added to a started simulation.
    d1
      .prepare(
        `UPDATE simulations SET started = 1, start_time = ?, ends_at = ?, seal_until = ?, seal_scope = 'audience'
         WHERE id = ?`,
      )
      .bind(startTime, timeline.endsAt, timeline.sealUntil, id),
  ];
  try {
    await d1.batch(statements);
  } catch (error) {
    // Another start of theirs landed first: its day runs, this one's rows had no simulation to belong to.
    if (await runningSoloDay(db, userId, now)) throw new HttpError(409, SOLO_TEXT.errors.running);
    throw error;
  }
  // Told as Avvia tells a room (retried); one that never hears reads the start from D1 at the first connection.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await roomFor(env, id, 0).start(id, 0, startTime, 1, []);
      break;
    } catch (error) {
      if (attempt === 2) console.warn("solo day: the room did not hear the start", error);
    }
  }
  return { id, startTime, endsAt: timeline.endsAt };
}

/**
 * "Salta la pausa": the student's current break ends now and the rest of their day moves that much earlier (their
 * timeline as a whole, through moveTimeline: the stored start, end and seal, and the room). Only the day's own student,
 * only during one of their breaks (their own timeline, extra time included).
 */
export async function skipSoloBreak(db: Db, env: Env, id: string, userId: number, now = Date.now()) {
  const row = await db.get<{
    soloUserId: number | null;
    startTime: number | null;
    endsAt: number | null;
    sealUntil: number | null;
    gradedAt: number | null;
    shards: number;
    extraPct: number | null;
  } | null>(sql`SELECT s.solo_user_id AS soloUserId, s.start_time AS startTime, s.ends_at AS endsAt,
      s.seal_until AS sealUntil, s.graded_at AS gradedAt, s.shards,
      (SELECT extra_time_pct FROM simulation_accommodations WHERE simulation_id = s.id AND user_id = ${userId}) AS extraPct
    FROM simulations s WHERE s.id = ${id} AND s.started = 1`);
  if (!row || row.soloUserId !== userId || row.startTime == null || row.endsAt == null || row.sealUntil == null)
    throw new HttpError(404, SOLO_TEXT.errors.notYours);
  const flow = await db.all<{ id: number; name: string; timeMin: number; breakAfterMin: number }>(sql`
    SELECT subject_id AS id, '' AS name, time_min AS timeMin, break_after_min AS breakAfterMin
    FROM simulation_subjects WHERE simulation_id = ${id} ORDER BY position`);
  const left = row.gradedAt == null ? breakLeft(flow, row.startTime, row.extraPct ?? 0, now) : null;
  if (!left) throw new HttpError(409, SOLO_TEXT.errors.notInBreak);
  const from = { id, shards: row.shards, startTime: row.startTime, endsAt: row.endsAt, sealUntil: row.sealUntil };
  const moved = await moveTimeline(db, env, from, -left.ms);
  if (!moved) throw new HttpError(409, SOLO_TEXT.errors.moved);
  return { id, startTime: moved.startTime, endsAt: moved.endsAt };
}

/**
 * Where a graded day alone stands among the days other students have done (of the same edition, graded): how many, and
 * the share with a strictly lower ranking key (rankKey, stored by the grading write), shown over SOLO_DAY_MIN_PEERS.
 */
export async function soloDayStanding(db: Db, simulationId: string, userId: number) {
  const row = await db.get<{ key: number | null; peers: number; below: number } | null>(sql`
    WITH mine AS (SELECT coalesce(a.rank_key, a.score) AS key, s.edition_id AS edition FROM simulation_attempts a
      JOIN simulations s ON s.id = a.simulation_id
      WHERE a.simulation_id = ${simulationId} AND a.user_id = ${userId} AND s.solo_user_id = ${userId})
    SELECT (SELECT key FROM mine) AS key, count(a.id) AS peers,
      coalesce(sum(coalesce(a.rank_key, a.score) < (SELECT key FROM mine)), 0) AS below
    FROM simulations s JOIN simulation_attempts a ON a.simulation_id = s.id AND a.user_id = s.solo_user_id
    WHERE s.solo_user_id IS NOT NULL AND s.solo_user_id <> ${userId} AND s.graded_at IS NOT NULL
      AND s.edition_id IS (SELECT edition FROM mine)`);
  if (row?.key == null) return null;
  return soloStanding(row.peers, percentileOf(row.below, row.peers + 1));
}

/**
 * A day alone's ranking call (GET /api/simulations/{id}/ranking, the stored result page): no list of other students,
 * only its place among their days; `final` once graded, as the group ranking says it.
 */
export async function soloRanking(db: Db, simulationId: string, userId: number) {
  const standing = await soloDayStanding(db, simulationId, userId);
  return {
    final: standing != null,
    userId,
    pos: null,
    position: null,
    percentile: standing?.percentile ?? null,
    score: null,
    participants: null,
    ranking: [],
    around: [],
    solo: standing,
  };
}

/** The student's days alone, newest first (at most SOLO_DAYS_LISTED), each with its section once graded. */
export async function soloDays(db: Db, userId: number) {
  const rows = await db.all<{
    id: string;
    startTime: number;
    gradedAt: number | null;
    editionId: number | null;
    attemptId: number | null;
    score: number | null;
    subjects: string | null;
  }>(sql`SELECT s.id, s.start_time AS startTime, s.graded_at AS gradedAt, s.edition_id AS editionId,
      a.id AS attemptId, a.score, a.subjects_result AS subjects
    FROM simulations s LEFT JOIN simulation_attempts a ON a.simulation_id = s.id AND a.user_id = s.solo_user_id
    WHERE s.solo_user_id = ${userId} AND s.started = 1 ORDER BY s.start_time DESC LIMIT ${SOLO_DAYS_LISTED}`);
  const editions = new Map<number | null, Awaited<ReturnType<typeof simulationEdition>>>();
  for (const r of rows)
    if (!editions.has(r.editionId)) editions.set(r.editionId, await simulationEdition(db, r.editionId));
  return rows.map((r) => {
    const subjects = r.subjects ? (JSON.parse(r.subjects) as { correct: number; wrong: number; total: number }[]) : [];
    const rank =
      r.attemptId != null ? rankKey({ totale: r.score ?? 0, subjects }, editions.get(r.editionId) ?? null) : null;
    return { id: r.id, startTime: r.startTime, attemptId: r.attemptId, graded: r.gradedAt != null, rank };
  });
}

/** /giornata and GET /api/me/exam-days: the day as the student would sit it, the one running, the past ones. */
export async function soloDayPage(db: Db, userId: number, now = Date.now()) {
  const [{ edition, rows, extraPct }, running, days] = await Promise.all([
    soloDayPlan(db, userId),
    runningSoloDay(db, userId, now),
    soloDays(db, userId),
  ]);
  const names = new Map(
    (
      await db.all<{ id: number; name: string }>(
        sql`SELECT id, name FROM subjects WHERE id IN (${sql.join(
          rows.map((r) => sql`${r.subjectId}`),
          sql`, `,
        )})`,
      )
    ).map((r) => [r.id, r.name]),
  );
  const flow = rows.map((r) => ({
    id: r.subjectId,
    name: names.get(r.subjectId) ?? "",
    timeMin: r.timeMin,
    breakAfterMin: r.breakAfterMin,
  }));
  return {
    now,
    edition: { id: edition.id, label: edition.label },
    flow,
    extraPct,
    /** The whole day in minutes for this student (their extra time included): the one deadline rule. */
    totalMin: Math.round(candidateEnd(flow, 0, extraPct) / 60_000),
    running,
    days,
  };
}
