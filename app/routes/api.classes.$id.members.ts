// GET /api/classes/:id/members: the members of a class the caller manages.
// POST /api/classes/:id/members {emails}: adds existing accounts by e-mail; lists the ones not found.
import { api, idParam, methods, readJson } from "~/server/api.server";
import { AddMembersInput, addMembersByEmail, classMembersOf } from "~/server/classes.server";

export const loader = api({
  access: "teacher",
  handler: ({ params, db, user }) => classMembersOf(db, user, idParam(params.id)),
});

export const action = methods({
  POST: api({
    access: "teacher",
    async handler({ request, params, db, user }) {
      const classId = idParam(params.id);
      const { emails } = await readJson(request, AddMembersInput);
      return addMembersByEmail(db, user, classId, emails);
    },
  }),
});
