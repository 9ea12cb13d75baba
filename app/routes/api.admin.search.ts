// GET /api/admin/search?q=: users by name/username/email, questions by text or id, attempts by id.
// Admins; a teacher (docente) gets only their own pupils, for the simulation picker (rate limited: 429 + Retry-After).
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, readQuery } from "~/server/api.server";
import { searchFor, searchQuery } from "~/server/admin/search.server";

export const loader = api({
  access: "teacher",
  async handler({ request, env, db, user }) {
    return searchFor(db, env, user, readQuery(request, searchQuery).q);
  },
});

// Other methods: the role is checked first, then 405.
export const action = unsupportedMethod("teacher");
