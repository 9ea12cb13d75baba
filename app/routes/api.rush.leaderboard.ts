// GET /api/rush/leaderboard: the signed-in user's positions per subject and overall in the active event.
import { api } from "~/server/api.server";
import { activeRushEvent, rushLeaderboard } from "~/server/rush.server";

export const loader = api({
  access: "user",
  async handler({ db, user }) {
    const event = await activeRushEvent(db);
    if (!event) return { eventId: null, items: [], overall: null, participants: 0, totalScore: 0 };
    return { eventId: event.id, ...(await rushLeaderboard(db, user.id, event.id)) };
  },
});

// Read-only: any write method is refused (a client can never send a rush score).
export const action = api({
  access: "user",
  async handler() {
    return Response.json({ error: "Metodo non consentito per questo indirizzo." }, { status: 405 });
  },
});
