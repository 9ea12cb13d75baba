// /admin/rush: the console's Rush tab. Its loader reads the events; the tab's writes post here (JSON with an intent),
// through the same services and schema as /api/admin/rush-events*, and the list reloads after each. Admins only.
import { z } from "zod";
import { RushTab } from "~/components/admin/RushTab";
import { labelsOf, withLabels, zodMessage } from "~/lib/validation";
import { adminTabUser, requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf } from "~/server/context";
import { handleIntent, handleValue, refusal } from "~/server/form.server";
import {
  createRushEvent,
  deleteRushEvent,
  listRushEvents,
  rushEventInputSchema,
  updateRushEvent,
} from "~/server/rush.server";
import type { Route } from "./+types/admin.rush";

export async function loader(args: Route.LoaderArgs) {
  await requireAdminTab(args, "rush");
  return { events: await listRushEvents(dbOf(args.context)) };
}

const eventId = z.number("Evento non valido").int().positive();
const saveEvent = withLabels(z.object({ intent: z.string(), id: eventId.nullish(), event: z.unknown() }), {
  intent: "Operazione",
  id: "Evento",
  event: "Evento",
});
const removeEvent = withLabels(z.object({ intent: z.string(), id: eventId }), { intent: "Operazione", id: "Evento" });

export async function action(args: Route.ActionArgs) {
  const actor = await adminTabUser(args, "rush");
  const db = dbOf(args.context);
  return handleIntent(args.request, {
    // Create (no id) or edit, checked by the same schema as POST / PUT /api/admin/rush-events.
    "save-event": async (body) => {
      const envelope = saveEvent.safeParse(body);
      if (!envelope.success) return refusal(400, zodMessage(envelope.error, labelsOf(saveEvent)));
      const { id, event } = envelope.data;
      return handleValue(event, rushEventInputSchema, (input) =>
        id ? updateRushEvent(db, actor, id, input) : createRushEvent(db, actor, input),
      );
    },
    delete: (body) => handleValue(body, removeEvent, ({ id }) => deleteRushEvent(db, actor, id)),
  });
}

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <RushTab rows={loaderData.events} />;
}
