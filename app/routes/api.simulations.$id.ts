// GET /api/simulations/{id}: the flow (subjects, durations, breaks), started, startTime, serverTime, the caller's
// extra time (accommodation) and room. Questions of subjects not yet open for the caller are withheld; the rest come
// in the caller's own order (questions and options); answer keys are never included. O(1) in the audience: one point
// lookup for the door and the room, the plan once per isolate after the start (issue 31).
import { candidateExtraPct } from "~/server/accommodations.server";
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation-schemas.server";
import {
  publicSimulation,
  requireSimulationAccess,
  simulationGapBoxes,
  simulationPlan,
} from "~/server/simulations.server";

export const loader = api({
  access: "user",
  async handler({ params, db, user }) {
    const {
      sim,
      shard,
      shards,
      extraPct: fixedPct,
    } = await requireSimulationAccess(db, simulationIdParam(params.id), user);
    const [subjects, extraPct, gapBoxes] = await Promise.all([
      simulationPlan(db, sim),
      candidateExtraPct(db, sim.id, user.id, sim.started, fixedPct),
      simulationGapBoxes(db, sim.editionId),
    ]);
    return publicSimulation(
      { ...sim, subjects },
      Date.now(),
      { userId: user.id, extraPct },
      { gapBoxes },
      { shard, shards },
    );
  },
});
