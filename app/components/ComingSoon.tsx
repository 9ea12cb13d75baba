/** Placeholder for a screen that a later piece of work builds. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <section className="page">
      <h1 className="page__title">{title}</h1>
      <p className="muted">In arrivo</p>
    </section>
  );
}
