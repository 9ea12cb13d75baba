import { PRIVACY, PRODUCT_NAME } from "~/lib/constants";
import "~/styles/legal.css";

const TOC = [
  { id: "titolare", label: "Titolare del trattamento" },
  { id: "dati", label: "Quali dati raccogliamo" },
  { id: "finalita", label: "Perché li usiamo" },
  { id: "conservazione", label: "Per quanto tempo li conserviamo" },
  { id: "cookie", label: "Cookie" },
  { id: "diritti", label: "I tuoi diritti" },
  { id: "minori", label: "Età minima" },
  { id: "modifiche", label: "Modifiche a questa informativa" },
];

export default function Policy() {
  return (
    <main className="legal" id="contenuto">
      <nav className="legal__top" aria-label="Collegamenti">
        <a href="/">← Torna alla home</a>
        <a href="/terms">Termini d'uso</a>
      </nav>
      <h1>Privacy e cookie policy</h1>
      <p className="muted">
        Ultimo aggiornamento: <time dateTime={PRIVACY.policyDate}>19 agosto 2025</time>
      </p>
      <nav className="legal__toc" aria-labelledby="toc-title">
        <h2 id="toc-title">Indice</h2>
        <ol>
          {TOC.map((item) => (
            <li key={item.id}>
              <a href={`#${item.id}`}>{item.label}</a>
            </li>
          ))}
        </ol>
      </nav>

      <section id="titolare">
        <h2>Titolare del trattamento</h2>
        <p>
          Il titolare del trattamento è il team di {PRODUCT_NAME}. Per qualsiasi richiesta sulla privacy puoi scriverci
          dalla pagina del tuo profilo o all'indirizzo indicato nei termini d'uso.
        </p>
      </section>

      <section id="dati">
        <h2>Quali dati raccogliamo</h2>
        <ul>
          <li>Dati dell'account Google con cui accedi: nome, indirizzo email e immagine del profilo.</li>
          <li>I dati che scegli di aggiungere al profilo (telefono, scuola, città, obiettivo e simili).</li>
          <li>I tuoi tentativi: risposte date, punteggi, tempi e segnalazioni sulle domande.</li>
          <li>Log tecnici (indirizzo IP, data e ora delle richieste) necessari alla sicurezza del servizio.</li>
        </ul>
      </section>

      <section id="finalita">
        <h2>Perché li usiamo</h2>
        <p>
          Usiamo i dati per farti accedere, calcolare punteggi e statistiche, mostrarti il confronto anonimo con gli
          altri studenti, gestire le simulazioni di gruppo e mantenere il servizio sicuro. Non vendiamo né cediamo i
          tuoi dati a terzi e non facciamo pubblicità.
        </p>
      </section>

      <section id="conservazione">
        <h2>Per quanto tempo li conserviamo</h2>
        <ul>
          <li>
            Dati dell'account e dello studio: fino a {PRIVACY.accountRetentionMonths} mesi dopo la chiusura
            dell'account.
          </li>
          <li>Log tecnici: da 6 a 12 mesi.</li>
          <li>Prova del consenso ai cookie: fino a {PRIVACY.consentProofYears} anni.</li>
        </ul>
      </section>

      <section id="cookie">
        <h2>Cookie</h2>
        <p>Usiamo solo cookie di prima parte, divisi in quattro categorie:</p>
        <ul>
          <li>
            <strong>Necessari</strong> (sempre attivi): la sessione di accesso e la memoria della tua scelta sui cookie.
          </li>
          <li>
            <strong>Preferenze</strong>: ricordano impostazioni come il menu ridotto.
          </li>
          <li>
            <strong>Statistiche</strong>: registrano quali pagine vengono visitate, solo sui nostri server.
          </li>
          <li>
            <strong>Marketing</strong>: ci permettono di inviarti comunicazioni sulle novità della piattaforma.
          </li>
        </ul>
        <p>Puoi cambiare la tua scelta in qualsiasi momento.</p>
        <button type="button" className="btn btn--primary" data-open-cookie-preferences="">
          Preferenze cookie
        </button>
      </section>

      <section id="diritti">
        <h2>I tuoi diritti</h2>
        <p>
          Puoi chiedere accesso, rettifica, cancellazione, limitazione, portabilità dei dati e opporti al trattamento.
          Dal profilo puoi scaricare una copia dei tuoi dati ed eliminare l'account. Rispondiamo alle richieste entro{" "}
          {PRIVACY.rightsReplyDays} giorni. Puoi anche rivolgerti al Garante per la protezione dei dati personali.
        </p>
      </section>

      <section id="minori">
        <h2>Età minima</h2>
        <p>Il servizio è destinato a utenti di almeno {PRIVACY.minimumAge} anni.</p>
      </section>

      <section id="modifiche">
        <h2>Modifiche a questa informativa</h2>
        <p>
          Se cambiamo questa informativa aggiorniamo la data in cima alla pagina e, per modifiche importanti, te lo
          chiediamo di nuovo al prossimo accesso.
        </p>
      </section>
      <p>
        <a href="/">Torna alla home</a> · <a href="/terms">Termini d'uso</a>
      </p>
    </main>
  );
}
