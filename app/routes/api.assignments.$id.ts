// GET /api/assignments/:id: the teacher's report (per pupil, per question) of an assignment of their class.
// PATCH {opensAt?, dueAt?, dueNow?}: new dates ("dueNow": the due date becomes now). DELETE: removes it.
// Another teacher's: 403; unknown: 404.
import { AssignmentDatesInput } from "~/lib/assignments";
import { api, idParam, methods, readJson } from "~/server/api.server";
import { assignmentReport, deleteAssignment, updateAssignmentDates } from "~/server/assignments.server";

export const loader = api({
  access: "teacher",
  handler: ({ params, db, user }) => assignmentReport(db, user, idParam(params.id)),
});

export const action = methods({
  PATCH: api({
    access: "teacher",
    async handler({ request, params, db, user }) {
      const id = idParam(params.id);
      return updateAssignmentDates(db, user, id, await readJson(request, AssignmentDatesInput));
    },
  }),
  DELETE: api({
    access: "teacher",
    handler: ({ params, db, user }) => deleteAssignment(db, user, idParam(params.id)),
  }),
});
