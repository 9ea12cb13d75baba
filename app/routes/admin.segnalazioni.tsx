// /admin/segnalazioni: the console's "segnalazioni" tab (its data comes through the admin JSON calls, which check the role again).
import { SegnalazioniTab } from "~/components/admin/SegnalazioniTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.segnalazioni";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "segnalazioni");
}

export default function AdminTab() {
  return <SegnalazioniTab />;
}
