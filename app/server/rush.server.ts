// Quiz Rush: the server decides whether a rush quiz may start and records its score from the
// graded attempt (never from the client).
import { and, asc, desc, eq, gt, isNull, lte, sql } from "drizzle-orm";
import { RUSH_TEXT } from "~/lib/rush";
import type { Db } from "./db/client.server";
import { auditEntry, type AuditAction } from "./audit.server";
import { rushEvents, rushProgress, subjects } from "./db/schema";
import { HttpError } from "./errors.server";
import type { SessionUser } from "./session.server";

export const RUSH_DUPLICATE_MESSAGE: string = RUSH_TEXT.duplicate;
export const RUSH_INACTIVE_MESSAGE: string = RUSH_TEXT.noEvent;

/** The published event whose window holds `now` (start inclusive, end exclusive), if any. */
export async function activeRushEvent(db: Db, now = Date.now()) {
  return db
    .select()
    .from(rushEvents)
    .where(
      and(
        eq(rushEvents.published, true),
        lte(rushEvents.startsAt, new Date(now)),
        gt(rushEvents.endsAt, new Date(now)),
      ),
    )
    .orderBy(rushEvents.startsAt)
    .get();
}

/**
 * Claims the user's one rush slot for this subject in this event (call when the rush quiz is created).
 * Refused outside the event's window (409) and for a subject already started in this event (409).
 */
export async function claimRushStart(
  db: Db,
  args: { userId: number; eventId: number; subjectId: number; now?: number },
) {
  const now = args.now ?? Date.now();
  const event = await activeRushEvent(db, now);
  if (!event || event.id !== args.eventId) throw new HttpError(409, RUSH_INACTIVE_MESSAGE);
  const inserted = await db
    .insert(rushProgress)
    .values({ eventId: args.eventId, userId: args.userId, subjectId: args.subjectId, startedAt: new Date(now) })
    .onConflictDoNothing()
    .returning({ id: rushProgress.id })
    .get();
  if (!inserted) throw new HttpError(409, RUSH_DUPLICATE_MESSAGE);
  return event;
}

/** Records the graded attempt's score (0-31) and time on the claimed slot; only the first result counts. */
export function recordRushResultStatement(
  db: Db,
  args: {
    userId: number;
    eventId: number;
    subjectId: number;
    attemptId: number;
    score: number;
    timeSec: number;
    finishedAt: Date;
  },
) {
  const score = Math.min(31, Math.max(0, args.score));
  return db
    .update(rushProgress)
    .set({ attemptId: args.attemptId, score, timeSec: args.timeSec, finishedAt: args.finishedAt })
    .where(
      and(
        eq(rushProgress.eventId, args.eventId),
        eq(rushProgress.userId, args.userId),
        eq(rushProgress.subjectId, args.subjectId),
        isNull(rushProgress.finishedAt),
      ),
    );
}

// --- Reading the event, the user's progress and the rankings ---

export type RushEventView = { id: number; title: string; startsAt: number; endsAt: number };

/** The active event as the student sees it (epoch ms), or null. */
export async function currentRushEvent(db: Db, now = Date.now()): Promise<RushEventView | null> {
  const event = await activeRushEvent(db, now);
  if (!event) return null;
  return { id: event.id, title: event.title, startsAt: event.startsAt.getTime(), endsAt: event.endsAt.getTime() };
}

export type RushProgressItem = { subjectId: number; score: number; at: number; timeSec: number | null };
export type RushProgress = { items: RushProgressItem[]; pending: number[] };

/**
 * The user's rush slots in one event: `items` are the graded ones (score and finish time, from the
 * server's records), `pending` the subjects started but not yet graded (they cannot be started again).
 */
export async function rushProgressFor(db: Db, userId: number, eventId: number): Promise<RushProgress> {
  const rows = await db
    .select({
      subjectId: rushProgress.subjectId,
      score: rushProgress.score,
      finishedAt: rushProgress.finishedAt,
      timeSec: rushProgress.timeSec,
    })
    .from(rushProgress)
    .where(and(eq(rushProgress.eventId, eventId), eq(rushProgress.userId, userId)))
    .orderBy(asc(rushProgress.subjectId));
  const items: RushProgressItem[] = [];
  const pending: number[] = [];
  for (const row of rows) {
    if (row.finishedAt && row.score != null) {
      items.push({ subjectId: row.subjectId, score: row.score, at: row.finishedAt.getTime(), timeSec: row.timeSec });
    } else {
      pending.push(row.subjectId);
    }
  }
  return { items, pending };
}

