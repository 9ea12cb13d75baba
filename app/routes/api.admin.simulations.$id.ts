// DELETE /api/admin/simulations/{id}
import { api, methods } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { deleteSimulation } from "~/server/simulation/admin.server";

export const action = methods({
  DELETE: api({
    access: "teacher",
    async handler({ params, db, env, user }) {
      await deleteSimulation(db, env, simulationIdParam(params.id), user);
      return { ok: true };
    },
  }),
});
