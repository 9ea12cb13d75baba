import { useEffect, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { formError } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { SESSION_EVENT, type SessionProblem } from "~/lib/session-events";
import { useFocusTrap } from "~/lib/use-focus-trap";
import { GoogleSignInButton } from "./GoogleSignInButton";

/** Full-screen overlay for an expired session or a suspended account (spec section 2). */
export function SessionOverlay(props: { kind: "expired" } | { kind: "suspended"; reason: string }) {
  const trapRef = useFocusTrap<HTMLDivElement>(true);
  const root = useRouteLoaderData("root") as { googleClientId?: string | null } | undefined;
  const [error, setError] = useState<string | null>(null);
  const { submit } = useFormAction<{ user: unknown }>("/login");
  return (
    <div
      className="session-overlay"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="session-overlay-title"
      ref={trapRef}
    >
      <div className="session-overlay__card">
        {props.kind === "suspended" ? (
          <>
            <h1 id="session-overlay-title">Account sospeso</h1>
            {props.reason ? <p className="session-overlay__reason">{props.reason}</p> : null}
          </>
        ) : (
          <>
            <h1 id="session-overlay-title">Sessione scaduta</h1>
            <p>Per continuare, accedi di nuovo con Google.</p>
            {root?.googleClientId ? (
              <GoogleSignInButton
                clientId={root.googleClientId}
                onCredential={(credential) =>
                  submit({ intent: "google", credential }, (reply) => {
                    if (!reply.value) return setError(formError(reply));
                    localStorage.setItem("user", JSON.stringify(reply.value.user));
                    window.location.reload();
                  })
                }
              />
            ) : (
              <a
                className="btn btn--primary"
                href={`/login?next=${encodeURIComponent(typeof window === "undefined" ? "/dashboard" : window.location.pathname + window.location.search)}`}
              >
                Accedi
              </a>
            )}
            {error ? <p role="alert">{error}</p> : null}
            <p className="muted">Se pensi sia un errore, ricarica la pagina.</p>
          </>
        )}
      </div>
    </div>
  );
}

/** Listens for session problems reported by any call and shows the overlay over the page. */
export function SessionOverlayHost({ children }: { children: React.ReactNode }) {
  const [problem, setProblem] = useState<SessionProblem | null>(null);
  useEffect(() => {
    const onProblem = (event: Event) => {
      event.preventDefault(); // tells the reporter an overlay is mounted
      setProblem((event as CustomEvent<SessionProblem>).detail);
    };
    window.addEventListener(SESSION_EVENT, onProblem);
    return () => window.removeEventListener(SESSION_EVENT, onProblem);
  }, []);
  return (
    <>
      {children}
      {problem ? <SessionOverlay {...problem} /> : null}
    </>
  );
}
