// POST /esci: "Esci" in the side navigation (a plain form post, so it works before the page's scripts load):
// the session row is deleted (the token stops working as cookie and as Bearer), the cookie cleared, and the browser
// goes home with a full page load. The same service as POST /api/auth/logout.
import { redirectDocument } from "react-router";
import { getEnv, sessionUserOf } from "~/server/context";
import { clearSessionCookie, destroySession } from "~/server/session.server";
import type { Route } from "./+types/esci";

export async function action({ request, context }: Route.ActionArgs) {
  const user = await sessionUserOf(context);
  if (user) await destroySession(getEnv(context), user.sessionId);
  return redirectDocument("/", { headers: { "Set-Cookie": clearSessionCookie(request) } });
}
