import { z } from "zod";
import { DELETE_ACCOUNT_CONFIRMATION } from "~/lib/constants";
import { api, methods, readJson } from "~/server/api.server";
import { HttpError, withLabels } from "~/server/errors.server";
import { deleteAccount, getProfile, profileUpdateSchema, updateProfile } from "~/server/profile.server";
import { clearSessionCookie } from "~/server/session.server";

// GET /api/profile: the profile object.
export const loader = api({
  access: "user",
  handler: ({ db, user }) => getProfile(db, user.id),
});

const deleteSchema = withLabels(
  z.object({ confirm: z.string("Scrivi ELIMINA per confermare.") }),
  { confirm: "Conferma" },
);

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
      const { confirm } = await readJson(request, deleteSchema);
      if (confirm.trim() !== DELETE_ACCOUNT_CONFIRMATION) {
        throw new HttpError(400, `Conferma non valida: scrivi ${DELETE_ACCOUNT_CONFIRMATION} per eliminare l'account.`);
      }
      await deleteAccount(db, user.id);
      return Response.json({ ok: true }, { headers: { "Set-Cookie": clearSessionCookie(request) } });
    },
  }),
});
