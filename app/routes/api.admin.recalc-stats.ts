// POST /api/admin/recalc-stats: rebuild the site-wide aggregates. Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, methods } from "~/server/api.server";
import { recalcStats } from "~/server/admin/imports.server";

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ db, user }) {
      return recalcStats(db, user);
    },
  }),
});

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("admin");
