import { data, type ShouldRevalidateFunctionArgs, useLoaderData } from "react-router";
import { orFailure } from "~/lib/forms";
import { handleJson } from "~/server/form.server";
import { SimulationRunner } from "~/components/simulation-runner/SimulationRunner";
import { T } from "~/components/simulation-runner/texts";
import { dbOf, getEnv } from "~/server/context";
import { requirePageUser } from "~/server/page-guard.server";
import { AttemptSubmit, simulationIdParam } from "~/server/simulation/schemas.server";
import { requireSimulationAccess } from "~/server/simulation/door.server";
import { submitSimulationAttempt } from "~/server/simulation/results.server";
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

/**
 * POST /simulazione?id= (JSON {answers, timeTaken}): the runner's attempt, and its autosave over HTTP when the
 * socket is blocked. The same service as POST /api/simulations/{id}/attempt; the reply carries the stored result
 * once the room has graded.
 */
export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const env = getEnv(args.context);
  const raw = new URL(args.request.url).searchParams.get("id")?.trim() || "";
  return handleJson(args.request, AttemptSubmit, (body) =>
    submitSimulationAttempt(dbOf(args.context), env, simulationIdParam(raw), user, body),
  );
}

export function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orFailure(serverAction, T.loadError);
}

/** The page's data (who may sit it) does not change with an answer or the attempt: no reload after them. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
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
