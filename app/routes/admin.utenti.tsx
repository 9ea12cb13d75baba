// /admin/utenti: the console's "utenti" tab. Its loader reads one page of users (filters in the URL: ?stato=, ?ruolo=,
// ?q=, ?pagina=) and the audit log; the tab's writes post here (JSON with an intent), through the same services and
// schemas as /api/admin/users*. Admins only.
import { z } from "zod";
import { UtentiTab } from "~/components/admin/UtentiTab";
import { labelsOf, withLabels, zodMessage } from "~/lib/validation";
import { adminTabUser, requireAdminTab } from "~/server/admin/tab-guard.server";
import {
  banSchema,
  createUser,
  deleteUser,
  listUsers,
  toggleBan,
  updateUser,
  userFormSchema,
  userListQuery,
} from "~/server/admin/users.server";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { bulkIdsSchema, eachId, handleIntent, handleValue, refusal } from "~/server/form.server";
import { listAudit } from "~/server/audit.server";
import { ADMIN_USERS_PAGE_SIZE } from "~/lib/constants";
import type { Route } from "./+types/admin.utenti";

export async function loader(args: Route.LoaderArgs) {
  await requireAdminTab(args, "utenti");
  const db = dbOf(args.context);
  const url = new URL(args.request.url).searchParams;
  // A hand-edited filter the schema refuses is dropped rather than refused: the page still opens.
  const pick = <T,>(parsed: z.ZodSafeParseResult<T>) => (parsed.success ? parsed.data : undefined);
  const shape = userListQuery.shape;
  const query = {
    status: pick(shape.status.safeParse(url.get("stato") ?? undefined)),
    role: pick(shape.role.safeParse(url.get("ruolo") ?? undefined)),
    q: pick(shape.q.safeParse(url.get("q") || undefined)),
    page: pick(shape.page.safeParse(url.get("pagina") ?? undefined)) ?? 1,
    pageSize: ADMIN_USERS_PAGE_SIZE,
  };
  const [users, audit] = await Promise.all([listUsers(db, query), listAudit(db, AUDIT_ROWS)]);
  return { users: { items: users.items, total: users.total }, audit };
}

/** The audit log at the bottom of the tab: the latest entries. */
const AUDIT_ROWS = 50;

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
  const actor = await adminTabUser(args, "utenti");
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

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <UtentiTab users={loaderData.users} audit={loaderData.audit} />;
}
