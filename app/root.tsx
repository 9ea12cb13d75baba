import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type MetaFunction,
} from "react-router";
import { SessionOverlay, SessionOverlayHost } from "~/components/session/SessionOverlay";
import { ToastProvider } from "~/components/ui/Toast";
import { PRODUCT_NAME } from "~/lib/constants";
import type { Route } from "./+types/root";
import "./app.css";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = () => [
  { title: PRODUCT_NAME },
  { name: "description", content: "Simulatore gratuito per i test di Medicina e il semestre filtro." },
];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="it" data-theme="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <SessionOverlayHost>
      <ToastProvider>
        <Outlet />
      </ToastProvider>
    </SessionOverlayHost>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
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
  if (import.meta.env.DEV && error instanceof Error) console.error(error);
  return (
    <main className="page-error">
      <h1>Qualcosa è andato storto</h1>
      <p>Ricarica la pagina. Se il problema continua, riprova più tardi.</p>
      <a href="/">Torna alla home</a>
    </main>
  );
}
