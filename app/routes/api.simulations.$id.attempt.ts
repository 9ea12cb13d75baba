// POST /api/simulations/{id}/attempt {answers, timeTaken}: merged in the room with the autosaved
// answers; near the end the room grades and the stored result comes back. Idempotent. The call goes to the
// student's own room (shard), the same one its socket uses.
import { api, readJson } from "~/server/api.server";
import { HttpError } from "~/server/errors.server";
import { AttemptSubmit, simulationIdParam } from "~/server/simulation/schemas.server";
import { submitSimulationAttempt } from "~/server/simulation/results.server";

export const action = api({
  access: "user",
  async handler({ request, params, db, env, user }) {
    if (request.method !== "POST") throw new HttpError(405, "Metodo non consentito per questo indirizzo.");
    const id = simulationIdParam(params.id);
    return submitSimulationAttempt(db, env, id, user, await readJson(request, AttemptSubmit));
  },
});
