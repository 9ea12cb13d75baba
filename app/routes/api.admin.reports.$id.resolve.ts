// POST /api/admin/reports/{id}/resolve ('Segna risolta'). Staff.
import { api, idParam, methods } from "~/server/api.server";
import { resolveReport } from "~/server/admin/reports.server";

export const action = methods({
  POST: api({
    access: "staff",
    async handler({ params, db, user }) {
      return resolveReport(db, user, idParam(params.id));
    },
  }),
});
