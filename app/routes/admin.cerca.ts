// GET /admin/cerca?q=: the console's search through a fetcher (the admin search box; the teacher's audience picker
// finds their own pupils with it). Teachers and admins; the same service and query schema as GET /api/admin/search.
import { data } from "react-router";
import { searchFor, searchQuery } from "~/server/admin/search.server";
import { dbOf, getEnv } from "~/server/context";
import { HttpError, retryAfterHeaders } from "~/server/errors.server";
import { lookup, lookupQuery } from "~/server/lookup.server";
import { requirePageUser } from "~/server/page-guard.server";
import { lookupOrOffline } from "~/lib/use-lookup";
import type { Route } from "./+types/admin.cerca";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args, "teacher");
  const db = dbOf(args.context);
  const env = getEnv(args.context);
  const limited: { refusal?: HttpError } = {};
  const found = await lookup(async () => {
    try {
      return await searchFor(db, env, user, lookupQuery(args.request, searchQuery).q);
    } catch (error) {
      if (error instanceof HttpError && error.status === 429) limited.refusal = error;
      throw error;
    }
  });
  // Over a teacher's limit: the dialog shows the message; the answer is a 429 with Retry-After, like every other.
  const refusal = limited.refusal;
  return refusal ? data(found, { status: 429, headers: retryAfterHeaders(refusal) }) : found;
}

// Offline: the dialog says so instead of the error page.
export const clientLoader = lookupOrOffline;
