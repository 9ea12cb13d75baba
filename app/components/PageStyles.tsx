// The page's stylesheets inside its HTML (issue 33, point 2). As <link>s in the head they blocked the first paint:
// each waited a round trip after the HTML and, on a phone's slow link, shared it with the JavaScript preloads, so
// the first screenful (the greeting, the form, the quiz's first question) waited on them. The server now writes
// each stylesheet of the matched routes as <style data-href="/assets/….css">, from the texts of the production
// build (scripts/vite-inline-css.ts); the browser renders the same elements with the text it finds in the
// document, so hydration matches. A stylesheet the server did not inline (development, or a route first reached
// by a client-side navigation) stays a <link>, rendered by React Router's <Links />.
import { createContext, useContext } from "react";
import { Links, UNSAFE_FrameworkContext, useMatches } from "react-router";

type StylesheetText = (href: string) => string | undefined;

/** The server's lookup of a stylesheet's text by its URL (entry.server.tsx); none in the browser. */
export const StylesheetTextContext = createContext<StylesheetText | null>(null);

/** Texts seen inline in this document: the same page drawn again (after a navigation away) keeps them inline. */
const seenInline = new Map<string, string>();

function textInDocument(href: string): string | undefined {
  const seen = seenInline.get(href);
  if (seen !== undefined || typeof document === "undefined") return seen;
  for (const style of document.querySelectorAll<HTMLStyleElement>("style[data-href]")) {
    if (style.dataset.href !== href) continue;
    const text = style.textContent ?? "";
    seenInline.set(href, text);
    return text;
  }
  return undefined;
}

/** In place of <Links />: the matched routes' stylesheets inline where their text is known, the rest as links. */
export function PageStyles() {
  const framework = useContext(UNSAFE_FrameworkContext);
  const matches = useMatches();
  const textOf = useContext(StylesheetTextContext) ?? textInDocument;
  const routes = framework?.manifest.routes ?? {};
  const inline: [href: string, text: string][] = [];
  // React Router's <Links /> draws the stylesheets of the manifest: it gets the matched routes without those drawn
  // inline. Read at each render from the live manifest (lazy route discovery adds routes to it).
  const withoutInlined: typeof routes = {};
  for (const match of matches) {
    const route = routes[match.id];
    if (!route?.css) continue;
    const linked = route.css.filter((href) => {
      if (inline.some(([seen]) => seen === href)) return false;
      const text = textOf(href);
      if (text === undefined) return true;
      inline.push([href, text]);
      return false;
    });
    if (linked.length < route.css.length) withoutInlined[match.id] = { ...route, css: linked };
  }
  const linksContext =
    framework && inline.length
      ? { ...framework, manifest: { ...framework.manifest, routes: { ...routes, ...withoutInlined } } }
      : framework;
  return (
    <>
      {inline.map(([href, text]) => (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own build's stylesheet, not user content
        <style key={href} data-href={href} dangerouslySetInnerHTML={{ __html: text }} />
      ))}
      <UNSAFE_FrameworkContext.Provider value={linksContext}>
        <Links />
      </UNSAFE_FrameworkContext.Provider>
    </>
  );
}
