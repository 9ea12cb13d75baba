import { useLoaderData } from "react-router";
import { PRODUCT_NAME } from "~/lib/constants";
import { getEnv } from "~/server/context";
import { getSessionUser } from "~/server/session.server";
import type { Route } from "./+types/home";
import "~/styles/landing.css";

// Plain server-rendered HTML: no React runtime on the landing page (see useHydrate in root.tsx);
// public/landing.js (a few hundred bytes) opens the manifesto and the Google button.
export const handle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const env = getEnv(context);
  const user = await getSessionUser(request, env);
  return {
    signedIn: Boolean(user && user.status === "attivo"),
    googleClientId: env.GOOGLE_CLIENT_ID || null,
    year: new Date().getFullYear(),
  };
}

const SECTIONS = [
  { id: "cos-e", label: "Cos'è" },
  { id: "promessa", label: "La promessa" },
  { id: "community", label: "Community" },
  { id: "team", label: "Team" },
  { id: "manifesto", label: "Manifesto" },
];

function SignInButton({ signedIn, googleClientId }: { signedIn: boolean; googleClientId: string | null }) {
  if (signedIn) {
    return (
      <a className="btn btn--primary" href="/dashboard">
        Vai alla dashboard
      </a>
    );
  }
  // With Google configured, landing.js renders Google's button here (popup, auto-select off);
  // the link stays as the way in when Google's script cannot load.
  return (
    <span className="signin" data-google-client-id={googleClientId ?? undefined}>
      <a className="btn btn--primary" href="/login">
        Accedi
      </a>
    </span>
  );
}

