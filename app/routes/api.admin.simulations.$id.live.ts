// GET /api/admin/simulations/{id}/live: the admin's live view of a sitting, one summary instead of one
// socket per room: connected and answered students per room and in total, rooms graded, attempts written.
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { liveSummary } from "~/server/simulation/staff-results.server";

export const loader = api({
  access: "admin",
  async handler({ params, db, env }) {
    return liveSummary(db, env, simulationIdParam(params.id));
  },
});
