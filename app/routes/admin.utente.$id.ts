// GET /admin/utente/:id: a user's detail with statistics, opened in the console's dialog (Utenti's 'Dettagli', the
// search), through a fetcher. Admins only; the same service as GET /api/admin/users/{id}.
import { userDetail } from "~/server/admin/users.server";
import { idParam } from "~/server/api.server";
import { dbOf } from "~/server/context";
import { lookup } from "~/server/lookup.server";
import { requirePageUser } from "~/server/page-guard.server";
import { lookupOrOffline } from "~/lib/use-lookup";
import type { Route } from "./+types/admin.utente.$id";

export async function loader(args: Route.LoaderArgs) {
  await requirePageUser(args, "admin");
  return lookup(() => userDetail(dbOf(args.context), idParam(args.params.id)));
}

// Offline: the dialog says so instead of the error page.
export const clientLoader = lookupOrOffline;
