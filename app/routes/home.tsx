import { Link, useLoaderData } from "react-router";
import { PRODUCT_NAME } from "~/lib/constants";
import { getEnv } from "~/server/context";
import { getSessionUser } from "~/server/session.server";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, getEnv(context));
  return { signedIn: Boolean(user && user.status === "attivo") };
}

export default function Home() {
  const { signedIn } = useLoaderData<typeof loader>();
  return (
    <div className="landing">
      <header className="landing__header">
        <a href="/" className="landing__brand">
          <span className="logo-mark" aria-hidden="true">U</span> {PRODUCT_NAME}
        </a>
        <Link className="btn btn--primary" to={signedIn ? "/dashboard" : "/login"}>
          {signedIn ? "Vai alla dashboard" : "Accedi"}
        </Link>
      </header>
      <main className="landing__hero">
        <h1>Preparati ai test di Medicina, gratis.</h1>
        <p>
          Quiz a tempo, simulazioni di gruppo del semestre filtro e statistiche oneste. Nessun costo nascosto,
          nessun corso da venderti.
        </p>
        <Link className="btn btn--primary" to={signedIn ? "/dashboard" : "/login"}>
          Inizia ora
        </Link>
      </main>
      <footer className="landing__footer">
        <span>© {new Date().getFullYear()} {PRODUCT_NAME}</span> · <Link to="/policy">Privacy e cookie</Link> ·{" "}
        <Link to="/terms">Termini d'uso</Link>
      </footer>
    </div>
  );
}
