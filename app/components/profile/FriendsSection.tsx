// Friends for the dashboard comparison: your share code, invite by username or code, accept or
// refuse invitations, end a friendship. Each write posts to /profilo's action; the list reloads from the page
// loader after each change.
import { useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { formError } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";

type Person = { friendshipId: number; userId: number; name: string; username: string | null; since: string };
export type FriendsOverviewData = { shareCode: string; friends: Person[]; incoming: Person[]; outgoing: Person[] };

export function FriendsSection({ overview }: { overview: FriendsOverviewData }) {
  const toast = useToast();
  const [handle, setHandle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { busy, submit } = useFormAction("/profilo");

  function run(write: Record<string, unknown>, success: string, then?: () => void) {
    setError(null);
    submit(write, (reply) => {
      const refused = formError(reply);
      if (refused) return setError(refused);
      toast(success, "success");
      then?.();
    });
  }

  const who = (p: Person) => (
    <span>
      <strong>{p.name}</strong>
      {p.username ? <span className="muted small"> @{p.username}</span> : null}
    </span>
  );

  return (
    <section className="profile__card" id="amici" aria-labelledby="friends-title">
      <h2 id="friends-title" className="profile__h2">
        Amici
      </h2>
      <p className="muted">
        Confronta i tuoi risultati con un amico sulla dashboard. Il tuo codice amico è{" "}
        <strong className="profile__code" data-testid="share-code">
          {overview.shareCode}
        </strong>
        : l'amico deve accettare l'invito, e ognuno dei due può terminare l'amicizia.
      </p>
      <form
        className="profile__invite"
        onSubmit={(e) => {
          e.preventDefault();
          if (!handle.trim()) return;
          run({ intent: "invite", handle }, "Invito inviato", () => setHandle(""));
        }}
      >
        <label className="field">
          <span>Nome utente o codice dell'amico</span>
          <input
            className="input"
            value={handle}
            onChange={(e) => setHandle(e.target.value)}
            placeholder="Es. marco.bianchi o U00002"
            autoComplete="off"
          />
        </label>
        <button type="submit" className="btn btn--primary" disabled={busy || !handle.trim()}>
          Invita
        </button>
      </form>
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}

      {overview.incoming.length ? (
        <>
          <h3 className="profile__h3">Inviti ricevuti</h3>
          <ul className="profile__list">
            {overview.incoming.map((p) => (
              <li key={p.friendshipId}>
                {who(p)}
                <span className="profile__row-actions">
                  <button
                    type="button"
                    className="btn btn--primary"
                    disabled={busy}
                    onClick={() => run({ intent: "accept-friend", friendshipId: p.friendshipId }, "Invito accettato")}
                  >
                    Accetta
                  </button>
                  <button
                    type="button"
                    className="btn"
                    disabled={busy}
                    onClick={() => run({ intent: "end-friendship", friendshipId: p.friendshipId }, "Invito rifiutato")}
                  >
                    Rifiuta
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}

      <h3 className="profile__h3">I tuoi amici</h3>
      {overview.friends.length ? (
        <ul className="profile__list">
          {overview.friends.map((p) => (
            <li key={p.friendshipId}>
              {who(p)}
              <button
                type="button"
                className="btn"
                disabled={busy}
                onClick={() => run({ intent: "end-friendship", friendshipId: p.friendshipId }, "Amicizia terminata")}
              >
                Termina amicizia
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nessun amico collegato.</p>
      )}

      {overview.outgoing.length ? (
        <>
          <h3 className="profile__h3">Inviti in attesa</h3>
          <ul className="profile__list">
            {overview.outgoing.map((p) => (
              <li key={p.friendshipId}>
                {who(p)}
                <button
                  type="button"
                  className="btn"
                  disabled={busy}
                  onClick={() => run({ intent: "end-friendship", friendshipId: p.friendshipId }, "Invito annullato")}
                >
                  Annulla invito
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
