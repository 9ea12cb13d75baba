// GET /api/classes/:id/members: the members of a class the caller manages.
// POST /api/classes/:id/members {emails}: invites the addresses (the pupil accepts on /profilo); the answer is the
// same whether or not an address has an account. Rate limited per teacher (RATE_RULES: 429 + Retry-After).
import { api, idParam, methods, readJson } from "~/server/api.server";
import { inviteByEmail } from "~/server/class-invitations.server";
import { AddMembersInput, classMembersOf } from "~/server/classes.server";

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
      return inviteByEmail(db, user, classId, emails);
    },
  }),
});
