// GET /api/admin/rush-events (a JSON array) and POST /api/admin/rush-events: admins only.
import { api, readJson } from "~/server/api.server";
import { createRushEvent, listRushEvents, rushEventInputSchema } from "~/server/rush.server";

export const loader = api({
  access: "admin",
  async handler({ db }) {
    return listRushEvents(db);
  },
});

export const action = api({
  access: "admin",
  async handler({ request, db, user }) {
    if (request.method !== "POST") {
      return Response.json({ error: "Metodo non consentito per questo indirizzo." }, { status: 405 });
    }
    const input = await readJson(request, rushEventInputSchema);
    return Response.json(await createRushEvent(db, user, input), { status: 201 });
  },
});
