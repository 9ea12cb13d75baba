import { PRIVACY, PRODUCT_NAME } from "~/lib/constants";
import "~/styles/legal.css";

export default function Terms() {
  return (
    <main className="legal" id="contenuto">
      <nav className="legal__top" aria-label="Collegamenti">
        <a href="/">← Torna alla home</a>
        <a href="/policy">Privacy e cookie</a>
      </nav>
      <h1>Termini d'uso</h1>
      <p className="muted">
        Ultimo aggiornamento: <time dateTime={PRIVACY.policyDate}>19 agosto 2025</time>
      </p>
      <section>
        <h2>Il servizio</h2>
        <p>
          {PRODUCT_NAME} è una piattaforma gratuita per esercitarsi ai test di ammissione a Medicina e agli esami del
          semestre filtro. Non è affiliata al Ministero né alle università: i quiz sono scritti dal team e dalla
          community e servono solo per allenarsi.
        </p>
      </section>
      <section>
        <h2>Il tuo account</h2>
        <p>
          Accedi con un account Google personale. Devi avere almeno {PRIVACY.minimumAge} anni. Sei responsabile di
          quello che fai con il tuo account: non condividerlo.
        </p>
      </section>
      <section>
        <h2>Regole di comportamento</h2>
        <ul>
          <li>Non usare il servizio per copiare durante esami reali.</li>
          <li>Non tentare di alterare punteggi, classifiche o simulazioni.</li>
          <li>Segnala le domande sbagliate con rispetto: ogni segnalazione viene letta.</li>
        </ul>
        <p>
          Chi viola queste regole può essere sospeso; il motivo della sospensione viene mostrato al successivo accesso.
        </p>
      </section>
      <section>
        <h2>Contenuti e responsabilità</h2>
        <p>
          Facciamo il possibile perché domande e spiegazioni siano corrette, ma possono contenere errori: usale come
          strumento di studio, non come fonte ufficiale. Il servizio è fornito così com'è e può essere interrotto per
          manutenzione.
        </p>
      </section>
      <section>
        <h2>Privacy</h2>
        <p>
          Come trattiamo i tuoi dati è spiegato nella <a href="/policy">privacy e cookie policy</a>.
        </p>
      </section>
    </main>
  );
}
