import { O } from "~/components/offline/messages";
import { savedWhen } from "~/lib/offline-label";
import { T } from "./messages";

/** Shown when a screen falls back to the copy kept on this device (offline), with that copy's date. */
export function StaleNotice({ stale, cachedAt }: { stale?: boolean; cachedAt?: string }) {
  if (!stale) return null;
  const at = cachedAt ? Date.parse(cachedAt) : Number.NaN;
  return (
    <p className="notice" role="status">
      {Number.isFinite(at) ? <strong>{O.offlineData(savedWhen(at, Date.now()))}. </strong> : null}
      {T.staleNotice}
    </p>
  );
}
