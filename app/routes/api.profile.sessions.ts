// GET /api/profile/sessions: the signed-in user's active sessions (device, sign-in, last use).
// DELETE /api/profile/sessions: "Esci da tutti i dispositivi": ends every one of them, this one too.
import { api, methods } from "~/server/api.server";
import { activeSessions } from "~/server/profile.server";
import { clearSessionCookie, endAllSessions } from "~/server/session.server";

export const loader = api({
  access: "user",
  handler: ({ db, user }) => activeSessions(db, user),
});

export const action = methods({
  DELETE: api({
    access: "user",
    async handler({ request, db, user }) {
      await endAllSessions(db, user.id);
      return Response.json({ ok: true }, { headers: { "Set-Cookie": clearSessionCookie(request) } });
    },
  }),
});
