// The same guard for screens: signed out → /login (with the way back), wrong role → /,
// suspended → a 423 the root error boundary renders as the 'Account sospeso' overlay.
import { data, redirect, type RouterContextProvider } from "react-router";
import { getEnv } from "./context";
import { HttpError } from "./errors.server";
import { clearSessionCookie, requireUser, type Access, type SessionUser } from "./session.server";

export async function requirePageUser(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  access: Exclude<Access, "public"> = "user",
): Promise<SessionUser> {
  try {
    return await requireUser(args.request, getEnv(args.context), access);
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
