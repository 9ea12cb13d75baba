// DELETE /api/admin/simulations/{id}
import { api, methods } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation-schemas.server";
import { deleteSimulation } from "~/server/simulations.server";

export const action = methods({
  DELETE: api({
    access: "admin",
    async handler({ params, db, env }) {
      await deleteSimulation(db, env, simulationIdParam(params.id));
      return { ok: true };
    },
  }),
});
