// GET /admin/cerca?q=: the console's search through a fetcher (the admin search box; the teacher's audience picker
// finds students with it). Teachers and admins; the same service and query schema as GET /api/admin/search.
import { adminSearch, searchQuery } from "~/server/admin/search.server";
import { dbOf } from "~/server/context";
import { lookup, lookupQuery } from "~/server/lookup.server";
import { requirePageUser } from "~/server/page-guard.server";
import { lookupOrOffline } from "~/lib/use-lookup";
import type { Route } from "./+types/admin.cerca";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args, "teacher");
  return lookup(() =>
    adminSearch(
      dbOf(args.context),
      lookupQuery(args.request, searchQuery).q,
      user.effectiveRole === "admin" ? "admin" : "teacher",
    ),
  );
}

// Offline: the dialog says so instead of the error page.
export const clientLoader = lookupOrOffline;
