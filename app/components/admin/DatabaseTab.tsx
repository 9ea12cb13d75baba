/** Admin console tab 'Database'. */
export function DatabaseTab() {
  return <p className="muted">In arrivo</p>;
}
