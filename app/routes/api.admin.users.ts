// GET /api/admin/users (list with filters), POST /api/admin/users (create). Admins only.
import { api, methods, readJson, readQuery } from "~/server/api.server";
import { createUser, listUsers, userFormSchema, userListQuery } from "~/server/admin/users.server";

export const loader = api({
  access: "admin",
  async handler({ request, db }) {
    return listUsers(db, readQuery(request, userListQuery));
  },
});

export const action = methods({
  POST: api({
    access: "admin",
    async handler({ request, db, user }) {
      return createUser(db, user, await readJson(request, userFormSchema));
    },
  }),
});
