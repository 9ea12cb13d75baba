/** Admin console tab 'Segnalazioni'. */
export function SegnalazioniTab() {
  return <p className="muted">In arrivo</p>;
}
