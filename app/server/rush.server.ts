// Quiz Rush: the server decides whether a rush quiz may start and records its score from the
// graded attempt (never from the client).
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { rushEvents, rushProgress } from "./db/schema";
import { HttpError } from "./errors.server";

export const RUSH_DUPLICATE_MESSAGE = "Hai già completato il quiz per questa materia nella sessione Rush attiva.";
export const RUSH_INACTIVE_MESSAGE = "Nessun evento Rush attivo";

/** The published event whose window holds `now` (start inclusive, end exclusive), if any. */
export async function activeRushEvent(db: Db, now = Date.now()) {
  return db
    .select()
    .from(rushEvents)
    .where(and(eq(rushEvents.published, true), lte(rushEvents.startsAt, new Date(now)), gt(rushEvents.endsAt, new Date(now))))
    .orderBy(rushEvents.startsAt)
    .get();
}

/**
 * Claims the user's one rush slot for this subject in this event (call when the rush quiz is created).
 * Refused outside the event's window (409) and for a subject already started in this event (409).
 */
export async function claimRushStart(db: Db, args: { userId: number; eventId: number; subjectId: number; now?: number }) {
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
  args: { userId: number; eventId: number; subjectId: number; attemptId: number; score: number; timeSec: number; finishedAt: Date },
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
