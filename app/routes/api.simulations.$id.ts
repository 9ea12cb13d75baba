// GET /api/simulations/{id}: the flow (subjects, durations, breaks), started, startTime, serverTime, the caller's
// extra time (accommodation) and room. Questions of subjects not yet open for the caller are withheld in clear; the
// rest come in the caller's own order (questions and options); answer keys are never included. O(1) in the audience:
// one point lookup for the door and the room, the plan once per isolate after the start (issue 31).
// Sealed prefetch (issue 31): `sealed` carries, for each subject not yet open for the caller (before Avvia too), an
// AES-GCM copy of exactly what that subject will return once open; the room sends its key over the socket at the
// caller's own opening, so the runner needs no call at the start nor per subject (sealedSubjectsFor).
import { candidateExtraPct } from "~/server/accommodations.server";
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { publicSimulation, simulationPlan } from "~/server/simulation/plan.server";
import { requireSimulationAccess } from "~/server/simulation/door.server";
import { sealedSubjectsFor } from "~/server/simulation/sealed-copies.server";
import { simulationGapBoxes } from "~/server/simulation/results.server";

export const loader = api({
  access: "user",
  async handler({ params, db, env, user }) {
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
    const now = Date.now();
    const candidate = { userId: user.id, extraPct };
    const config = { ...sim, subjects };
    return {
      ...publicSimulation(config, now, candidate, { gapBoxes }, { shard, shards }),
      // A day alone (issue 46): its student may cut a break short (POST .../skip-break).
      solo: sim.soloUserId != null,
      sealed: await sealedSubjectsFor(env.SESSION_SECRET, config, now, candidate),
    };
  },
});
