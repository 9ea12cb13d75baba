// The same guard for screens: signed out → /login (with the way back), wrong role → /,
// suspended → a 423 the root error boundary renders as the 'Account sospeso' overlay.
import { data, redirect, type RouterContextProvider } from "react-router";
import { getEnv } from "./context";
import { HttpError } from "./errors.server";
import { checkAccess, clearSessionCookie, getSessionUser, type Access, type SessionUser } from "./session.server";

// A page load runs the layout's loader and the screen's loader side by side, each guarded: on a GET they share
// one session read (the context is made per request). After an action the loaders read it afresh.
const sessionReads = new WeakMap<object, Promise<SessionUser | null>>();

function sessionUserOnce(args: { request: Request; context: Readonly<RouterContextProvider> }): Promise<SessionUser | null> {
  const env = getEnv(args.context);
  if (args.request.method !== "GET") return getSessionUser(args.request, env);
  let read = sessionReads.get(args.context);
  if (!read) {
    read = getSessionUser(args.request, env);
    sessionReads.set(args.context, read);
  }
  return read;
}

export async function requirePageUser(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  access: Exclude<Access, "public"> = "user",
): Promise<SessionUser> {
  try {
    return await checkAccess(await sessionUserOnce(args), access, args.request, getEnv(args.context));
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
