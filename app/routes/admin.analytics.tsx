// /admin/analytics: the console's "analytics" tab (its data comes through the admin JSON calls, which check the role again).
import { AnalyticsTab } from "~/components/admin/AnalyticsTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.analytics";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "analytics");
}

export default function AdminTab() {
  return <AnalyticsTab />;
}
