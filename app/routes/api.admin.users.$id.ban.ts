// POST /api/admin/users/{id}/ban: the suspend/reactivate toggle (reason required to suspend).
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, idParam, methods } from "~/server/api.server";
import { banSchema, toggleBan } from "~/server/admin/users.server";
import { HttpError } from "~/server/errors.server";
import { zodMessage } from "~/server/errors.server";

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ request, params, db, user }) {
      const id = idParam(params.id);
      // The body is optional (Riattiva sends none).
      const text = await request.text();
      let body: unknown = undefined;
      if (text.trim()) {
        try {
          body = JSON.parse(text);
        } catch {
          throw new HttpError(400, "Corpo della richiesta non valido: JSON malformato.");
        }
      }
      const parsed = banSchema.safeParse(body);
      if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error));
      return toggleBan(db, user, id, parsed.data?.reason);
    },
  }),
});

// GET: the role is checked first, then 405.
export const loader = unsupportedMethod("admin");
