import { useLoaderData } from "react-router";
import { ResultView } from "~/components/simulation-runner/ResultView";
import { T } from "~/components/simulation-runner/texts";
import { dbOf } from "~/server/context";
import { requirePageUser } from "~/server/page-guard.server";
import { storedResult } from "~/server/simulation/results.server";
import type { Route } from "./+types/simulazione.riepilogo";
import "~/styles/simulation.css";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const attemptId = Number(args.params.attemptId);
  if (!Number.isInteger(attemptId) || attemptId <= 0) return { result: null };
  const result = await storedResult(dbOf(args.context), args.params.simulationId, attemptId, user);
  return { result };
}

export default function Screen() {
  const { result } = useLoaderData<typeof loader>();
  if (!result) {
    return (
      <main className="sim-centered" role="alert">
        {T.resultNotFound}
      </main>
    );
  }
  const r = result.ranking;
  return (
    <ResultView
      result={result}
      userId={result.userId}
      rank={{
        status: "ok",
        pos: r.pos,
        percentile: r.percentile,
        ranking: r.ranking,
        around: r.around,
        participants: r.participants,
        final: r.final,
      }}
    />
  );
}
