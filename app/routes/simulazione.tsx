import { data, useLoaderData } from "react-router";
import { SimulationRunner } from "~/components/simulation/SimulationRunner";
import { T } from "~/components/simulation/texts";
import { dbOf } from "~/server/context";
import { requirePageUser } from "~/server/page-guard.server";
import { simulationIdParam } from "~/server/simulation-schemas.server";
import { requireSimulationAccess } from "~/server/simulations.server";
import { HttpError } from "~/server/errors.server";
import type { Route } from "./+types/simulazione";
import "~/styles/simulation.css";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const id = new URL(args.request.url).searchParams.get("id")?.trim() || null;
  if (!id) return { id, denied: null };
  // The page answers itself, like the JSON calls and the socket do: 404 'Simulazione non trovata' for an unknown
  // id and 403 to a student outside the allowed set (users ∪ classes). The runner (and its socket) starts only
  // for a simulation the student may sit.
  try {
    await requireSimulationAccess(dbOf(args.context), simulationIdParam(id), user);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (error.status === 403) return data({ id, denied: T.notAllowed }, { status: 403 });
    if (error.status === 404) return data({ id, denied: T.notFound }, { status: 404 });
    return data({ id, denied: error.message }, { status: error.status });
  }
  return { id, denied: null };
}

export function meta() {
  return [{ title: "Unicum" }];
}

export default function Screen() {
  const { id, denied } = useLoaderData<typeof loader>();
  if (denied) {
    return (
      <main className="sim-centered" role="alert">
        {denied}
      </main>
    );
  }
  if (!id) {
    return (
      <main className="sim-centered" role="alert">
        {T.missingId}
      </main>
    );
  }
  return <SimulationRunner key={id} simulationId={id} />;
}
