/** Admin console tab 'Rush'. */
export function RushTab() {
  return <p className="muted">In arrivo</p>;
}
