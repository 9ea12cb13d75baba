// POST /api/admin/reprocess-attempt-answers: regrade stored answers against the current keys. Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, methods } from "~/server/api.server";
import { reprocessAttemptAnswers } from "~/server/admin/imports.server";

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ db, user }) {
      return reprocessAttemptAnswers(db, user);
    },
  }),
});

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("admin");
