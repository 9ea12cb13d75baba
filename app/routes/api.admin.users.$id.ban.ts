// POST /api/admin/users/{id}/ban: the suspend/reactivate toggle (reason required to suspend).
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, idParam, methods, parseJsonText, readJsonText } from "~/server/api.server";
import { banSchema, toggleBan } from "~/server/admin/users.server";
import { HttpError, zodMessage } from "~/server/errors.server";

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ request, params, db, user }) {
      const id = idParam(params.id);
      // The body is optional (Riattiva sends none).
      const body = parseJsonText(await readJsonText(request), true);
      const parsed = banSchema.safeParse(body);
      if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error));
      return toggleBan(db, user, id, parsed.data?.reason);
    },
  }),
});

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("admin");
