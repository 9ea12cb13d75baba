import { api, methods, readJson } from "~/server/api.server";
import { deleteAccountSchema } from "~/lib/forms/profile";
import { deleteAccountConfirmed, getProfile, profileUpdateSchema, updateProfile } from "~/server/profile.server";
import { clearSessionCookie } from "~/server/session.server";

// GET /api/profile: the profile object.
export const loader = api({
  access: "user",
  handler: ({ db, user }) => getProfile(db, user.id),
});

export const action = methods({
  // POST /api/profile: the profile fields; invalid input is a 400 and nothing is written.
  POST: api({
    access: "user",
    async handler({ request, db, user }) {
      return updateProfile(db, user.id, await readJson(request, profileUpdateSchema));
    },
  }),
  // DELETE /api/profile {confirm: "ELIMINA"}: erase the account, then sign out.
  DELETE: api({
    access: "user",
    async handler({ request, db, user }) {
      const { confirm } = await readJson(request, deleteAccountSchema);
      await deleteAccountConfirmed(db, user.id, confirm);
      return Response.json({ ok: true }, { headers: { "Set-Cookie": clearSessionCookie(request) } });
    },
  }),
});
