// GET /api/admin/search?q=: users by name/username/email, questions by text or id, attempts by id.
// Admins; a teacher (docente) gets students only, for the simulation picker.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, readQuery } from "~/server/api.server";
import { adminSearch, searchQuery } from "~/server/admin/search.server";

export const loader = api({
  access: "teacher",
  async handler({ request, db, user }) {
    return adminSearch(db, readQuery(request, searchQuery).q, user.effectiveRole === "admin" ? "admin" : "teacher");
  },
});

// Other methods: the role is checked first, then 405.
export const action = unsupportedMethod("teacher");
