import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { O } from "./messages";

/** The quiz runners: an update never reloads the page under a student answering. */
function inQuiz(pathname: string): boolean {
  return pathname === "/test" || pathname.startsWith("/test/offline/") || pathname.startsWith("/simulazione");
}

/**
 * Registers the service worker (production builds only: `npm run dev` runs without one) and offers a new version when
 * one is waiting, with an Italian prompt; never during a quiz, and only the page that accepts it reloads.
 */
export function AppUpdates() {
  const { pathname } = useLocation();
  const [update, setUpdate] = useState<(() => void) | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const accepted = useRef(false);
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    let cancelled = false;
    void import("@serwist/window")
      .then(({ Serwist }) => {
        if (cancelled) return;
        const sw = new Serwist("/sw.js", { scope: "/", type: "classic" });
        sw.addEventListener("waiting", () => setUpdate(() => () => sw.messageSkipWaiting()));
        sw.addEventListener("controlling", (event) => {
          if (event.isUpdate && accepted.current) window.location.reload();
        });
        return sw.register();
      })
      .catch(() => undefined); // no service worker (blocked, private mode): the app works online as before
    return () => {
      cancelled = true;
    };
  }, []);
  if (!update || dismissed || inQuiz(pathname)) return null;
  return (
    <div className="update-prompt" role="status" data-testid="update-prompt">
      <span>{O.updateReady}</span>
      <button
        type="button"
        className="btn btn--small btn--primary"
        onClick={() => {
          accepted.current = true;
          update();
        }}
      >
        {O.updateNow}
      </button>
      <button type="button" className="btn btn--small" onClick={() => setDismissed(true)}>
        {O.updateLater}
      </button>
    </div>
  );
}
