// GET /api/admin/simulations/{id}/classes: results per allowed class of a finished simulation
// (ranking, average per subject, distribution, who did not show up). Its teacher or an admin.
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { classResults } from "~/server/simulation/staff-results.server";

export const loader = api({
  access: "teacher",
  handler: ({ params, db, user }) => classResults(db, simulationIdParam(params.id), user),
});
