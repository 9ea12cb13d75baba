import { useEffect, useRef } from "react";
import {
  isRouteErrorResponse,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
  type MetaFunction,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { CookieConsent } from "~/components/CookieConsent";
import { PageStyles } from "~/components/PageStyles";
import { SessionOverlay, SessionOverlayHost } from "~/components/session/SessionOverlay";
import { ToastProvider } from "~/components/ui/Toast";
import { AppUpdates } from "~/components/offline/AppUpdates";
import { isOfflineError, OfflineScreen } from "~/components/offline/OfflineScreen";
import { PRODUCT_NAME } from "~/lib/constants";
import { parseConsent } from "~/lib/consent";
import { devLoginEnabled } from "~/server/auth.server";
import { getEnv } from "~/server/context";
import { requestContext } from "~/server/request-context.server";
import type { Route } from "./+types/root";
import "./app.css";
import "~/styles/shared-ui.css";
import "~/styles/controls.css";

// The database handle and the signed-in user, put in every request's context once (issue 19).
export const middleware: Route.MiddlewareFunction[] = [requestContext];

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // The installable app (issue 47): public/manifest.webmanifest and its icons.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export const meta: MetaFunction = () => [
  { title: PRODUCT_NAME },
  { name: "description", content: "Simulatore gratuito per i test di Medicina e il semestre filtro." },
];

/** Public settings every page needs: whether to show the consent banner, and how to sign in. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const env = getEnv(context);
  return {
    consentDecided: parseConsent(request.headers.get("Cookie")) !== null,
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    devLogin: devLoginEnabled(env),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/** No write changes these settings: a screen's action does not reload them (one request less per write). */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

/** A route with `handle = { hydrate: false }` is plain server-rendered HTML: no React runtime is shipped. */
function useHydrate(): boolean {
  return !useMatches().some((m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const hydrate = useHydrate();
  return (
    <html lang="it" data-theme="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <meta name="theme-color" content="#141518" />
        <Meta />
        <PageStyles />
      </head>
      <body>
        <a className="skip-link" href="#contenuto">
          Vai al contenuto
        </a>
        {children}
        <CookieConsent decided={data?.consentDecided ?? true} />
        {/* async, not defer: a deferred script runs before the modules after it, so the app's JavaScript waited for
            this one, which the browser fetches last, at low priority (issue 47). It only listens on the document. */}
        <script src="/consent.js" async />
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
      </body>
    </html>
  );
}

/** Page views after the first load (consent.js sends the first one), only with analytics consent. */
function usePageViews() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    (window as unknown as { unicumPageView?: () => void }).unicumPageView?.();
  }, [pathname]);
}

/** Marks the document as interactive (the e2e tests wait for it before using server-rendered controls). */
function useHydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "1";
  }, []);
}

export default function App() {
  usePageViews();
  useHydratedMarker();
  return (
    <SessionOverlayHost>
      <ToastProvider>
        <Outlet />
        <AppUpdates />
      </ToastProvider>
    </SessionOverlayHost>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  useHydratedMarker();
  if (isRouteErrorResponse(error)) {
    // The page guard answers 423 for a suspended account: show the overlay with the reason.
    if (error.status === 423) return <SessionOverlay kind="suspended" reason={error.data?.reason ?? ""} />;
    if (error.status === 401) return <SessionOverlay kind="expired" />;
    const message =
      error.status === 404
        ? "La pagina che cerchi non esiste."
        : typeof error.data?.error === "string"
          ? error.data.error
          : "Si è verificato un errore.";
    return (
      <main className="page-error">
        <h1>{error.status === 404 ? "Pagina non trovata" : `Errore ${error.status}`}</h1>
        <p>{message}</p>
        <a href="/">Torna alla home</a>
      </main>
    );
  }
  // A screen whose data could not come with no network: what still works offline (issue 47).
  if (isOfflineError(error)) return <OfflineScreen />;
  if (import.meta.env.DEV && error instanceof Error) console.error(error);
  return (
    <main className="page-error">
      <h1>Qualcosa è andato storto</h1>
      <p>Ricarica la pagina. Se il problema continua, riprova più tardi.</p>
      <a href="/">Torna alla home</a>
    </main>
  );
}
