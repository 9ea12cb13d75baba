// POST /api/admin/reset-db {confirm: "RESET"}: refused unless ALLOW_DB_RESET=1. Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, methods, readJson } from "~/server/api.server";
import { assertResetAllowed, resetDatabase, resetSchema } from "~/server/admin/imports.server";

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ request, db, env, user }) {
      assertResetAllowed(env);
      await readJson(request, resetSchema);
      return resetDatabase(db, env, user);
    },
  }),
});

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("admin");
