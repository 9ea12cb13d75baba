import { useEffect, useState } from "react";

/**
 * Server time on a page: the loader's instant plus the time elapsed on this page (performance.now, never the device
 * clock), ticking every second. The first render is `serverNow` itself, on the server and in the browser alike, so
 * a countdown rendered from it hydrates without a mismatch.
 */
export function useServerNow(serverNow: number, tickMs = 1000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const base = performance.now();
    setNow(serverNow);
    const timer = setInterval(() => setNow(serverNow + (performance.now() - base)), tickMs);
    return () => clearInterval(timer);
  }, [serverNow, tickMs]);
  return now;
}
