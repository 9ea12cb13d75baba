// /admin/simulazioni/:id/diretta: the teacher's live view of a class simulation (issue 32, point 3). The loader gives
// the flow, the pupils and each room's state (the room's summary call); then one staff socket per room keeps it
// current, with no polling while it is open. Someone else's simulation is a 403, an unknown one a 404.
import { data } from "react-router";
import { LiveClassView } from "~/components/simulation-lists/LiveClassView";
import { adminTabUser } from "~/server/admin/tab-guard.server";
import { livePage } from "~/server/class-live.server";
import { dbOf, getEnv } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import type { Route } from "./+types/admin.simulazioni.$id.diretta";

export async function loader(args: Route.LoaderArgs) {
  const user = await adminTabUser(args, "simulazioni");
  try {
    return await livePage(dbOf(args.context), getEnv(args.context), user, simulationIdParam(args.params.id));
  } catch (error) {
    if (error instanceof HttpError) throw data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function LivePage({ loaderData }: Route.ComponentProps) {
  return <LiveClassView page={loaderData} />;
}
