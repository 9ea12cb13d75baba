// GET /api/simulations/{id}: the flow (subjects, durations, breaks), started, startTime, serverTime.
// Questions of subjects not yet open are withheld; answer keys are never included.
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation-schemas.server";
import { publicSimulation, requireSimulationFor } from "~/server/simulations.server";

export const loader = api({
  access: "user",
  async handler({ params, db, user }) {
    const config = await requireSimulationFor(db, simulationIdParam(params.id), user);
    return publicSimulation(config, Date.now());
  },
});
