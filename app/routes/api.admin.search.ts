// GET /api/admin/search?q=: users by name/email, questions by text or id, attempts by id. Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, readQuery } from "~/server/api.server";
import { adminSearch, searchQuery } from "~/server/admin/search.server";

export const loader = api({
  access: "admin",
  async handler({ request, db }) {
    return adminSearch(db, readQuery(request, searchQuery).q);
  },
});

// Other methods: the role is checked first, then 405.
export const action = unsupportedMethod("admin");
