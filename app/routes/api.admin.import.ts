// POST /api/admin/import: JSON or CSV body, all-or-nothing (formats: docs/imports.md). Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, methods } from "~/server/api.server";
import { importBundle, readImportBody } from "~/server/admin/imports.server";

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ request, db, user }) {
      return importBundle(db, user, await readImportBody(request));
    },
  }),
});

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("admin");
