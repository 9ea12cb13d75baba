// POST /api/admin/simulations/{id}/start: fixes startTime a few seconds ahead; the room broadcasts it.
import { api, methods } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { startSimulation } from "~/server/simulation/start.server";

export const action = methods({
  POST: api({
    access: "teacher",
    async handler({ params, db, env, user }) {
      return startSimulation(db, env, simulationIdParam(params.id), user);
    },
  }),
});
