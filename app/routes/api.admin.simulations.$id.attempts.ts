// GET /api/admin/simulations/{id}/attempts: every graded attempt with its ranking position.
import { api } from "~/server/api.server";
import { simulationIdParam } from "~/server/simulation-schemas.server";
import { adminAttempts } from "~/server/simulation-admin.server";

export const loader = api({
  access: "teacher",
  async handler({ params, db, user }) {
    return adminAttempts(db, simulationIdParam(params.id), user);
  },
});
