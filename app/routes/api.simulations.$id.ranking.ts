// GET /api/simulations/{id}/ranking: pos (and position), percentile, score, participants, ranking[] of
// {userId, pos, score} (the top 50), around[] (the 10 around the caller), final (false until every room has graded).
// A day alone (issue 46) has no list of others: `solo` {peers, percentile} says where it stands among their days.
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { rankingFor } from "~/server/simulation/ranking.server";
import { requireSimulationFor } from "~/server/simulation/door.server";
import { soloRanking } from "~/server/simulation/solo.server";

export const loader = api({
  access: "user",
  async handler({ params, db, user }) {
    const sim = await requireSimulationFor(db, simulationIdParam(params.id), user);
    if (sim.soloUserId != null) return soloRanking(db, sim.id, user.id);
    return rankingFor(db, sim.id, user.id, sim);
  },
});
