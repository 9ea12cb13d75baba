// /admin/utenti: the console's "utenti" tab. The list comes through the admin JSON calls; the tab's writes post
// here (JSON with an intent), through the same services and schemas as /api/admin/users*. Admins only.
import { z } from "zod";
import { UtentiTab } from "~/components/admin/UtentiTab";
import { labelsOf, withLabels, zodMessage } from "~/lib/validation";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import { banSchema, createUser, deleteUser, toggleBan, updateUser, userFormSchema } from "~/server/admin/users.server";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { bulkIdsSchema, eachId, handleIntent, handleValue, refusal } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin.utenti";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "utenti");
}

const userId = z.number("Utente non valido").int().positive();
const saveUser = withLabels(z.object({ intent: z.string(), id: userId.nullish(), user: z.unknown() }), {
  intent: "Operazione",
  id: "Utente",
  user: "Utente",
});
const ban = withLabels(z.object({ intent: z.string(), id: userId, reason: z.string().nullish() }), {
  intent: "Operazione",
  id: "Utente",
  reason: "Motivo",
});

export async function action(args: Route.ActionArgs) {
  await requireAdminTab(args, "utenti");
  const actor = await requirePageUser(args, "admin");
  const db = dbOf(args.context);
  return handleIntent(args.request, {
    // Create (no id) or edit: the user's fields are checked by the same schema as POST/PUT /api/admin/users.
    "save-user": async (body) => {
      const envelope = saveUser.safeParse(body);
      if (!envelope.success) return refusal(400, zodMessage(envelope.error, labelsOf(saveUser)));
      const { id, user } = envelope.data;
      return handleValue(user, userFormSchema, (form) =>
        id ? updateUser(db, actor, id, form) : createUser(db, actor, form),
      );
    },
    // Sospendi (a reason) / Riattiva (none): the same toggle as POST /api/admin/users/{id}/ban.
    "toggle-ban": (body) =>
      handleValue(body, ban, ({ id, reason }) => {
        const parsed = banSchema.safeParse(reason ? { reason } : undefined);
        if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error, labelsOf(banSchema)));
        return toggleBan(db, actor, id, parsed.data?.reason);
      }),
    delete: (body) => handleValue(body, bulkIdsSchema, ({ ids }) => eachId(ids, (id) => deleteUser(db, actor, id))),
  });
}

export default function AdminTab() {
  return <UtentiTab />;
}
