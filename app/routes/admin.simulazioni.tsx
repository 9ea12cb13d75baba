// /admin/simulazioni: the console's Simulazioni tab (teachers and admins). The lists come through the admin JSON
// calls; the tab's writes post here (JSON with an intent), through the same services, schema and ownership rules as
// /api/admin/simulations*: a teacher manages only the simulations they created.
import { z } from "zod";
import { SimulazioniTab } from "~/components/admin/SimulazioniTab";
import { withLabels } from "~/lib/validation";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf, getEnv } from "~/server/context";
import { handleIntent, handleValue } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import { deleteSimulation, saveSimulation, startSimulation } from "~/server/simulation-admin.server";
import { SimulationSave, simulationIdParam } from "~/server/simulation-schemas.server";
import type { Route } from "./+types/admin.simulazioni";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "simulazioni");
}

const oneSimulation = withLabels(z.object({ intent: z.string(), id: z.string("Simulazione non valida") }), {
  intent: "Operazione",
  id: "Simulazione",
});
const save = SimulationSave.extend({ intent: z.string() });

export async function action(args: Route.ActionArgs) {
  await requireAdminTab(args, "simulazioni");
  const user = await requirePageUser(args, "teacher");
  const db = dbOf(args.context);
  const env = getEnv(args.context);
  return handleIntent(args.request, {
    save: (body) =>
      handleValue(body, save, async ({ intent: _, ...input }) => {
        const { created, drawNotes } = await saveSimulation(db, input, user);
        return { id: input.id, created, drawNotes };
      }),
    start: (body) =>
      handleValue(body, oneSimulation, ({ id }) => startSimulation(db, env, simulationIdParam(id), user)),
    delete: (body) =>
      handleValue(body, oneSimulation, async ({ id }) => {
        await deleteSimulation(db, env, simulationIdParam(id), user);
        return { ok: true };
      }),
  });
}

export default function AdminTab() {
  return <SimulazioniTab />;
}
