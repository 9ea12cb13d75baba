/** The production build's stylesheets by URL (scripts/vite-inline-css.ts); empty in development. */
declare module "virtual:unicum/inline-css" {
  const texts: Record<string, string>;
  export default texts;
}
