// GET /admin/utenti/esporta?status=&role=&q=: every user matching the Utenti tab's filters (not one page), for its
// CSV export, through a fetcher. Admins only; the same service and query schema as GET /api/admin/users.
import { lookupOrOffline } from "~/lib/use-lookup";
import { listUsers, userListQuery } from "~/server/admin/users.server";
import { dbOf } from "~/server/context";
import { lookup, lookupQuery } from "~/server/lookup.server";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin.utenti.esporta";

export async function loader(args: Route.LoaderArgs) {
  await requirePageUser(args, "admin");
  return lookup(async () => {
    const { page: _, pageSize: __, ...filters } = lookupQuery(args.request, userListQuery);
    return (await listUsers(dbOf(args.context), filters)).items;
  });
}

// Offline: the tab says so instead of the error page.
export const clientLoader = lookupOrOffline;
