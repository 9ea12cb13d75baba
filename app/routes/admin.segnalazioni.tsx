// /admin/segnalazioni: the console's "segnalazioni" tab (its data comes through the admin JSON calls, which check the role again).
import { SegnalazioniTab } from "~/components/admin/SegnalazioniTab";
import { z } from "zod";
import { labelsOf, withLabels } from "~/lib/validation";
import { deleteReport, reportUpdateSchema, resolveReport, updateReport } from "~/server/admin/reports.server";
import { requireAdminTab } from "~/server/admin/tab-guard.server";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { bulkIdsSchema, eachId, handleValue, readJsonBody, refusal } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import type { Route } from "./+types/admin.segnalazioni";

export async function loader(args: Route.LoaderArgs) {
  return requireAdminTab(args, "segnalazioni");
}

/**
 * POST /admin/segnalazioni (JSON): {intent: "update-report", id, userAnswerKey, assignedScore, status} or
 * {intent: "resolve", id}. The same services and schema as PUT /api/admin/reports/{id} and …/resolve.
 */
export async function action(args: Route.ActionArgs) {
  await requireAdminTab(args, "segnalazioni");
  const user = await requirePageUser(args, "staff");
  const db = dbOf(args.context);
  let body: unknown;
  try {
    body = await readJsonBody(args.request);
  } catch (error) {
    if (error instanceof HttpError) return refusal(error.status, error.message);
    throw error;
  }
  const intent = typeof body === "object" && body !== null ? (body as { intent?: unknown }).intent : undefined;
  if (intent === "update-report") {
    return handleValue(body, reportUpdateAction, ({ id, intent: _, ...input }) => updateReport(db, user, id, input));
  }
  if (intent === "resolve") return handleValue(body, reportIdAction, ({ id }) => resolveReport(db, user, id));
  if (intent === "delete")
    return handleValue(body, bulkIdsSchema, ({ ids }) => eachId(ids, (id) => deleteReport(db, user, id)));
  return refusal(400, "Operazione non riconosciuta.");
}

const reportId = z.number("Segnalazione non valida").int().positive();
const reportUpdateAction = withLabels(reportUpdateSchema.extend({ intent: z.literal("update-report"), id: reportId }), {
  ...labelsOf(reportUpdateSchema),
  intent: "Operazione",
  id: "Segnalazione",
} as never);
const reportIdAction = withLabels(z.object({ intent: z.literal("resolve"), id: reportId }), {
  intent: "Operazione",
  id: "Segnalazione",
});

export default function AdminTab() {
  return <SegnalazioniTab />;
}
