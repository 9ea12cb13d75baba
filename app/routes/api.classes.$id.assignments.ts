// GET /api/classes/:id/assignments: the assignments (compiti) of a class the caller manages, with done / late /
// not done counts. POST {title, subjectId, count, timer, mode?, units?, opensAt, dueAt} → 201 {id, questionCount}.
import { AssignmentInput } from "~/lib/assignments";
import { api, idParam, methods, readJson } from "~/server/api.server";
import { classAssignments, createAssignment } from "~/server/assignments.server";

export const loader = api({
  access: "teacher",
  handler: ({ params, db, user }) => classAssignments(db, user, idParam(params.id)),
});

export const action = methods({
  POST: api({
    access: "teacher",
    async handler({ request, params, db, user }) {
      const classId = idParam(params.id);
      const input = await readJson(request, AssignmentInput);
      return Response.json(await createAssignment(db, user, classId, input), { status: 201 });
    },
  }),
});
