// GET /api/admin/users/{id} (detail with stats), PUT (edit), DELETE. Admins only.
import { api, idParam, methods, readJson } from "~/server/api.server";
import { deleteUser, updateUser, userDetail, userFormSchema } from "~/server/admin/users.server";

export const loader = api({
  access: "admin",
  async handler({ params, db }) {
    return userDetail(db, idParam(params.id));
  },
});

export const action = methods({
  PUT: api({
    access: "admin",
    async handler({ request, params, db, user }) {
      const id = idParam(params.id);
      return updateUser(db, user, id, await readJson(request, userFormSchema));
    },
  }),
  DELETE: api({
    access: "admin",
    async handler({ params, db, user }) {
      return deleteUser(db, user, idParam(params.id));
    },
  }),
});
