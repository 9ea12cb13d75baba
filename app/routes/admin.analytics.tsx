// /admin/analytics: the console's "analytics" tab. Its loader reads the figures (the service of GET
// /api/admin/analytics, default filters). Admins only.
import { AnalyticsTab } from "~/components/admin/AnalyticsTab";
import { adminAnalytics, analyticsQuery } from "~/server/admin/analytics.server";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf } from "~/server/context";
import type { Route } from "./+types/admin.analytics";

export async function loader(args: Route.LoaderArgs) {
  await requireAdminTab(args, "analytics");
  return { analytics: await adminAnalytics(dbOf(args.context), analyticsQuery.parse({})) };
}

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <AnalyticsTab data={loaderData.analytics} />;
}
