// /admin/utenti: the console's "utenti" tab (its data comes through the admin JSON calls, which check the role again).
import { UtentiTab } from "~/components/admin/UtentiTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.utenti";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "utenti");
}

export default function AdminTab() {
  return <UtentiTab />;
}
