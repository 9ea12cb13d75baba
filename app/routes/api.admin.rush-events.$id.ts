// PUT and DELETE /api/admin/rush-events/{id}: admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { api, idParam, methods, readJson } from "~/server/api.server";
import { deleteRushEvent, rushEventInputSchema, updateRushEvent } from "~/server/rush.server";

export const action = methods({
  PUT: api({
    access: "admin",
    async handler({ request, params, db, user }) {
      const id = idParam(params.id);
      const input = await readJson(request, rushEventInputSchema);
      return updateRushEvent(db, user, id, input);
    },
  }),
  DELETE: api({
    access: "admin",
    async handler({ params, db, user }) {
      return deleteRushEvent(db, user, idParam(params.id));
    },
  }),
});

// A GET on one event is not part of the contract; the role is still checked first.
export const loader = unsupportedMethod("admin");
