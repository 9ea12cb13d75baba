import { z } from "zod";
import { api, readQuery } from "~/server/api.server";
import { studentAnalytics } from "~/server/analytics.server";
import { HttpError, withLabels } from "~/server/errors.server";
import { acceptedFriend } from "~/server/friends.server";

const query = withLabels(
  z.object({
    userId: z.coerce.number("Amico non valido.").int("Amico non valido.").positive("Amico non valido.").optional(),
  }),
  { userId: "Amico" },
);

// GET /api/friend/analytics[?userId=]: the analytics of an accepted friend (the most recent one by
// default); 404 without an accepted friendship.
export const loader = api({
  access: "user",
  async handler({ request, db, user }) {
    const { userId } = readQuery(request, query);
    const friend = await acceptedFriend(db, user.id, userId);
    if (!friend) {
      throw new HttpError(404, "Nessun amico collegato: invita un amico dal profilo e attendi che accetti.");
    }
    return studentAnalytics(db, friend.userId);
  },
});
