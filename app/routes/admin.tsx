import { Outlet, useLoaderData, useLocation, useNavigate } from "react-router";
import { AdminSearch } from "~/components/admin/AdminSearch";
import { tabsFor } from "~/lib/admin-tabs";
import { z } from "zod";
import { withParentLabels } from "~/lib/validation";
import { questionEditSchema, updateQuestion } from "~/server/admin/reports.server";
import { dbOf } from "~/server/context";
import { handleJson } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin";

export async function loader(args: Route.LoaderArgs) {
  // Moderators (Segnalazioni), teachers (Classi, Simulazioni) and admins (everything).
  const user = await requirePageUser(args, "console");
  return { role: user.effectiveRole };
}

/**
 * POST /admin (JSON {intent: "save-question", id, …}): a question edited from the console (the report dialog, the
 * admin search's editor), whatever tab is open. Staff only; the same service and schema as PUT /api/admin/questions/{id}.
 */
export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args, "staff");
  const db = dbOf(args.context);
  return handleJson(args.request, questionSaveSchema, ({ id, intent: _, ...question }) =>
    updateQuestion(db, user, id, question),
  );
}

const questionSaveSchema = withParentLabels(
  questionEditSchema.extend({
    intent: z.literal("save-question"),
    id: z.number("Domanda non valida").int().positive(),
  }),
  questionEditSchema,
  { intent: "Operazione", id: "Domanda" },
);

// The console's frame: title, search, and the tab bar. Each tab is its own route (/admin/utenti, …), so a tab has
// a URL and the back button returns to the previous one; the tab's module is in app/routes/admin.<tab>.tsx.
export default function Admin() {
  const { role } = useLoaderData<typeof loader>();
  const tabs = tabsFor(role);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active =
    tabs.find((t) => pathname === `/admin/${t.key}` || pathname.startsWith(`/admin/${t.key}/`)) ?? tabs[0]!;
  const select = (key: string) => {
    if (key !== active.key) navigate(`/admin/${key}`);
  };
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
        <Outlet />
      </div>
    </section>
  );
}
