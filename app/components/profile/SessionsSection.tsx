// 'Sessioni attive': where the account is signed in (device from the browser, sign-in, last use), and
// 'Esci da tutti i dispositivi', which ends every session, this one too, and goes home.
import { useState } from "react";
import { useRouteLoaderData } from "react-router";
import { clearDevice } from "~/lib/device-data";
import { sendQueued } from "~/lib/offline-quizzes";
import { formatDateTime } from "~/components/quiz/messages";
import { formError } from "~/lib/forms";
import { clearLocalSession } from "~/lib/session-events";
import { useFormAction } from "~/lib/use-form-action";

export type SessionItem = { current: boolean; device: string; createdAt: string; lastUsedAt: string };

export function SessionsSection({ sessions }: { sessions: SessionItem[] }) {
  const [error, setError] = useState<string | null>(null);
  const { busy, submit } = useFormAction("/profilo");
  const account = useRouteLoaderData<{ user: { id: number } }>("routes/app-layout")?.user.id ?? null;

  function signOutEverywhere() {
    setError(null);
    // Quizzes handed in offline go first, while the session still works; then nothing stays on the device (issue 47).
    const sent = account != null && typeof indexedDB !== "undefined" ? sendQueued(account) : Promise.resolve();
    void sent
      .catch(() => undefined)
      .then(() =>
        submit({ intent: "sign-out-everywhere" }, (reply) => {
          if (reply.result.status !== "success") return setError(formError(reply) ?? "Uscita non riuscita: riprova.");
          clearLocalSession();
          void clearDevice(account).finally(() => window.location.assign("/"));
        }),
      );
  }

  return (
    <section className="profile__card" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="profile__h2">
        Sessioni attive
      </h2>
      <p className="muted">Dove il tuo account è collegato. Una sessione scade dopo 30 giorni senza utilizzo.</p>
      <ul className="profile__list" aria-label="Sessioni attive">
        {sessions.map((s, i) => (
          <li key={`${s.createdAt}-${i}`} data-testid="session">
            <span>
              <strong>{s.device}</strong>
              {s.current ? <span className="muted"> (questo dispositivo)</span> : null}
            </span>
            <span className="muted small">
              Accesso {formatDateTime(s.createdAt)} · ultimo utilizzo {formatDateTime(s.lastUsedAt)}
            </span>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn--danger" onClick={signOutEverywhere} disabled={busy}>
        {busy ? "Uscita…" : "Esci da tutti i dispositivi"}
      </button>
      {error ? (
        <p role="alert" className="alert alert--error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
