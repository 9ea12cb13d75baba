// POST /api/admin/reports/{id}/resolve ('Segna risolta'). Staff.
import { unsupportedMethod } from "~/server/admin/route.server";
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

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("staff");
