// GET /api/admin/attempts?page=&pageSize=: a JSON array (spec), the total in X-Total-Count. Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, readQuery } from "~/server/api.server";
import { adminAttemptsQuery, listAdminAttempts } from "~/server/admin/attempts.server";

export const loader = api({
  access: "admin",
  async handler({ request, db }) {
    const page = await listAdminAttempts(db, readQuery(request, adminAttemptsQuery));
    return Response.json(page.items, {
      headers: {
        "X-Total-Count": String(page.total),
        "X-Page": String(page.page),
        "X-Page-Size": String(page.pageSize),
      },
    });
  },
});

// Other methods: the role is checked first, then 405.
export const action = unsupportedMethod("admin");