export type RushLeaderboard = {
  /** Position per graded subject: score desc, then shorter time, then earlier finish. */
  items: { subjectId: number; position: number; participants: number }[];
  /** Overall position by the sum over subjects (a missing subject counts 0), same tie-breaks; null before any result. */
  overall: number | null;
  /** How many users have at least one graded subject in the event. */
  participants: number;
  /** The user's sum of scores. */
  totalScore: number;
};

// A slot without a time sorts after every timed one; sums are rounded to tenths so that
// 12.3 + 12.3 and 24.6 tie instead of differing in the last binary digit.
const NO_TIME = 2147483647;

/**
 * The user's positions in one event, in SQL. A position is 1 + the number of results strictly ahead
 * (equal results share it). Per subject this walks only the rows at or above the user's score through
 * rush_progress_rank_idx (event, subject, score) instead of ranking everybody.
 */
export async function rushLeaderboard(db: Db, userId: number, eventId: number): Promise<RushLeaderboard> {
  const [perSubject, overall] = await Promise.all([
    db.all<{ subject_id: number; position: number; participants: number }>(sql`
      SELECT me.subject_id,
        1 + (SELECT COUNT(*) FROM rush_progress o
             WHERE o.event_id = me.event_id AND o.subject_id = me.subject_id AND o.score >= me.score AND o.finished_at IS NOT NULL
               AND (o.score > me.score
                 OR COALESCE(o.time_sec, ${NO_TIME}) < COALESCE(me.time_sec, ${NO_TIME})
                 OR (COALESCE(o.time_sec, ${NO_TIME}) = COALESCE(me.time_sec, ${NO_TIME}) AND o.finished_at < me.finished_at))) AS position,
        (SELECT COUNT(*) FROM rush_progress o
             WHERE o.event_id = me.event_id AND o.subject_id = me.subject_id AND o.score IS NOT NULL AND o.finished_at IS NOT NULL) AS participants
      FROM rush_progress me
      WHERE me.event_id = ${eventId} AND me.user_id = ${userId} AND me.finished_at IS NOT NULL AND me.score IS NOT NULL
      ORDER BY me.subject_id`),
    db.all<{ position: number; participants: number; total: number | null; ranked: number }>(sql`
      WITH totals AS MATERIALIZED (
        SELECT user_id, ROUND(SUM(score), 1) AS total, SUM(COALESCE(time_sec, ${NO_TIME})) AS time_total, MAX(finished_at) AS last_finish
        FROM rush_progress
        WHERE event_id = ${eventId} AND finished_at IS NOT NULL AND score IS NOT NULL
        GROUP BY user_id
      ), me AS (SELECT * FROM totals WHERE user_id = ${userId})
      SELECT
        (SELECT 1 + COUNT(*) FROM totals t, me
           WHERE t.total > me.total
              OR (t.total = me.total AND (t.time_total < me.time_total OR (t.time_total = me.time_total AND t.last_finish < me.last_finish)))) AS position,
        (SELECT COUNT(*) FROM totals) AS participants,
        (SELECT total FROM me) AS total,
        EXISTS (SELECT 1 FROM me) AS ranked`),
  ]);
  const head = overall[0];
  return {
    items: perSubject.map((r) => ({ subjectId: r.subject_id, position: r.position, participants: r.participants })),
    overall: head?.ranked ? head.position : null,
    participants: head?.participants ?? 0,
    totalScore: head?.total ?? 0,
  };
}

/** How far ahead the dashboard announces a Quiz Rush event (issue 34). */
export const RUSH_HEADS_UP_MS = 24 * 60 * 60 * 1000;

export type RushHeadsUp = {
  event: RushEventView;
  /** The window holds `now` (otherwise it opens within RUSH_HEADS_UP_MS). */
  live: boolean;
  /** Subjects the student has not started in this event, in id order. */
  openSubjects: { id: number; name: string }[];
};

/**
 * The dashboard's Quiz Rush card: the published event that is live at `now` or opens within 24 hours (the earliest),
 * with the subjects still open to the student; null when there is none or nothing is left to start.
 */
export async function rushHeadsUp(db: Db, userId: number, now: number): Promise<RushHeadsUp | null> {
  const event = await db
    .select()
    .from(rushEvents)
    .where(
      and(
        eq(rushEvents.published, true),
        lte(rushEvents.startsAt, new Date(now + RUSH_HEADS_UP_MS)),
        gt(rushEvents.endsAt, new Date(now)),
      ),
    )
    .orderBy(asc(rushEvents.startsAt), asc(rushEvents.id))
    .get();
  if (!event) return null;
  const [all, taken] = await Promise.all([
    rushSubjects(db),
    db
      .select({ subjectId: rushProgress.subjectId })
      .from(rushProgress)
      .where(and(eq(rushProgress.eventId, event.id), eq(rushProgress.userId, userId))),
  ]);
  const started = new Set(taken.map((t) => t.subjectId));
  const openSubjects = all.filter((s) => !started.has(s.id));
  if (!openSubjects.length) return null;
  return {
    event: { id: event.id, title: event.title, startsAt: event.startsAt.getTime(), endsAt: event.endsAt.getTime() },
    live: event.startsAt.getTime() <= now,
    openSubjects,
  };
}

