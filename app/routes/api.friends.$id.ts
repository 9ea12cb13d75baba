import { api, idParam, methods } from "~/server/api.server";
import { endFriendship } from "~/server/friends.server";

// DELETE /api/friends/:id: either side ends the friendship (or refuses / withdraws an invitation).
export const action = methods({
  DELETE: api({
    access: "user",
    async handler({ params, db, user }) {
      await endFriendship(db, user.id, idParam(params.id));
      return { ok: true };
    },
  }),
});
