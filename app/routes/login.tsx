import { useState } from "react";
import { data, redirect, type ShouldRevalidateFunctionArgs, useLoaderData, useSearchParams } from "react-router";
import { GoogleSignInButton } from "~/components/session/GoogleSignInButton";
import { PRODUCT_NAME } from "~/lib/constants";
import { DEMO_ACCOUNTS } from "~/lib/demo-accounts";
import { formError, orFailure, type FormReply } from "~/lib/forms";
import { devSignInSchema, googleSignInSchema } from "~/lib/forms/sign-in";
import { useFormAction } from "~/lib/use-form-action";
import { devLoginEnabled, devSignIn, signIn, verifyGoogleCredential } from "~/server/auth.server";
import { getEnv } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { handleIntent, handleValue } from "~/server/form.server";
import { limitAction } from "~/server/security.server";
import { getSessionUser, sessionCookie } from "~/server/session.server";
import type { Route } from "./+types/login";

/**
 * Only same-site paths are followed after sign-in. Without one, a teacher lands on the console (Classi,
 * Simulazioni: their work; the side navigation's Console entry brings them back), everybody else on /dashboard.
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

type SignedIn = { user: Record<string, unknown> };

/**
 * POST /login (JSON): {intent: "dev", email} (only with DEV_LOGIN=1) or {intent: "google", credential}; the same
 * services and limits as /api/auth/dev and /api/auth/google. The session is the HttpOnly cookie this answer sets;
 * the page gets the public user only (never the token).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const env = getEnv(context);
  const agent = request.headers.get("User-Agent");
  const reply = await handleIntent(
    request,
    {
      ...(devLoginEnabled(env)
        ? { dev: (body) => handleValue(body, devSignInSchema, ({ email }) => withReason(devSignIn(env, email, agent))) }
        : {}),
      google: (body) =>
        handleValue(body, googleSignInSchema, async ({ credential }) => {
          await limitAction(env, "SIGN_IN_LIMITER", request);
          return withReason(signIn(env, await verifyGoogleCredential(credential, env), "google", Date.now(), agent));
        }),
    },
    "Metodo di accesso non disponibile.",
  );
  const value = reply.data.value;
  if (!value) return reply;
  return data<FormReply<SignedIn>>(
    { result: reply.data.result, value: { user: value.user } },
    {
      headers: { "Set-Cookie": sessionCookie(request, value.token) },
    },
  );
}

/** A suspended account is refused with its reason, as the screen shows it ("Account sospeso: …"). */
async function withReason<T>(signingIn: Promise<T>): Promise<T> {
  try {
    return await signingIn;
  } catch (error) {
    if (error instanceof HttpError && error.status === 423) {
      throw new HttpError(423, `Account sospeso: ${String(error.extra.reason ?? "")}`);
    }
    throw error;
  }
}

export function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orFailure<SignedIn>(serverAction, "Accesso non riuscito. Riprova.");
}

// Signed in: the page itself goes on (finish); no reload of /login's data first.
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return (actionResult as FormReply<SignedIn> | undefined)?.value ? false : defaultShouldRevalidate;
}

export default function Login() {
  const { devLogin, googleClientId } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const next = params.get("next");

  const { submit } = useFormAction<SignedIn>("/login");
  const finish = (result: SignedIn) => {
    // The session itself is the HttpOnly cookie; only the public user is kept locally (spec key "user").
    localStorage.setItem("user", JSON.stringify(result.user));
    window.dispatchEvent(new Event("user:booked"));
    window.location.assign(safeNext(next, result.user.role));
  };

  const signInWith = (write: Record<string, unknown>, who: string) => {
    setBusy(who);
    setError(null);
    submit(write, (reply) => {
      if (reply.value) return finish(reply.value);
      setError(formError(reply) ?? "Accesso non riuscito. Riprova.");
      setBusy(null);
    });
  };
  const devSignInAs = (email: string) => signInWith({ intent: "dev", email }, email);

  return (
    <main className="login">
      <div className="login__card">
        <a href="/" className="login__brand">
          <span className="logo-mark" aria-hidden="true">
            U
          </span>{" "}
          {PRODUCT_NAME}
        </a>
        <h1>Accedi</h1>
        <p className="muted">Accedi per esercitarti, vedere le tue statistiche e partecipare alle simulazioni.</p>
        {error ? (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        ) : null}
        {googleClientId ? (
          <GoogleSignInButton
            clientId={googleClientId}
            onCredential={(credential) => signInWith({ intent: "google", credential }, "google")}
          />
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
                    onClick={() => devSignInAs(account.email)}
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
          <p className="alert" role="status">
            L'accesso non è ancora configurato su questo server.
          </p>
        ) : null}
      </div>
    </main>
  );
}
