import { api } from "~/server/api.server";
import { clearSessionCookie, destroySession, getSessionUser } from "~/server/session.server";

// Ends the session (the row is deleted, so the token stops working as cookie and as Bearer).
export const action = api({
  access: "public",
  async handler({ request, env }) {
    const user = await getSessionUser(request, env);
    if (user) await destroySession(env, user.sessionId);
    return Response.json({ ok: true }, { headers: { "Set-Cookie": clearSessionCookie(request) } });
  },
});
