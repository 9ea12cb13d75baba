// /admin/segnalazioni: the console's "segnalazioni" tab. Its loader reads the reports (?stato=open|resolved filters
// them, as GET /api/admin/reports?status= does); its writes post here. Moderators and admins.
import { SegnalazioniTab } from "~/components/admin/SegnalazioniTab";
import { z } from "zod";
import { withLabels, withParentLabels } from "~/lib/validation";
import {
  deleteReport,
  listReports,
  reportListQuery,
  reportUpdateSchema,
  resolveReport,
  updateReport,
} from "~/server/admin/reports.server";
import { adminTabUser, requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf } from "~/server/context";
import { bulkIdsSchema, eachId, handleIntent, handleValue } from "~/server/form.server";
import type { Route } from "./+types/admin.segnalazioni";

export async function loader(args: Route.LoaderArgs) {
  await requireAdminTab(args, "segnalazioni");
  const filter = reportListQuery.safeParse({
    status: new URL(args.request.url).searchParams.get("stato") ?? undefined,
  });
  const status = filter.success ? filter.data.status : undefined;
  return { reports: await listReports(dbOf(args.context), { status }) };
}

/**
 * POST /admin/segnalazioni (JSON): {intent: "update-report", id, userAnswerKey, assignedScore, status} or
 * {intent: "resolve", id}. The same services and schema as PUT /api/admin/reports/{id} and …/resolve.
 */
export async function action(args: Route.ActionArgs) {
  const user = await adminTabUser(args, "segnalazioni");
  const db = dbOf(args.context);
  return handleIntent(args.request, {
    "update-report": (body) =>
      handleValue(body, reportUpdateAction, ({ id, intent: _, ...input }) => updateReport(db, user, id, input)),
    resolve: (body) => handleValue(body, reportIdAction, ({ id }) => resolveReport(db, user, id)),
    delete: (body) => handleValue(body, bulkIdsSchema, ({ ids }) => eachId(ids, (id) => deleteReport(db, user, id))),
  });
}

const reportId = z.number("Segnalazione non valida").int().positive();
const reportUpdateAction = withParentLabels(
  reportUpdateSchema.extend({ intent: z.literal("update-report"), id: reportId }),
  reportUpdateSchema,
  { intent: "Operazione", id: "Segnalazione" },
);
const reportIdAction = withLabels(z.object({ intent: z.literal("resolve"), id: reportId }), {
  intent: "Operazione",
  id: "Segnalazione",
});

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <SegnalazioniTab reports={loaderData.reports} />;
}
