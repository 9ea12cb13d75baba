/** Admin console tab 'Analytics'. */
export function AnalyticsTab() {
  return <p className="muted">In arrivo</p>;
}
