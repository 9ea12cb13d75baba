// 'Elimina account' (beyond the spec: GDPR right to erasure): typed confirmation, then the
// server deletes personal data and attempts and clears the session; the browser goes home.
import { useState } from "react";
import { useRouteLoaderData } from "react-router";
import { clearDevice } from "~/lib/device-data";
import { Modal } from "~/components/ui/Modal";
import { DELETE_ACCOUNT_CONFIRMATION } from "~/lib/constants";
import { formError } from "~/lib/forms";
import { clearLocalSession } from "~/lib/session-events";
import { useFormAction } from "~/lib/use-form-action";

export function DangerZone() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { busy, submit } = useFormAction("/profilo");
  const confirmed = typed.trim() === DELETE_ACCOUNT_CONFIRMATION;
  const account = useRouteLoaderData<{ user: { id: number } }>("routes/app-layout")?.user.id ?? null;

  function erase() {
    setError(null);
    submit({ intent: "delete-account", confirm: typed.trim() }, (reply) => {
      if (reply.result.status !== "success") return setError(formError(reply) ?? "Eliminazione non riuscita: riprova.");
      clearLocalSession();
      // Nothing of the account stays on the device: copies, kept pages, downloaded quizzes (issue 47).
      void clearDevice(account).finally(() => window.location.assign("/"));
    });
  }

  return (
    <section className="profile__card profile__danger" aria-labelledby="danger-title">
      <h2 id="danger-title" className="profile__h2">
        Elimina account
      </h2>
      <p className="muted">
        Cancella definitivamente il tuo profilo, i tuoi tentativi con le risposte, le segnalazioni e le amicizie. Prima
        puoi esportare i tuoi dati.
      </p>
      <button type="button" className="btn btn--danger" onClick={() => setOpen(true)}>
        Elimina account
      </button>
      {open ? (
        <Modal
          title="Eliminare l'account?"
          onClose={() => {
            setOpen(false);
            setTyped("");
            setError(null);
          }}
          maxWidth={480}
          footer={
            <>
              <button type="button" className="btn" onClick={() => setOpen(false)}>
                Annulla
              </button>
              <button type="button" className="btn btn--danger" disabled={!confirmed || busy} onClick={erase}>
                {busy ? "Eliminazione…" : "Elimina definitivamente"}
              </button>
            </>
          }
        >
          <p>L'operazione non si può annullare. Verrai disconnesso.</p>
          <label className="field">
            <span>Scrivi {DELETE_ACCOUNT_CONFIRMATION} per confermare</span>
            <input
              className="input"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              autoComplete="off"
              autoFocus
            />
          </label>
          {error ? (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          ) : null}
        </Modal>
      ) : null}
    </section>
  );
}
