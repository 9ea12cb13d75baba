import { useLoaderData } from "react-router";
import { SimulationRunner } from "~/components/simulation/SimulationRunner";
import { T } from "~/components/simulation/texts";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/simulazione";
import "~/styles/simulation.css";

export async function loader(args: Route.LoaderArgs) {
  await requirePageUser(args);
  const id = new URL(args.request.url).searchParams.get("id")?.trim() || null;
  return { id };
}

export function meta() {
  return [{ title: "Unicum" }];
}

export default function Screen() {
  const { id } = useLoaderData<typeof loader>();
  if (!id) {
    return (
      <main className="sim-centered" role="alert">
        {T.missingId}
      </main>
    );
  }
  return <SimulationRunner key={id} simulationId={id} />;
}
