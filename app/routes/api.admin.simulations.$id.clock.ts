// POST /api/admin/simulations/{id}/clock {aheadMs}: a test hook for the browser tests, live only with the development
// sign-in (DEV_LOGIN=1, which already lets anyone in as admin; 404 everywhere else). Moves a started simulation's start
// `aheadMs` earlier, so the exam day's deadlines pass in seconds (test/e2e/simulation-day.spec.ts).
import { api, methods, readJson } from "~/server/api.server";
import { devLoginEnabled } from "~/server/auth.server";
import { HttpError } from "~/server/errors.server";
import { advanceSimulationClockForTest } from "~/server/simulation/start.server";
import { ClockAdvance, simulationIdParam } from "~/server/simulation/schemas.server";

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ params, request, db, env }) {
      if (!devLoginEnabled(env)) throw new HttpError(404, "Indirizzo non trovato.");
      const { aheadMs } = await readJson(request, ClockAdvance);
      return advanceSimulationClockForTest(db, env, simulationIdParam(params.id), aheadMs);
    },
  }),
});
