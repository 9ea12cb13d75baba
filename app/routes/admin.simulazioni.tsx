// /admin/simulazioni: the console's Simulazioni tab (teachers and admins). Its loader reads the user's simulations,
// the subjects and classes the form offers, and the dialog the URL opens (?tentativi=ID: the attempts;
// ?risultati=ID: the results per class; ?pagina=N: the attempts' page). The tab's writes post here (JSON with an intent), through the same services,
// schema and ownership rules as /api/admin/simulations*: a teacher manages only the simulations they created.
import { z } from "zod";
import { SimulazioniTab } from "~/components/admin/SimulazioniTab";
import { withLabels, withParentLabels } from "~/lib/validation";
import { adminTabUser } from "~/server/admin/tab-guard.server";
import { dbOf, getEnv } from "~/server/context";
import { handleIntent, handleValue } from "~/server/form.server";
import { listSubjects } from "~/server/quiz.server";
import { managedClasses } from "~/server/classes.server";
import { adminAttempts, classResults } from "~/server/simulation/staff-results.server";
import { deleteSimulation, listSimulations, saveSimulation } from "~/server/simulation/admin.server";
import { startSimulation } from "~/server/simulation/start.server";
import { SimulationSave, simulationIdParam } from "~/server/simulation/schemas.server";
import { dayTemplate } from "~/lib/edition";
import { defaultEdition } from "~/server/editions.server";
import type { Route } from "./+types/admin.simulazioni";

export async function loader(args: Route.LoaderArgs) {
  const user = await adminTabUser(args, "simulazioni");
  const db = dbOf(args.context);
  const params = new URL(args.request.url).searchParams;
  const [simulations, subjects, classes, edition] = await Promise.all([
    listSimulations(db, user),
    listSubjects(db),
    managedClasses(db, user),
    defaultEdition(db),
  ]);
  // A dialog for a simulation that is not the user's (or not finished, for the results) opens nothing.
  const owned = (key: string) => simulations.find((s) => s.id === params.get(key));
  const attemptsOf = owned("tentativi");
  // The Tentativi dialog shows one page of the ranking (?pagina=N); a bad number is page 1.
  const asked = Number(params.get("pagina") ?? 1);
  const attemptsPage = Number.isInteger(asked) && asked >= 1 && asked <= 100_000 ? asked : 1;
  const resultsOf = owned("risultati");
  return {
    simulations,
    subjects,
    classes,
    template: dayTemplate(edition),
    attempts: attemptsOf
      ? { id: attemptsOf.id, ...(await adminAttempts(db, attemptsOf.id, user, attemptsPage)) }
      : null,
    results: resultsOf?.graded ? await classResults(db, resultsOf.id, user) : null,
  };
}

const oneSimulation = withLabels(z.object({ intent: z.string(), id: z.string("Simulazione non valida") }), {
  intent: "Operazione",
  id: "Simulazione",
});
const save = withParentLabels(SimulationSave.extend({ intent: z.string() }), SimulationSave, { intent: "Operazione" });

export async function action(args: Route.ActionArgs) {
  const user = await adminTabUser(args, "simulazioni");
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

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <SimulazioniTab {...loaderData} />;
}
