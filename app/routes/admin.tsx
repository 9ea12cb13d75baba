import { useLoaderData, useSearchParams } from "react-router";
import { AdminSearch } from "~/components/admin/AdminSearch";
import { AnalyticsTab } from "~/components/admin/AnalyticsTab";
import { ClassiTab } from "~/components/admin/ClassiTab";
import { DatabaseTab } from "~/components/admin/DatabaseTab";
import { RushTab } from "~/components/admin/RushTab";
import { SegnalazioniTab } from "~/components/admin/SegnalazioniTab";
import { SimulazioniTab } from "~/components/admin/SimulazioniTab";
import { tabsFor, type AdminTabKey } from "~/components/admin/tabs";
import { TentativiTab } from "~/components/admin/TentativiTab";
import { UtentiTab } from "~/components/admin/UtentiTab";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin";

export async function loader(args: Route.LoaderArgs) {
  // Moderators (Segnalazioni), teachers (Classi, Simulazioni) and admins (everything).
  const user = await requirePageUser(args, "console");
  return { role: user.effectiveRole };
}

// Each tab loads its own data through the admin JSON calls, which check the role on the server.
const PANELS: Record<AdminTabKey, () => React.ReactNode> = {
  analytics: () => <AnalyticsTab />,
  utenti: () => <UtentiTab />,
  tentativi: () => <TentativiTab />,
  segnalazioni: () => <SegnalazioniTab />,
  database: () => <DatabaseTab />,
  classi: () => <ClassiTab />,
  simulazioni: () => <SimulazioniTab />,
  rush: () => <RushTab />,
};

export default function Admin() {
  const { role } = useLoaderData<typeof loader>();
  const tabs = tabsFor(role);
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const active = tabs.find((t) => t.key === requested) ?? tabs[0]!;
  const select = (key: string) => setParams({ tab: key }, { replace: true });
  const onKeyDown = (event: React.KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.key === active.key);
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!delta) return;
    event.preventDefault();
    const next = tabs[(index + delta + tabs.length) % tabs.length]!;
    select(next.key);
    document.getElementById(`admin-tab-${next.key}`)?.focus();
  };
  return (
    <section className="page">
      <h1 className="page__title">Amministrazione</h1>
      {role === "admin" ? <AdminSearch /> : null}
      <div className="tabs" role="tablist" aria-label="Sezioni" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            id={`admin-tab-${tab.key}`}
            type="button"
            role="tab"
            aria-selected={tab.key === active.key}
            aria-controls={`admin-panel-${tab.key}`}
            tabIndex={tab.key === active.key ? 0 : -1}
            onClick={() => select(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={`admin-panel-${active.key}`} role="tabpanel" aria-labelledby={`admin-tab-${active.key}`}>
        {PANELS[active.key]()}
      </div>
    </section>
  );
}
