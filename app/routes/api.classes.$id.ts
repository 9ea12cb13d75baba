// DELETE /api/classes/:id: the class's teacher (or an admin) deletes it with its memberships.
import { api, idParam, methods } from "~/server/api.server";
import { deleteClass } from "~/server/classes.server";

export const action = methods({
  DELETE: api({
    access: "teacher",
    handler: ({ params, db, user }) => deleteClass(db, user, idParam(params.id)),
  }),
});
