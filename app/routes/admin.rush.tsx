// /admin/rush: the console's "rush" tab (its data comes through the admin JSON calls, which check the role again).
import { RushTab } from "~/components/admin/RushTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.rush";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "rush");
}

export default function AdminTab() {
  return <RushTab />;
}
