import { useEffect, useMemo, useState } from "react";
import { Outlet, useLoaderData } from "react-router";
import { navEntriesFor } from "~/components/side-nav/nav-entries";
import { SideNav } from "~/components/side-nav/SideNav";
import { OfflineBanner } from "~/components/offline/OfflineBanner";
import { useOfflineSync } from "~/components/offline/use-offline-sync";
import { useSignOut } from "~/components/offline/use-sign-out";
import { keepsSession } from "~/lib/forms";
import { LEGACY_NAV_KEY, navChoiceIn, navCollapsedFrom, storeNavChoice } from "~/lib/nav-state";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/app-layout";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  return {
    user: { id: user.id, name: user.name, role: user.effectiveRole },
    // The side navigation as the student left it, drawn so by the server (no shift after hydration).
    navCollapsed: navCollapsedFrom(args.request.headers.get("Cookie")),
  };
}

// A write that signed the user out (on /profilo) leaves by itself: no reload of the signed-in shell first.
export const shouldRevalidate = keepsSession;

/**
 * The navigation's collapsed state: the server's reading of the cookie first, then the student's toggles, each
 * stored in the cookie. A choice still in localStorage (before issue 33) moves into the cookie once.
 */
function useNavCollapsed(fromServer: boolean): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setCollapsed] = useState(fromServer);
  const store = (value: boolean) => {
    setCollapsed(value);
    storeNavChoice(value);
  };
  useEffect(() => {
    try {
      const legacy = localStorage.getItem(LEGACY_NAV_KEY);
      if (legacy === null) return;
      localStorage.removeItem(LEGACY_NAV_KEY);
      if (!navChoiceIn(document.cookie)) {
        setCollapsed(legacy === "1");
        storeNavChoice(legacy === "1");
      }
    } catch {
      // storage unavailable: the cookie alone holds the choice
    }
  }, []);
  return [collapsed, store];
}

export default function AppLayout() {
  const { user, navCollapsed } = useLoaderData<typeof loader>();
  // The entries follow the role: Simulazioni and Quiz Rush for students, Console for staff (issue 34).
  const entries = useMemo(() => navEntriesFor(user.role), [user.role]);
  const [collapsed, setCollapsed] = useNavCollapsed(navCollapsed);
  // Installable and offline (issue 47): this device's copies are the account's, handed-in quizzes are sent.
  useOfflineSync(user.id);
  const signOut = useSignOut(user.id);
  return (
    <div className={collapsed ? "app-shell sidebar-collapsed" : "app-shell"}>
      <SideNav entries={entries} collapsed={collapsed} onCollapse={setCollapsed} onSignOut={signOut} />
      <main className="app-main" id="contenuto">
        <OfflineBanner />
        <Outlet />
      </main>
    </div>
  );
}
