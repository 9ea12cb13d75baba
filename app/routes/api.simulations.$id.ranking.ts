// GET /api/simulations/{id}/ranking: pos (and position), percentile, ranking[] of {userId, pos, score}.
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation-schemas.server";
import { rankingFor, requireSimulationFor } from "~/server/simulations.server";

export const loader = api({
  access: "user",
  async handler({ params, db, user }) {
    const id = simulationIdParam(params.id);
    await requireSimulationFor(db, id, user);
    return rankingFor(db, id, user.id);
  },
});