export default function Home() {
  const { signedIn, googleClientId, year } = useLoaderData<typeof loader>();
  return (
    <div className="landing" id="top">
      <header className="landing-header">
        <div className="landing-header__inner">
          <a href="/" className="landing__brand" aria-label={`${PRODUCT_NAME}, home`}>
            <span className="logo-mark" aria-hidden="true">
              U
            </span>
            <span>{PRODUCT_NAME}</span>
          </a>
          <nav aria-label="Sezioni della pagina" className="landing-nav">
            {SECTIONS.map((s) => (
              <a key={s.id} href={`#${s.id}`}>
                {s.label}
              </a>
            ))}
          </nav>
          <SignInButton signedIn={signedIn} googleClientId={googleClientId} />
        </div>
      </header>

      <main id="contenuto">
        <section className="hero">
          <div className="wrap">
            <p className="eyebrow">Test di Medicina · Semestre filtro</p>
            <h1>Allenati per Medicina, gratis e senza trucchi.</h1>
            <p className="hero__lead">
              Quiz a tempo su Chimica, Fisica e Biologia, simulazioni di gruppo che partono per tutti nello stesso
              istante e statistiche oneste su dove sei forte e dove devi ripassare.
            </p>
            <div className="hero__actions">
              <a className="btn btn--primary" href="#inizia">
                Inizia ora
              </a>
              <a className="btn" href="#cos-e">
                Scopri cos'è
              </a>
            </div>
          </div>
        </section>

        <section id="cos-e" className="band" aria-labelledby="cos-e-title">
          <div className="wrap">
            <h2 id="cos-e-title">Cos'è {PRODUCT_NAME}</h2>
            <p className="section-lead">
              Un simulatore gratuito per i test di ammissione a Medicina e per gli esami del semestre filtro: 31
              domande, 45 minuti, +1 per ogni risposta giusta e −0,1 per ogni errore, come all'esame vero.
            </p>
            <div className="cards">
              <article className="card">
                <h3>Quiz su misura</h3>
                <p>
                  Scegli materia, argomento, numero di domande e timer. Il punteggio è calcolato sul server, in 31esimi.
                </p>
              </article>
              <article className="card">
                <h3>Ripasso degli errori</h3>
                <p>Le domande sbagliate tornano dopo 24 ore di pausa, quando ripassarle serve davvero.</p>
              </article>
              <article className="card">
                <h3>Statistiche vere</h3>
                <p>
                  Accuratezza per argomento, andamento nel tempo e confronto con gli altri studenti, senza ritocchi.
                </p>
              </article>
            </div>
          </div>
        </section>

        <section id="promessa" className="band band--alt" aria-labelledby="promessa-title">
          <div className="wrap">
            <h2 id="promessa-title">La nostra promessa</h2>
            <div className="cards">
              <article className="card">
                <h3>Gratis, davvero</h3>
                <p>Nessun costo nascosto, nessuna versione premium, nessun limite di quiz.</p>
              </article>
              <article className="card">
                <h3>Statistiche oneste</h3>
                <p>Ti mostriamo i numeri come sono, anche quando non sono belli: servono per migliorare.</p>
              </article>
              <article className="card">
                <h3>Niente corsi da venderti</h3>
                <p>Non abbiamo corsi, libri o lezioni a pagamento da proporti. Solo esercizio e dati.</p>
              </article>
            </div>
          </div>
        </section>

        <section id="community" className="band" aria-labelledby="community-title">
          <div className="wrap">
            <h2 id="community-title">Una community che studia insieme</h2>
            <p className="section-lead">
              Non prepari il test da solo: ci sono altri studenti che stanno facendo la stessa strada.
            </p>
            <ul className="tags" aria-label="Attività della community">
              <li className="tag">Gruppi di studio</li>
              <li className="tag">Q&amp;A settimanali</li>
              <li className="tag">Risorse condivise</li>
            </ul>
          </div>
        </section>

        <section id="team" className="band band--alt" aria-labelledby="team-title">
          <div className="wrap">
            <h2 id="team-title">Il team</h2>
            <p className="section-lead">Tre persone che hanno fatto il test e vogliono renderlo meno solitario.</p>
            <div className="cards">
              <article className="card card--person">
                <span className="avatar" aria-hidden="true">
                  F
                </span>
                <h3>Fondatore</h3>
                <p>Ha avuto l'idea dopo il proprio test di ammissione e cura i contenuti delle domande.</p>
              </article>
              <article className="card card--person">
                <span className="avatar" aria-hidden="true">
                  T
                </span>
                <h3>Responsabile tecnico</h3>
                <p>Costruisce la piattaforma e si assicura che simulazioni e punteggi siano giusti per tutti.</p>
              </article>
              <article className="card card--person">
                <span className="avatar" aria-hidden="true">
                  C
                </span>
                <h3>Community manager</h3>
                <p>Anima i gruppi di studio, organizza le Q&amp;A e raccoglie le vostre segnalazioni.</p>
              </article>
            </div>
          </div>
        </section>

        <section id="manifesto" className="band" aria-labelledby="manifesto-title">
          <div className="wrap">
            <article className="card card--manifesto">
              <h2 id="manifesto-title">Il manifesto</h2>
              <p>
                Perché crediamo che prepararsi a Medicina non debba dipendere da quanto puoi spendere, e cosa facciamo
                per mantenerlo vero.
              </p>
              <button type="button" className="btn btn--primary" data-open-manifesto="">
                Leggi il manifesto
              </button>
            </article>
          </div>
        </section>

        <section id="inizia" className="band band--alt" aria-labelledby="inizia-title">
          <div className="wrap">
            <h2 id="inizia-title">Inizia in tre passi</h2>
            <ol className="steps">
              <li>Accedi con il tuo account Google.</li>
              <li>Scegli materia, argomento e quante domande vuoi.</li>
              <li>Consegna, guarda il riepilogo e ripassa gli errori.</li>
            </ol>
            <SignInButton signedIn={signedIn} googleClientId={googleClientId} />
          </div>
        </section>
      </main>

      <footer className="landing-footer">
        <div className="wrap landing-footer__inner">
          <span>
            © {year} {PRODUCT_NAME} · gratuito, senza pubblicità
          </span>
          <nav aria-label="Note legali" className="landing-footer__links">
            <a href="/policy">Privacy e cookie</a>
            <a href="/terms">Termini d'uso</a>
            <button type="button" className="linklike" data-open-cookie-preferences="">
              Preferenze cookie
            </button>
          </nav>
        </div>
      </footer>

      <dialog className="manifesto-dialog" id="manifesto-dialog" aria-labelledby="manifesto-dialog-title">
        <div className="manifesto-dialog__inner">
          <div className="manifesto-dialog__head" id="manifesto-top">
            <h2 id="manifesto-dialog-title">Manifesto di {PRODUCT_NAME}</h2>
            <button type="button" className="btn btn--ghost" data-close-manifesto="" aria-label="Chiudi il manifesto">
              ✕
            </button>
          </div>
          <nav aria-label="Parti del manifesto" className="manifesto-dialog__toc">
            <a href="#manifesto-filosofia">La filosofia</a>
            <a href="#manifesto-insieme">Cosa facciamo insieme</a>
            <a href="#manifesto-promessa">La promessa</a>
          </nav>
          <section id="manifesto-filosofia" aria-labelledby="mf-1">
            <h3 id="mf-1">La filosofia</h3>
            <p>
              Entrare a Medicina dovrebbe dipendere da quanto studi, non da quanto puoi spendere in corsi di
              preparazione. Per questo {PRODUCT_NAME} è gratuito e lo resterà.
            </p>
            <p>
              Crediamo nei numeri onesti: un punteggio gonfiato fa sentire bene oggi e male il giorno del test. Ti
              diciamo dove sei, con le stesse regole dell'esame vero.
            </p>
          </section>
          <section id="manifesto-insieme" aria-labelledby="mf-2">
            <h3 id="mf-2">Cosa facciamo insieme</h3>
            <p>
              Scriviamo e correggiamo le domande con l'aiuto di chi le usa: ogni segnalazione viene letta e, quando
              serve, la domanda viene sistemata per tutti.
            </p>
            <p>
              Organizziamo simulazioni di gruppo che partono nello stesso istante per tutta la classe, gruppi di studio
              e sessioni di domande e risposte ogni settimana.
            </p>
          </section>
          <section id="manifesto-promessa" aria-labelledby="mf-3">
            <h3 id="mf-3">La promessa</h3>
            <p>
              Nessun costo nascosto, nessun corso da venderti, nessuna pubblicità. I tuoi dati servono a te per
              migliorare e non vengono ceduti a nessuno.
            </p>
          </section>
          <p>
            <a href="#manifesto-top">Torna su</a>
          </p>
        </div>
      </dialog>
      <script src="/landing.js" defer />
    </div>
  );
}
