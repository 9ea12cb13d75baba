import { Outlet } from "react-router";
import { SideNav } from "~/components/side-nav/SideNav";
import { keepsSession } from "~/lib/forms";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/app-layout";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  return { user: { id: user.id, name: user.name, role: user.effectiveRole } };
}

// A write that signed the user out (on /profilo) leaves by itself: no reload of the signed-in shell first.
export const shouldRevalidate = keepsSession;

export default function AppLayout() {
  return (
    <div className="app-shell">
      <SideNav />
      <main className="app-main" id="contenuto">
        <Outlet />
      </main>
    </div>
  );
}
