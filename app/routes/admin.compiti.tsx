// /admin/compiti: the console's Compiti tab (teachers and admins, issue 32). ?classe=ID picks one of the classes the
// user manages (the first by default), ?compito=ID opens an assignment's report (per pupil, per question, CSV). The
// tab's writes post here (JSON with an intent) through the same services, schemas and ownership rules as
// /api/classes/:id/assignments and /api/assignments/:id.
import { z } from "zod";
import { CompitiTab } from "~/components/admin/CompitiTab";
import { AssignmentInput } from "~/lib/assignments";
import { withLabels, withParentLabels } from "~/lib/validation";
import { adminTabUser } from "~/server/admin/tab-guard.server";
import {
  assignmentReport,
  classAssignments,
  createAssignment,
  deleteAssignment,
  editionTimerSeconds,
  updateAssignmentDates,
} from "~/server/assignments.server";
import { managedClasses } from "~/server/classes.server";
import { dbOf } from "~/server/context";
import { defaultEdition } from "~/server/editions.server";
import { handleIntent, handleValue } from "~/server/form.server";
import { listSubjects } from "~/server/quiz.server";
import type { Route } from "./+types/admin.compiti";

export async function loader(args: Route.LoaderArgs) {
  const user = await adminTabUser(args, "compiti");
  const db = dbOf(args.context);
  const now = Date.now();
  const url = new URL(args.request.url);
  const [classes, subjectRows, edition] = await Promise.all([
    managedClasses(db, user),
    listSubjects(db),
    defaultEdition(db).catch(() => null),
  ]);
  const asked = Number(url.searchParams.get("classe"));
  const classId = classes.find((c) => c.id === asked)?.id ?? classes[0]?.id ?? null;
  const list = classId ? await classAssignments(db, user, classId) : [];
  const openId = Number(url.searchParams.get("compito"));
  // Only an assignment of the chosen class opens (someone else's: nothing).
  const report = list.some((a) => a.id === openId) ? await assignmentReport(db, user, openId, now) : null;
  const subjects = subjectRows.map((s) => ({
    id: s.id,
    name: s.name,
    units: (edition?.format.units ?? [])
      .filter((u) => u.subjectId === s.id)
      .map((u) => ({ number: u.number, title: u.title })),
    /** Seconds per question of the edition's timer (null: the edition does not examine it). */
    secPerQuestion: edition ? editionTimerSeconds(edition, s.id, 1) : null,
  }));
  return {
    now,
    classes: classes.map((c) => ({ id: c.id, name: c.name, memberCount: c.memberCount })),
    classId,
    subjects,
    assignments: list,
    report,
  };
}

const assignmentId = z.number("Compito non valido").int().positive();
const oneAssignment = withLabels(z.object({ intent: z.string(), assignmentId }), {
  intent: "Operazione",
  assignmentId: "Compito",
});
const create = withParentLabels(
  AssignmentInput.and(z.object({ intent: z.string(), classId: z.number("Classe non valida").int().positive() })),
  AssignmentInput,
  { intent: "Operazione", classId: "Classe" },
);

export async function action(args: Route.ActionArgs) {
  const user = await adminTabUser(args, "compiti");
  const db = dbOf(args.context);
  return handleIntent(args.request, {
    create: (body) => handleValue(body, create, ({ classId, ...input }) => createAssignment(db, user, classId, input)),
    "close-now": (body) =>
      handleValue(body, oneAssignment, ({ assignmentId }) =>
        updateAssignmentDates(db, user, assignmentId, { dueNow: true }),
      ),
    delete: (body) => handleValue(body, oneAssignment, ({ assignmentId }) => deleteAssignment(db, user, assignmentId)),
  });
}

export default function AdminTab({ loaderData }: Route.ComponentProps) {
  return <CompitiTab {...loaderData} />;
}
