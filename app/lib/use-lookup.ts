// A component's small read through React Router (issue 19: a component no longer fetches): a fetcher loads `path`
// (a route whose loader answers { value } or { error }, app/server/lookup.server.ts) whenever it changes; null loads
// nothing. The previous value stays until the next one arrives.
import { useEffect, useRef, useState } from "react";
import { isRouteErrorResponse, useFetcher } from "react-router";

type Lookup<T> = { value?: T; error?: string };

export function useLookup<T>(path: string | null) {
  const fetcher = useFetcher<Lookup<T>>();
  const { load } = fetcher;
  // The path last asked for, and the answer on hand then: until a new answer is in, `loading` (the fetcher may
  // still be idle for a moment while the route is discovered, and the data on hand is the previous path's).
  const onHand = useRef(fetcher.data);
  onHand.current = fetcher.data;
  const [asked, setAsked] = useState<{ path: string; before: Lookup<T> | undefined } | null>(null);
  useEffect(() => {
    if (!path) return;
    setAsked({ path, before: onHand.current });
    void load(path);
    // `load` changes identity on each render in some versions; the path alone decides when to load.
  }, [path]);
  const answered = asked?.path === path && fetcher.state === "idle" && fetcher.data !== asked.before;
  const reply = path ? fetcher.data : undefined;
  return {
    data: reply?.value ?? null,
    error: reply?.error ?? null,
    loading: Boolean(path) && !answered,
  };
}

/**
 * A lookup route's clientLoader: a read that cannot reach the server (offline, a proxy's error page) becomes
 * { error } for the component to show, instead of the error page. Redirects (signed out) still happen.
 */
export async function lookupOrOffline<T>({ serverLoader }: { serverLoader: () => Promise<T> }) {
  try {
    return await serverLoader();
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error;
    return { error: LOOKUP_OFFLINE };
  }
}

const LOOKUP_OFFLINE = "Impossibile caricare i dati. Riprova tra poco.";
