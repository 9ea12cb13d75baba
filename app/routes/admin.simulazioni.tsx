// /admin/simulazioni: the console's "simulazioni" tab (its data comes through the admin JSON calls, which check the role again).
import { SimulazioniTab } from "~/components/admin/SimulazioniTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.simulazioni";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "simulazioni");
}

export default function AdminTab() {
  return <SimulazioniTab />;
}
