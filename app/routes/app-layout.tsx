import { useMemo } from "react";
import { Outlet, useLoaderData } from "react-router";
import { navEntriesFor } from "~/components/side-nav/nav-entries";
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
  const { user } = useLoaderData<typeof loader>();
  // The entries follow the role: Simulazioni and Quiz Rush for students, Console for staff (issue 34).
  const entries = useMemo(() => navEntriesFor(user.role), [user.role]);
  return (
    <div className="app-shell">
      <SideNav entries={entries} />
      <main className="app-main" id="contenuto">
        <Outlet />
      </main>
    </div>
  );
}
