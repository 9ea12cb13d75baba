// GET /api/admin/reports?status=open|resolved: open first, then newest. Moderators and admins.
import { api, readQuery } from "~/server/api.server";
import { listReports, reportListQuery } from "~/server/admin/reports.server";

export const loader = api({
  access: "staff",
  async handler({ request, db }) {
    return listReports(db, readQuery(request, reportListQuery));
  },
});
