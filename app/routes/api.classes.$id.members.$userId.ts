// DELETE /api/classes/:id/members/:userId: the teacher removes a student, or a student leaves
// (userId = their own id). Everyone else: 403.
import { api, idParam, methods } from "~/server/api.server";
import { removeMember } from "~/server/classes.server";

export const action = methods({
  DELETE: api({
    access: "user",
    handler: ({ params, db, user }) => removeMember(db, user, idParam(params.id), idParam(params.userId, "userId")),
  }),
});
