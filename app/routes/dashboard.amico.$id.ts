// GET /dashboard/amico/:id: the statistics of a friend the dashboard compares with, through a fetcher. Only an
// accepted friend's; the same rule and service as GET /api/friend/analytics?userId=.
import { studentAnalytics } from "~/server/analytics.server";
import { idParam } from "~/server/api.server";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { acceptedFriend } from "~/server/friends.server";
import { lookup } from "~/server/lookup.server";
import { requirePageUser } from "~/server/page-guard.server";
import { lookupOrOffline } from "~/lib/use-lookup";
import type { Route } from "./+types/dashboard.amico.$id";

const FRIEND_NOT_LINKED = "Nessun amico collegato: invita un amico dal profilo e attendi che accetti.";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const db = dbOf(args.context);
  return lookup(async () => {
    const friend = await acceptedFriend(db, user.id, idParam(args.params.id));
    if (!friend) throw new HttpError(404, FRIEND_NOT_LINKED);
    return studentAnalytics(db, friend.userId);
  });
}

// Offline: the dashboard falls back to the cached copy instead of the error page.
export const clientLoader = lookupOrOffline;
