// GET /api/admin/analytics (spec section 3, "Admin analytics"). Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, readQuery } from "~/server/api.server";
import { adminAnalytics, analyticsQuery } from "~/server/admin/analytics.server";

export const loader = api({
  access: "admin",
  async handler({ request, db }) {
    return adminAnalytics(db, readQuery(request, analyticsQuery));
  },
});

// Other methods: the role is checked first, then 405.
export const action = unsupportedMethod("admin");
