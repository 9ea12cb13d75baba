// A simulation's end on its cards (issue 29): the sitting's end is the same for everybody (the common plan); the
// student's own deadline is later by their extra time. A card says the first where it describes the sitting and
// the second where it tells the student how long THEY have; and, while a candidate with more extra time still
// writes, when the final ranking comes (the sitting's stored end, issue 44).
import type { MySimulation } from "~/lib/my-simulations";
import { formatRomeDateTime } from "~/lib/rush";
import { TimeLeft } from "./TimeLeft";
import { MY_SIM_TEXT as T } from "./texts";

export function SittingEnd({ sim, now }: { sim: MySimulation; now: number }) {
  if (sim.endsAt == null) return null;
  const mine = sim.myEndsAt ?? sim.endsAt;
  const extra = sim.extraTimePct > 0 && mine > sim.endsAt;
  const live = sim.startTime != null && now >= sim.startTime;
  return (
    <>
      <span data-testid="sitting-end">
        {T.sittingEnds}: {formatRomeDateTime(sim.endsAt)} {T.romeTime}
      </span>
      {live ? (
        <span data-testid="my-end">
          {" · "}
          <TimeLeft target={mine} now={now} label={extra ? T.yourTimeEndsIn(sim.extraTimePct) : T.endsIn} />
        </span>
      ) : extra ? (
        <span data-testid="my-end">
          {" · "}
          {T.yourTimeEnds(sim.extraTimePct)}: {formatRomeDateTime(mine)}
        </span>
      ) : null}
      {sim.sittingEndsAt != null && sim.sittingEndsAt > mine ? (
        <span data-testid="sitting-results">
          {" · "}
          {T.rankingAfter}: {formatRomeDateTime(sim.sittingEndsAt)}
        </span>
      ) : null}
    </>
  );
}
