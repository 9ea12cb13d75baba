// GET /api/classes/invitations: the class invitations addressed to the signed-in user's e-mail, still to answer.
import { api } from "~/server/api.server";
import { invitationsFor } from "~/server/class-invitations.server";

export const loader = api({
  access: "user",
  handler: ({ db, user }) => invitationsFor(db, user),
});
