// The admin console's tabs as routes (issue 19): /admin/<tab>. Each tab's loader lets in only the roles that see
// the tab (app/lib/admin-tabs.ts: a moderator Segnalazioni, a teacher Classi and Simulazioni, an admin all);
// anyone else with console access goes to /admin, which opens their first tab. The data calls check again.
import { redirect } from "react-router";
import { tabsFor, type AdminTabKey } from "~/lib/admin-tabs";
import { requirePageUser, type PageArgs } from "../page-guard.server";

export async function requireAdminTab(args: PageArgs, key: AdminTabKey) {
  const user = await adminTabUser(args, key);
  return { role: user.effectiveRole };
}

/**
 * The signed-in user of a tab's loader or action, if the tab is theirs. Seeing a tab is the role its writes need
 * (admin; staff for Segnalazioni; teacher for Classi and Simulazioni), so an action needs no second check; which
 * class or simulation a teacher may touch is decided by the service.
 */
export async function adminTabUser(args: PageArgs, key: AdminTabKey) {
  const user = await requirePageUser(args, "console");
  if (!tabsFor(user.effectiveRole).some((t) => t.key === key)) throw redirect("/admin");
  return user;
}
