// React Router's default web entry, plus the CSP nonce: <ServerRouter nonce> puts it on React Router's inline
// scripts (<Scripts>, <ScrollRestoration>, streamed loader data), and React's own streaming scripts get it from
// renderToReadableStream. The Content-Security-Policy header with the same nonce is set by workers/app.ts.
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import stylesheetTexts from "virtual:unicum/inline-css";
import { StylesheetTextContext } from "~/components/PageStyles";
import { ACCOUNT_HEADER, SIGNED_OUT } from "~/lib/offline-routes";
import { nonceContext, sessionUserIfRead } from "~/server/context";

export const streamTimeout = 5_000;

/**
 * The production build's stylesheets by URL, written into each page's head (app/components/PageStyles.tsx). React
 * Router marks a stylesheet that a lazy chunk imports too with a trailing "#": the same file.
 */
const stylesheetText = (href: string): string | undefined => stylesheetTexts[href.replace(/#.*$/, "")];

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const nonce = loadContext.get(nonceContext) || undefined;
  let shellRendered = false;
  const userAgent = request.headers.get("user-agent");

  const page = (
    <StylesheetTextContext value={stylesheetText}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </StylesheetTextContext>
  );
  const body = await renderToReadableStream(page, {
    nonce,
    signal: AbortSignal.timeout(streamTimeout + 1000),
    onError(error: unknown) {
      responseStatusCode = 500;
      // Errors inside the shell are logged by handleDocumentRequest; log only the streamed ones here.
      if (shellRendered) console.error(error);
    },
  });
  shellRendered = true;

  // Bots and SPA mode wait for all content before the answer starts.
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) {
    await body.allReady;
  }

  responseHeaders.set("Content-Type", "text/html");
  // Whose page this is, for the service worker's page cache (app/lib/offline-routes.ts); a page that never read the
  // session (the landing, the policy) says nothing rather than cost a session read.
  const reader = sessionUserIfRead(loadContext);
  if (reader) responseHeaders.set(ACCOUNT_HEADER, String((await reader)?.id ?? SIGNED_OUT));
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
