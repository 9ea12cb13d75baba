import { useEffect, useState } from "react";
import { savedWhen } from "~/lib/offline-label";
import { OFFLINE_COPY_META } from "~/lib/offline-routes";
import { O } from "./messages";

/**
 * On a page the service worker answered from its copy (no network), says so with the copy's date, and offers to load
 * it again (fresh if the network is back, the same copy if not): nothing shown offline pretends to be fresh.
 */
export function OfflineBanner() {
  const [savedAt, setSavedAt] = useState<number | null>(null);
  useEffect(() => {
    const content = document.querySelector(`meta[name="${OFFLINE_COPY_META}"]`)?.getAttribute("content");
    const at = content ? Date.parse(content) : Number.NaN;
    if (Number.isFinite(at)) setSavedAt(at);
  }, []);
  if (savedAt == null) return null;
  return (
    <div className="offline-banner row">
      <strong role="status" data-testid="offline-banner">
        {O.offlineData(savedWhen(savedAt, Date.now()))}
      </strong>
      <button type="button" className="btn btn--small" onClick={() => window.location.reload()}>
        {O.refresh}
      </button>
    </div>
  );
}
