import { O } from "./messages";

/** The label of an attempt taken offline on the device (issue 47). */
export function OfflineChip() {
  return (
    <span className="chip" title={O.takenOfflineHint} data-testid="offline-chip">
      {O.takenOffline}
    </span>
  );
}
