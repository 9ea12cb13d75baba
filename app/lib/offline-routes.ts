// What the installed app keeps for offline use (issue 47), shared by the service worker (app/sw.ts), the server (the
// account header) and the pages (the offline screen, sign-out). THE rule of whose data a device holds:
//   - a student screen's page is kept in the cache of the account that the server named on it (ACCOUNT_HEADER), and
//     with no network the service worker answers only from the current account's cache: the account of the last
//     page the network served. The first page of another account empties every other account's page cache; signing
//     out empties them all. Nothing else holding personal data is kept by the service worker: no API answer, no
//     screen's data request (the screens' own copies, app/lib/offline-cache.ts, follow the same account rule:
//     app/lib/device-data.ts);
//   - downloaded quizzes live in an IndexedDB database per account (app/lib/offline-quizzes.ts), so unsent answers
//     wait for their owner and another account never opens them; signing out deletes the account's database.

/** Set by the server on every page whose request read the session: the user's id, or SIGNED_OUT. */
export const ACCOUNT_HEADER = "X-Unicum-Account";
export const SIGNED_OUT = "none";

/** Added by the service worker to a page it answers from its cache: when that copy was saved (ISO instant). */
export const OFFLINE_COPY_META = "unicum-offline-copy";

export const PAGES_CACHE_PREFIX = "unicum-pages-";
export const pagesCacheName = (account: string) => `${PAGES_CACHE_PREFIX}${account}`;
/** The service worker's own small notes (the current account). */
export const META_CACHE = "unicum-meta";

/** The screens of a student kept for offline use, in the order the offline page lists them. */
export const OFFLINE_SCREENS: readonly { path: string; label: string }[] = [
  { path: "/dashboard", label: "Dashboard" },
  { path: "/test/nuovo", label: "Nuovo test" },
  { path: "/test/offline", label: "Quiz scaricati" },
  { path: "/tentativi", label: "Tentativi" },
  { path: "/ripasso/errori", label: "Errori" },
  { path: "/compiti", label: "Compiti" },
  { path: "/simulazioni", label: "Simulazioni" },
  { path: "/segnalato", label: "Le tue segnalazioni" },
];

/**
 * The page a path is kept as, or null when it is not kept: the screens above (with no trailing slash, whatever the
 * query), and every downloaded quiz's runner (/test/offline/12) as /test/offline, one page that reads the device.
 */
export function offlinePageKey(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (/^\/test\/offline(\/\d+)?$/.test(path)) return "/test/offline";
  return OFFLINE_SCREENS.some((s) => s.path === path) ? path : null;
}

/** The runner of one downloaded quiz. */
export const offlineQuizPath = (quizId: number) => `/test/offline/${quizId}`;
