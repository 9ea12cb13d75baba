// POST /api/classes/invitations/:id/accept: the invited pupil joins the class (someone else's or unknown: 404).
import { api, idParam, methods } from "~/server/api.server";
import { acceptInvitation } from "~/server/class-invitations.server";

export const action = methods({
  POST: api({
    access: "user",
    handler: ({ params, db, user }) => acceptInvitation(db, user, idParam(params.id)),
  }),
});
