// GET /api/rush/event: the published event whose window holds now, or an empty object.
import { api } from "~/server/api.server";
import { currentRushEvent } from "~/server/rush.server";

export const loader = api({
  access: "user",
  async handler({ db }) {
    const event = await currentRushEvent(db);
    if (!event) return {};
    return {
      id: event.id,
      title: event.title,
      startsAt: new Date(event.startsAt).toISOString(),
      endsAt: new Date(event.endsAt).toISOString(),
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
