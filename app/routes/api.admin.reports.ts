// GET /api/admin/reports?status=open|resolved: open first, then newest. Moderators and admins.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, readQuery } from "~/server/api.server";
import { listReports, reportListQuery } from "~/server/admin/reports.server";

export const loader = api({
  access: "staff",
  async handler({ request, db }) {
    return listReports(db, readQuery(request, reportListQuery));
  },
});

// Other methods: the role is checked first, then 405.
export const action = unsupportedMethod("staff");
