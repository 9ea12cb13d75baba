// The same guard for screens: signed out → /login (with the way back), wrong role → /,
// suspended → a 423 the root error boundary renders as the 'Account sospeso' overlay.
import { data, redirect, type RouterContextProvider } from "react-router";
import { getEnv, sessionUserOf } from "./context";
import { HttpError } from "./errors.server";
import { checkAccess, clearSessionCookie, type Access, type SessionUser } from "./session.server";

// A page load runs the layout's loader and the screen's loader side by side, each guarded: they share the one
// session read the root middleware put in the request context (app/server/request-context.server.ts). An action
// and the loaders that revalidate after it are separate requests, so they read the session afresh.

/** What a screen's loader or action is given (the parts the guard reads). */
export type PageArgs = { request: Request; context: Readonly<RouterContextProvider> };

export async function requirePageUser(
  args: PageArgs,
  access: Exclude<Access, "public"> = "user",
): Promise<SessionUser> {
  try {
    return await checkAccess(await sessionUserOf(args.context), access, args.request, getEnv(args.context));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const url = new URL(args.request.url);
    if (error.status === 401) {
      const next = url.pathname + url.search;
      throw redirect(`/login?next=${encodeURIComponent(next)}`, {
        headers: { "Set-Cookie": clearSessionCookie(args.request) },
      });
    }
    if (error.status === 403) throw redirect("/");
    if (error.status === 423) {
      throw data(
        { error: error.message, reason: String(error.extra.reason ?? "") },
        { status: 423, headers: { "Set-Cookie": clearSessionCookie(args.request) } },
      );
    }
    throw error;
  }
}
