import { useState } from "react";
import { redirect, useLoaderData, useSearchParams } from "react-router";
import { GoogleSignInButton } from "~/components/session/GoogleSignInButton";
import { ApiError, apiFetch } from "~/lib/api-client";
import { PRODUCT_NAME } from "~/lib/constants";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import { devLoginEnabled } from "~/server/auth.server";
import { getEnv } from "~/server/context";
import { getSessionUser } from "~/server/session.server";
import type { Route } from "./+types/login";

/**
 * Only same-site paths are followed after sign-in. Without one, a teacher lands on the console
 * (Classi, Simulazioni: there is no side-navigation entry for it), everybody else on /dashboard.
 */
function safeNext(next: string | null, role?: unknown): string {
  if (next && next.startsWith("/") && !next.startsWith("//")) return next;
  return role === "docente" ? "/admin" : "/dashboard";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const env = getEnv(context);
  const url = new URL(request.url);
  const user = await getSessionUser(request, env);
  if (user && user.status === "attivo") throw redirect(safeNext(url.searchParams.get("next"), user.effectiveRole));
  return {
    devLogin: devLoginEnabled(env),
    googleClientId: env.GOOGLE_CLIENT_ID || null,
  };
}

type LoginResult = { token: string; user: Record<string, unknown> };

export default function Login() {
  const { devLogin, googleClientId } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const next = params.get("next");

  const finish = (result: LoginResult) => {
    // The session itself is the HttpOnly cookie; only the public user is kept locally (spec key "user").
    localStorage.setItem("user", JSON.stringify(result.user));
    window.dispatchEvent(new Event("user:booked"));
    window.location.assign(safeNext(next, result.user.role));
  };

  const onFailure = (err: unknown) => {
    if (err instanceof ApiError && err.status === 423) {
      setError(`Account sospeso: ${String(err.body.reason ?? "")}`);
    } else {
      console.warn("Login failed", err);
      setError(err instanceof ApiError ? err.message : "Accesso non riuscito. Riprova.");
    }
  };

  const devSignIn = async (email: string) => {
    setBusy(email);
    setError(null);
    try {
      finish(await apiFetch<LoginResult>("/api/auth/dev", { method: "POST", json: { email }, sessionOverlay: false }));
    } catch (err) {
      onFailure(err);
      setBusy(null);
    }
  };

  return (
    <main className="login">
      <div className="login__card">
        <a href="/" className="login__brand">
          <span className="logo-mark" aria-hidden="true">U</span> {PRODUCT_NAME}
        </a>
        <h1>Accedi</h1>
        <p className="muted">Accedi per esercitarti, vedere le tue statistiche e partecipare alle simulazioni.</p>
        {error ? (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        ) : null}
        {googleClientId ? (
          <GoogleSignInButton clientId={googleClientId} onSuccess={finish} onError={onFailure} />
        ) : null}
        {devLogin ? (
          <section className="login__dev" aria-labelledby="dev-login-title">
            <h2 id="dev-login-title">Accesso di sviluppo</h2>
            <p className="muted small">Attivo solo in locale (DEV_LOGIN=1). Scegli un account dimostrativo:</p>
            <ul className="login__accounts">
              {DEMO_ACCOUNTS.map((account) => (
                <li key={account.email}>
                  <button
                    type="button"
                    className="btn btn--block"
                    disabled={busy !== null}
                    onClick={() => devSignIn(account.email)}
                  >
                    <strong>{account.label}</strong>
                    <span className="small muted">{account.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {!googleClientId && !devLogin ? (
          <p className="alert" role="status">L'accesso non è ancora configurato su questo server.</p>
        ) : null}
      </div>
    </main>
  );
}