/** Subjects shown as rush cards, in id order. */
export function rushSubjects(db: Db) {
  return db.select({ id: subjects.id, name: subjects.name }).from(subjects).orderBy(asc(subjects.id));
}

/**
 * Where /quiz-rush/start sends the student: refuses (without claiming anything; the quiz draw claims)
 * outside the window and for a subject already started in the active event.
 */
export async function checkRushStart(db: Db, args: { userId: number; subjectId: number; now?: number }) {
  const event = await activeRushEvent(db, args.now ?? Date.now());
  if (!event) throw new HttpError(409, RUSH_INACTIVE_MESSAGE);
  const subject = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.id, args.subjectId)).get();
  if (!subject) throw new HttpError(404, "Materia inesistente.");
  const taken = await db
    .select({ id: rushProgress.id })
    .from(rushProgress)
    .where(
      and(
        eq(rushProgress.eventId, event.id),
        eq(rushProgress.userId, args.userId),
        eq(rushProgress.subjectId, args.subjectId),
      ),
    )
    .get();
  if (taken) throw new HttpError(409, RUSH_DUPLICATE_MESSAGE);
  return event;
}

// --- Admin: events ---

export type RushEventInput = { title: string; startsAt: number; endsAt: number; published: boolean };

function eventRow(e: typeof rushEvents.$inferSelect) {
  return {
    id: e.id,
    title: e.title,
    startsAt: e.startsAt.toISOString(),
    endsAt: e.endsAt.toISOString(),
    published: e.published,
  };
}

export async function listRushEvents(db: Db) {
  const rows = await db.select().from(rushEvents).orderBy(desc(rushEvents.startsAt), desc(rushEvents.id));
  return rows.map(eventRow);
}

function audit(db: Db, actor: SessionUser, action: AuditAction, targetId: number, details: Record<string, unknown>) {
  return auditEntry(db, actor, action, { type: "rush_event", id: targetId }, details);
}

const auditDetails = (input: RushEventInput) => ({
  title: input.title,
  startsAt: new Date(input.startsAt).toISOString(),
  endsAt: new Date(input.endsAt).toISOString(),
  published: input.published,
});

export async function createRushEvent(db: Db, actor: SessionUser, input: RushEventInput) {
  const row = await db
    .insert(rushEvents)
    .values({
      title: input.title,
      startsAt: new Date(input.startsAt),
      endsAt: new Date(input.endsAt),
      published: input.published,
    })
    .returning()
    .get();
  await audit(db, actor, "rush_event.create", row.id, auditDetails(input));
  return eventRow(row);
}

export async function updateRushEvent(db: Db, actor: SessionUser, id: number, input: RushEventInput) {
  const existing = await db.select({ id: rushEvents.id }).from(rushEvents).where(eq(rushEvents.id, id)).get();
  if (!existing) throw new HttpError(404, "Evento Rush inesistente.");
  const [updated] = await db.batch([
    db
      .update(rushEvents)
      .set({
        title: input.title,
        startsAt: new Date(input.startsAt),
        endsAt: new Date(input.endsAt),
        published: input.published,
      })
      .where(eq(rushEvents.id, id))
      .returning(),
    audit(db, actor, "rush_event.update", id, auditDetails(input)),
  ]);
  return eventRow(updated[0]!);
}

export async function deleteRushEvent(db: Db, actor: SessionUser, id: number) {
  const existing = await db.select().from(rushEvents).where(eq(rushEvents.id, id)).get();
  if (!existing) throw new HttpError(404, "Evento Rush inesistente.");
  // Its progress rows go with it (foreign key on delete cascade); delete them explicitly too.
  await db.batch([
    db.delete(rushProgress).where(eq(rushProgress.eventId, id)),
    db.delete(rushEvents).where(eq(rushEvents.id, id)),
    audit(db, actor, "rush_event.delete", id, { title: existing.title }),
  ]);
  return { ok: true };
}

// --- Admin input: app/lib/forms/rush-event.ts (the Rush tab checks the same schema as you save) ---

export { rushEventInputSchema } from "~/lib/forms/rush-event";
