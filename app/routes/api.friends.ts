import { api, methods, readJson } from "~/server/api.server";
import { friendsOverview, inviteFriend } from "~/server/friends.server";
import { inviteSchema } from "~/lib/forms/friends";

// GET /api/friends: your share code, friends, invitations received and sent.
export const loader = api({
  access: "user",
  handler: ({ db, user }) => friendsOverview(db, user.id),
});

// POST /api/friends {handle}: invite a student by username or share code.
export const action = methods({
  POST: api({
    access: "user",
    async handler({ request, db, user }) {
      const { handle } = await readJson(request, inviteSchema);
      return Response.json(await inviteFriend(db, user.id, handle), { status: 201 });
    },
  }),
});
