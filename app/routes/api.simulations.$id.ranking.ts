// GET /api/simulations/{id}/ranking: pos (and position), percentile, score, participants, ranking[] of
// {userId, pos, score} (the top 50), around[] (the 10 around the caller), final (false until every room has graded).
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { rankingFor } from "~/server/simulation/ranking.server";
import { requireSimulationFor } from "~/server/simulation/door.server";

export const loader = api({
  access: "user",
  async handler({ params, db, user }) {
    const sim = await requireSimulationFor(db, simulationIdParam(params.id), user);
    return rankingFor(db, sim.id, user.id, sim);
  },
});
