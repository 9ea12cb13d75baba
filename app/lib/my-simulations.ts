// A student's simulations (/simulazioni and the dashboard, issue 34): where each one stands at server time, and the
// three lists the page shows. Pure; the rows come from app/server/simulation/ (mySimulations).

/** The simulations a student is in: live now, still to come, over. */
export type SimulationStage = "live" | "upcoming" | "past";

export type MySimulationResult = {
  attemptId: number;
  /** The ranking score (rankKey, app/lib/rank-key.ts): an edition's section and grades, else the total out of 31. */
  score: number;
  /** 1 + the attempts strictly ahead (a higher ranking key; equal keys share a position). */
  position: number;
  participants: number;
};

export type MySimulation = {
  id: string;
  title: string;
  stage: SimulationStage;
  /** The start fixed by Avvia (epoch ms), or null while the teacher has not started it. */
  startTime: number | null;
  /** When the last subject closes for everybody (the sitting's end), once the start is known. */
  endsAt: number | null;
  /**
   * When the student's own last subject closes: the sitting's end, later by their extra time (accommodation,
   * fixed at the start). What says how long THEY still have, and when the simulation is over for them.
   */
  myEndsAt: number | null;
  /**
   * When the whole sitting ends (its latest candidate's end, extra time included; stored at Avvia): its final
   * ranking follows. Null before the start.
   */
  sittingEndsAt: number | null;
  /** Whether it is an exam edition's day (its score is the ranking's section and grades, not a total out of 31). */
  edition: boolean;
  /** The student's extra time in this simulation (%), 0 without one. */
  extraTimePct: number;
  /** The student's stored result (past simulations they sat), else null. */
  result: MySimulationResult | null;
};

/**
 * Where a simulation stands for a student at `now`: past once their result is stored or the last subject has closed,
 * live between the start and that close, upcoming before the start (or before the teacher starts it at all).
 */
export function simulationStage(
  sim: { started: boolean; startTime: number | null; endsAt: number | null; attempted: boolean },
  now: number,
): SimulationStage {
  if (sim.attempted) return "past";
  if (!sim.started || sim.startTime == null || now < sim.startTime) return "upcoming";
  if (sim.endsAt != null && now >= sim.endsAt) return "past";
  return "live";
}

export type MySimulations = { live: MySimulation[]; upcoming: MySimulation[]; past: MySimulation[] };

/**
 * The page's lists: live by start; upcoming with a known start first (soonest first), then those waiting for the
 * teacher (in creation order, as given); past most recent first.
 */
export function groupSimulations(items: readonly MySimulation[]): MySimulations {
  const byStart = (a: MySimulation, b: MySimulation) =>
    (a.startTime ?? Number.POSITIVE_INFINITY) - (b.startTime ?? Number.POSITIVE_INFINITY);
  return {
    live: items.filter((s) => s.stage === "live").sort(byStart),
    upcoming: items.filter((s) => s.stage === "upcoming").sort(byStart),
    past: items.filter((s) => s.stage === "past").sort((a, b) => byStart(b, a)),
  };
}

/** What the dashboard shows: the live simulation first, else the next one. */
export function nextSimulation(lists: Pick<MySimulations, "live" | "upcoming">): MySimulation | null {
  return lists.live[0] ?? lists.upcoming[0] ?? null;
}

/** The next official sitting of the default exam edition, shown above the lists (none until editions exist). */
export type OfficialSitting = { title: string; startsAt: number };

/** The runner and the result page of a simulation. */
export const simulationHref = (id: string) => `/simulazione?id=${encodeURIComponent(id)}`;
export const simulationResultHref = (id: string, attemptId: number) =>
  `/simulazione/riepilogo/${encodeURIComponent(id)}/${attemptId}`;
