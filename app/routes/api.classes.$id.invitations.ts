// GET /api/classes/:id/invitations: the invitations of a class the caller manages not accepted yet, by address.
import { api, idParam } from "~/server/api.server";
import { classInvitationsOf } from "~/server/class-invitations.server";

export const loader = api({
  access: "teacher",
  handler: ({ params, db, user }) => classInvitationsOf(db, user, idParam(params.id)),
});
