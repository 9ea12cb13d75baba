// DELETE /api/classes/invitations/:id: the invited pupil declines (someone else's or unknown: 404).
import { api, idParam, methods } from "~/server/api.server";
import { declineInvitation } from "~/server/class-invitations.server";

export const action = methods({
  DELETE: api({
    access: "user",
    handler: ({ params, db, user }) => declineInvitation(db, user, idParam(params.id)),
  }),
});
