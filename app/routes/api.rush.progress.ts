// GET /api/rush/progress: the signed-in user's graded rush subjects in the active event.
// Read-only: scores are written only by the grading of a rush attempt (recordRushResultStatement).
import { api } from "~/server/api.server";
import { activeRushEvent, rushProgressFor } from "~/server/rush.server";

export const loader = api({
  access: "user",
  async handler({ db, user }) {
    const event = await activeRushEvent(db);
    if (!event) return { eventId: null, items: [], pending: [] };
    const progress = await rushProgressFor(db, user.id, event.id);
    return {
      eventId: event.id,
      items: progress.items.map((i) => ({
        subjectId: i.subjectId,
        score: i.score,
        at: new Date(i.at).toISOString(),
        timeSec: i.timeSec,
      })),
      pending: progress.pending,
    };
  },
});

// Read-only: any write method is refused (a client can never send a rush score).
export const action = api({
  access: "user",
  async handler() {
    return Response.json({ error: "Metodo non consentito per questo indirizzo." }, { status: 405 });
  },
});
