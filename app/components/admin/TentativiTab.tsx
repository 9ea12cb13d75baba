/** Admin console tab 'Tentativi'. */
export function TentativiTab() {
  return <p className="muted">In arrivo</p>;
}
