// /admin/classi: the console's "classi" tab (its data comes through the admin JSON calls, which check the role again).
import { ClassiTab } from "~/components/admin/ClassiTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.classi";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "classi");
}

export default function AdminTab() {
  return <ClassiTab />;
}
