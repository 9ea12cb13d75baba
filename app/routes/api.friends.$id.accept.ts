import { api, idParam, methods } from "~/server/api.server";
import { acceptFriend } from "~/server/friends.server";

// POST /api/friends/:id/accept: the invited student accepts.
export const action = methods({
  POST: api({
    access: "user",
    async handler({ params, db, user }) {
      await acceptFriend(db, user.id, idParam(params.id));
      return { ok: true };
    },
  }),
});
