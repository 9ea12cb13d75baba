// GET /api/simulations/{id}: the flow (subjects, durations, breaks), started, startTime, serverTime, and the caller's
// extra time (accommodation). Questions of subjects not yet open for the caller are withheld; the rest come in the
// caller's own order (questions and options); answer keys are never included.
import { candidateExtraPct } from "~/server/accommodations.server";
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation-schemas.server";
import { publicSimulation, requireSimulationFor, simulationGapBoxes } from "~/server/simulations.server";

export const loader = api({
  access: "user",
  async handler({ params, db, user }) {
    const config = await requireSimulationFor(db, simulationIdParam(params.id), user);
    const [extraPct, gapBoxes] = await Promise.all([
      candidateExtraPct(db, config.id, user.id, config.started),
      simulationGapBoxes(db, config.editionId),
    ]);
    return publicSimulation(config, Date.now(), { userId: user.id, extraPct }, { gapBoxes });
  },
});
