// /admin/edizioni: the console's Edizioni tab (issue 29), admins only. Its loader reads the exam editions; the
// tab's writes post here (JSON with an intent): save an edition (the whole shape, editionInputSchema) or make one
// the default. Both are audited, and the next draw, template and dashboard read the change (no deploy).
import { z } from "zod";
import { EdizioniTab } from "~/components/admin/EdizioniTab";
import { editionInputSchema } from "~/lib/edition-schema";
import { labelsOf, withLabels, zodMessage } from "~/lib/validation";
import { adminTabUser, requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf } from "~/server/context";
import { listEditions, setDefaultEdition, updateEdition } from "~/server/editions.server";
import { handleIntent, handleValue, refusal } from "~/server/form.server";
import { listSubjects } from "~/server/quiz.server";
import type { Route } from "./+types/admin.edizioni";

export async function loader(args: Route.LoaderArgs) {
  await requireAdminTab(args, "edizioni");
  const db = dbOf(args.context);
  const [editions, subjects] = await Promise.all([listEditions(db), listSubjects(db)]);
  return { editions, subjects: subjects.map((s) => ({ id: s.id, name: s.name })) };
}

const editionId = z.number("Edizione non valida").int().positive();
const saveEdition = withLabels(z.object({ intent: z.string(), id: editionId, edition: z.unknown() }), {
  intent: "Operazione",
  id: "Edizione",
  edition: "Edizione",
});
const oneEdition = withLabels(z.object({ intent: z.string(), id: editionId }), {
  intent: "Operazione",
  id: "Edizione",
});

export async function action(args: Route.ActionArgs) {
  const actor = await adminTabUser(args, "edizioni");
  const db = dbOf(args.context);
  return handleIntent(args.request, {
    save: async (body) => {
      const envelope = saveEdition.safeParse(body);
      if (!envelope.success) return refusal(400, zodMessage(envelope.error, labelsOf(saveEdition)));
      const { id, edition } = envelope.data;
      return handleValue(edition, editionInputSchema, async (input) => {
        const saved = await updateEdition(db, actor, id, input);
        return { id: saved.id, version: saved.version };
      });
    },
    default: (body) =>
      handleValue(body, oneEdition, async ({ id }) => {
        await setDefaultEdition(db, actor, id);
        return { ok: true };
      }),
  });
}

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <EdizioniTab editions={loaderData.editions} subjects={loaderData.subjects} />;
}
