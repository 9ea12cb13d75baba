// "Salta la pausa" (issue 46, point 2): in a day alone the student may cut a break short. The server moves the rest of
// their timeline earlier (and the room tells the runner as a new start); the reply's start is used at once too, so the
// next paper opens even while the socket is down.
import { useState } from "react";
import { ApiError, apiFetch } from "~/lib/api-client";
import { SOLO_TEXT } from "~/lib/solo-day";

export function SkipBreak({
  simulationId,
  onSkipped,
}: {
  simulationId: string;
  onSkipped: (startTime: number) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const skip = async () => {
    setBusy(true);
    setError(null);
    try {
      const moved = await apiFetch<{ startTime: number }>(
        `/api/simulations/${encodeURIComponent(simulationId)}/skip-break`,
        { method: "POST", json: {}, sessionOverlay: false },
      );
      onSkipped(moved.startTime);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : SOLO_TEXT.startFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="sim-skip-break">
      <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void skip()}>
        {busy ? SOLO_TEXT.skipping : SOLO_TEXT.skipBreak}
      </button>
      <p className="muted small">{SOLO_TEXT.skipBreakHint}</p>
      {error ? (
        <p className="alert alert--error small" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
