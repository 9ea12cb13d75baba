// GET /api/admin/users?status=&role=&q=&page=&pageSize= (a JSON array, as the spec says; the total in
// X-Total-Count; without `page`, every matching user), POST /api/admin/users (create). Admins only.
import { api, methods, readJson, readQuery } from "~/server/api.server";
import { createUser, listUsers, userFormSchema, userListQuery } from "~/server/admin/users.server";

export const loader = api({
  access: "admin",
  async handler({ request, db }) {
    const list = await listUsers(db, readQuery(request, userListQuery));
    return Response.json(list.items, {
      headers: {
        "X-Total-Count": String(list.total),
        "X-Page": String(list.page),
        "X-Page-Size": String(list.pageSize),
      },
    });
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
