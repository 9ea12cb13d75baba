/** Admin console tab 'Simulazioni'. */
export function SimulazioniTab() {
  return <p className="muted">In arrivo</p>;
}
