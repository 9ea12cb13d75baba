// PUT /api/admin/reports/{id} {userAnswerKey, assignedScore, status}; DELETE (bulk delete). Staff.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, idParam, methods, readJson } from "~/server/api.server";
import { deleteReport, reportUpdateSchema, updateReport } from "~/server/admin/reports.server";

export const action = methods({
  PUT: api({
    access: "staff",
    async handler({ request, params, db, user }) {
      const id = idParam(params.id);
      return updateReport(db, user, id, await readJson(request, reportUpdateSchema));
    },
  }),
  DELETE: api({
    access: "staff",
    async handler({ params, db, user }) {
      return deleteReport(db, user, idParam(params.id));
    },
  }),
});

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("staff");
