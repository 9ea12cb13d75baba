import { Link } from "react-router";

export default function Screen() {
  return (
    <main className="page page--public">
      <h1 className="page__title">Termini d'uso</h1>
      <p className="muted">In arrivo</p>
      <Link to="/">Torna alla home</Link>
    </main>
  );
}
