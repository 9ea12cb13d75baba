// /admin: opens the first tab the role sees; an older link /admin?tab=x&… goes to /admin/x?… (same filters).
import { redirect } from "react-router";
import { ADMIN_TABS, tabsFor } from "~/lib/admin-tabs";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin._index";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args, "console");
  const url = new URL(args.request.url);
  const asked = url.searchParams.get("tab");
  url.searchParams.delete("tab");
  url.searchParams.delete("index");
  const rest = url.searchParams.size ? `?${url.searchParams}` : "";
  const tab = ADMIN_TABS.find((t) => t.key === asked) ?? tabsFor(user.effectiveRole)[0]!;
  throw redirect(`/admin/${tab.key}${rest}`);
}
