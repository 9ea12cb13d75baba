// /admin/tentativi: the console's "tentativi" tab (its data comes through the admin JSON calls, which check the role again).
import { TentativiTab } from "~/components/admin/TentativiTab";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import type { Route } from "./+types/admin.tentativi";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "tentativi");
}

export default function AdminTab() {
  return <TentativiTab />;
}
