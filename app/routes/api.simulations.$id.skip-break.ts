// POST /api/simulations/{id}/skip-break: the student of a day alone (issue 46) cuts their current break short; the rest
// of their day moves earlier (the stored timeline and the room: solo.server.ts). 404 for anyone else's day or a group
// simulation, 409 outside a break. Answers {id, startTime, endsAt}.
import { api, methods } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { skipSoloBreak } from "~/server/simulation/solo.server";

export const action = methods({
  POST: api({
    access: "user",
    handler: ({ params, db, env, user }) => skipSoloBreak(db, env, simulationIdParam(params.id), user.id),
  }),
});
