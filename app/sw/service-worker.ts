// The service worker (issue 47), built with Serwist by scripts/vite-service-worker.ts after `react-router build`
// into build/client/sw.js (the precache list injected there: the build's JS, CSS, fonts, icons and offline page, each
// versioned by its hash, so every build is a new worker that installs beside the running one).
//   - An update waits (no skipWaiting): the page offers it with an Italian prompt, never during a quiz
//     (app/components/offline/AppUpdates.tsx), and a SKIP_WAITING message from there activates it.
//   - Pages: the network first; a student screen's page is kept per account (app/lib/offline-routes.ts: the rule of
//     whose data the device holds) and answered from there, marked with the moment it was saved, when the network
//     fails; any other page without network is the offline page, listing what still works.
//   - Everything else (API answers, screens' data requests, writes) goes to the network untouched and is never kept.
import { type PrecacheEntry, Serwist } from "serwist";
import {
  ACCOUNT_HEADER,
  META_CACHE,
  OFFLINE_COPY_META,
  OFFLINE_SCREENS,
  offlinePageKey,
  PAGES_CACHE_PREFIX,
  pagesCacheName,
  SIGNED_OUT,
} from "../lib/offline-routes";

declare const self: ServiceWorkerGlobalScope & { __SW_MANIFEST: (PrecacheEntry | string)[] | undefined };

const serwist = new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  precacheOptions: { cleanupOutdatedCaches: true },
  skipWaiting: false,
  // The first worker takes the open page at once, so it works offline without a reload; later ones wait (above).
  clientsClaim: true,
  // A page's request leaves while the worker starts (a phone's worker, asleep between visits, takes a while to wake):
  // the navigation handler below answers with that preloaded response (issue 47, point 4: the repeat visit).
  navigationPreload: true,
  disableDevLogs: true,
});

const ACCOUNT_KEY = "/__unicum/account";
const SAVED_AT = "X-Unicum-Saved-At";

async function currentAccount(): Promise<string | null> {
  const response = await (await caches.open(META_CACHE)).match(ACCOUNT_KEY);
  return response ? response.text() : null;
}

/** Empties every account's page cache but `keep`'s. */
async function dropPagesExcept(keep: string | null): Promise<void> {
  const names = await caches.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(PAGES_CACHE_PREFIX) && name !== (keep && pagesCacheName(keep)))
      .map((name) => caches.delete(name)),
  );
}

async function setAccount(account: string | null): Promise<void> {
  const meta = await caches.open(META_CACHE);
  if (account == null) await meta.delete(ACCOUNT_KEY);
  else await meta.put(ACCOUNT_KEY, new Response(account));
  await dropPagesExcept(account);
}

/** After a page came from the network: whose it is, and the copy of a student screen in that account's cache. */
async function notePage(request: Request, response: Response): Promise<void> {
  const named = response.headers.get(ACCOUNT_HEADER);
  if (named == null) return; // a public page that never read the session: says nothing of the account
  const account = named === SIGNED_OUT ? null : named;
  if (account !== (await currentAccount())) await setAccount(account);
  const key = offlinePageKey(new URL(request.url).pathname);
  if (!account || !key || response.status !== 200) return;
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT, new Date().toISOString());
  const body = await response.arrayBuffer();
  await (await caches.open(pagesCacheName(account))).put(key, new Response(body, { status: 200, headers }));
}

/** A kept page as answered offline: the moment it was saved written into its head, so the page can say so. */
async function keptPage(pathname: string): Promise<Response | null> {
  const account = await currentAccount();
  const key = offlinePageKey(pathname);
  if (!account || !key) return null;
  const cached = await (await caches.open(pagesCacheName(account))).match(key);
  if (!cached) return null;
  const savedAt = cached.headers.get(SAVED_AT) ?? "";
  const html = (await cached.text()).replace(
    "</head>",
    `<meta name="${OFFLINE_COPY_META}" content="${savedAt.replace(/[^0-9TZ:.-]/g, "")}"></head>`,
  );
  return new Response(html, { status: 200, headers: cached.headers });
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The offline page (public/offline.html), with links to the current account's kept screens. */
async function offlinePage(): Promise<Response> {
  const template = await serwist.matchPrecache("/offline.html");
  const account = await currentAccount();
  const kept = account ? await (await caches.open(pagesCacheName(account))).keys() : [];
  const paths = new Set(kept.map((r) => new URL(r.url).pathname));
  const links = OFFLINE_SCREENS.filter((s) => paths.has(s.path))
    .map((s) => `<li><a href="${s.path}">${escapeHtml(s.label)}</a></li>`)
    .join("");
  const html = (template ? await template.text() : "<!doctype html><title>Offline</title>").replace(
    "<!--saved-->",
    links,
  );
  // 200, not 503: the page is what we mean to show (and a 503 would be logged by the browser as a failed load).
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'",
      "Cache-Control": "no-store",
    },
  });
}

serwist.registerCapture(
  ({ request }) => request.mode === "navigate",
  {
    async handle({ request, event }) {
      try {
        const preloaded = (await (event as FetchEvent).preloadResponse?.catch(() => undefined)) as Response | undefined;
        const response = preloaded ?? (await fetch(request));
        (event as FetchEvent).waitUntil(notePage(request, response.clone()).catch(() => undefined));
        return response;
      } catch {
        return (await keptPage(new URL(request.url).pathname)) ?? offlinePage();
      }
    },
  },
  "GET",
);

self.addEventListener("message", (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string; path?: string } | null;
  if (data?.type === "SKIP_WAITING") void self.skipWaiting();
  // Sign-out (app/lib/device-data.ts): no account any more, no kept page.
  if (data?.type === "SIGNED_OUT") event.waitUntil(setAccount(null));
  // A page to keep now (a quiz's runner after a download), fetched as the signed-in account.
  if (data?.type === "KEEP_PAGE" && data.path && offlinePageKey(data.path)) {
    const request = new Request(new URL(data.path, self.location.origin), { credentials: "same-origin" });
    event.waitUntil(
      fetch(request)
        .then((response) => notePage(request, response))
        .catch(() => undefined),
    );
  }
});

serwist.addEventListeners();
