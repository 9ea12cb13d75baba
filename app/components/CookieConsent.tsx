// Server-rendered consent banner and preferences dialog. Their behaviour is public/consent.js, the same on
// hydrated pages and on the landing page (which ships no React), so nothing here has event handlers.
export function CookieConsent({ decided }: { decided: boolean }) {
  return (
    <>
      <section className="consent-banner" id="consent-banner" hidden={decided} aria-labelledby="consent-title">
        <h2 id="consent-title">Cookie e privacy</h2>
        <p>
          Usiamo cookie tecnici necessari al funzionamento del sito. Con il tuo consenso useremmo anche cookie di
          preferenza e statistiche anonime di prima parte per migliorare la piattaforma. Nessuna pubblicità, nessun
          tracciamento di terze parti. <a href="/policy#cookie">Leggi la policy</a>.
        </p>
        <div className="consent-banner__actions">
          <button type="button" className="btn consent-choice" data-consent-action="reject">
            Rifiuta
          </button>
          <button type="button" className="btn consent-choice" data-consent-action="accept">
            Accetta
          </button>
          <button type="button" className="btn btn--ghost" data-open-cookie-preferences="">
            Personalizza
          </button>
        </div>
      </section>
      <dialog className="cookie-dialog" id="cookie-preferences" aria-labelledby="cookie-preferences-title">
        <form method="dialog" id="cookie-preferences-form">
          <h2 id="cookie-preferences-title">Preferenze cookie</h2>
          <fieldset>
            <legend className="sr-only">Categorie di cookie</legend>
            <label className="cookie-option">
              <input type="checkbox" name="necessary" checked disabled readOnly />
              <span>
                <strong>Necessari</strong> (sempre attivi): sessione di accesso e sicurezza.
              </span>
            </label>
            <label className="cookie-option">
              <input type="checkbox" name="preferences" />
              <span>
                <strong>Preferenze</strong>: ricordano le tue scelte di visualizzazione.
              </span>
            </label>
            <label className="cookie-option">
              <input type="checkbox" name="analytics" />
              <span>
                <strong>Statistiche</strong>: pagine visitate, raccolte solo da noi, mai cedute a terzi.
              </span>
            </label>
            <label className="cookie-option">
              <input type="checkbox" name="marketing" />
              <span>
                <strong>Marketing</strong>: comunicazioni sulle novità della piattaforma.
              </span>
            </label>
          </fieldset>
          <div className="modal__foot">
            <button type="button" className="btn" data-consent-action="close">
              Annulla
            </button>
            <button type="submit" className="btn btn--primary" value="save">
              Salva preferenze
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
