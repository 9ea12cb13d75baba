// The admin console's tabs as routes (issue 19): /admin/<tab>. Each tab's loader lets in only the roles that see
// the tab (app/components/admin/tabs.ts: a moderator Segnalazioni, a teacher Classi and Simulazioni, an admin all);
// anyone else with console access goes to /admin, which opens their first tab. The data calls check again.
import { redirect } from "react-router";
import { tabsFor, type AdminTabKey } from "~/components/admin/tabs";
import { requirePageUser, type PageArgs } from "../page-guard.server";

export async function requireAdminTab(args: PageArgs, key: AdminTabKey) {
  const user = await requirePageUser(args, "console");
  if (!tabsFor(user.effectiveRole).some((t) => t.key === key)) throw redirect("/admin");
  return { role: user.effectiveRole };
}
