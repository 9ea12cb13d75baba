import { useEffect, useState } from "react";
import { keptScreens } from "~/lib/device-data";
import { OFFLINE_SCREENS } from "~/lib/offline-routes";
import { O } from "./messages";

/**
 * A screen that could not load with no network (a client navigation whose data request failed): what still works.
 * The links load whole pages, which the service worker answers from its copies (dated) when it has them.
 */
export function OfflineScreen() {
  const [kept, setKept] = useState<string[]>([]);
  useEffect(() => {
    void keptScreens()
      .then(setKept)
      .catch(() => setKept([]));
  }, []);
  const screens = OFFLINE_SCREENS.filter((s) => kept.includes(s.path) && s.path !== "/test/offline");
  return (
    <main className="page-error" data-testid="offline-screen">
      <h1>{O.offlineTitle}</h1>
      <p>{O.offlineScreen}</p>
      <ul>
        <li>
          <a href="/test/offline">{O.offlineQuizzesLink}</a>
        </li>
      </ul>
      {screens.length ? (
        <>
          <p>{O.offlineSavedScreens}</p>
          <ul>
            {screens.map((s) => (
              <li key={s.path}>
                <a href={s.path}>{s.label}</a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </main>
  );
}

/** Whether an error is the network's (no connection), as a failed fetch surfaces in the browser. */
export function isOfflineError(error: unknown): boolean {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return true;
  return error instanceof TypeError && /fetch|network|load failed/i.test(error.message);
}
