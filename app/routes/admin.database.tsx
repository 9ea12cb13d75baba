// /admin/database: the console's "database" tab (its data comes through the admin JSON calls, which check the role again).
import { DatabaseTab } from "~/components/admin/DatabaseTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.database";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "database");
}

export default function AdminTab() {
  return <DatabaseTab />;
}
