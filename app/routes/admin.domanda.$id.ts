// GET /admin/domanda/:id: a question opened in the console's editor (from a report or the search), through a
// fetcher. Staff only; the same service as GET /api/admin/questions/{id}.
import { questionForEditor } from "~/server/admin/reports.server";
import { idParam } from "~/server/api.server";
import { dbOf } from "~/server/context";
import { lookup } from "~/server/lookup.server";
import { requirePageUser } from "~/server/page-guard.server";
import { lookupOrOffline } from "~/lib/use-lookup";
import type { Route } from "./+types/admin.domanda.$id";

export async function loader(args: Route.LoaderArgs) {
  await requirePageUser(args, "staff");
  return lookup(() => questionForEditor(dbOf(args.context), idParam(args.params.id)));
}

// Offline: the dialog says so instead of the error page.
export const clientLoader = lookupOrOffline;
