/** Admin console tab 'Utenti'. */
export function UtentiTab() {
  return <p className="muted">In arrivo</p>;
}
