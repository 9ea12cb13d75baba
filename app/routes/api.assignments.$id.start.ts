// POST /api/assignments/:id/start: a member of the class starts (or resumes) the assignment → {quizId, attemptId,
// completed}. The quiz is practice's: GET /api/quiz/:id serves it without keys, POST /api/quiz/:id/attempt grades it.
import { api, idParam, methods } from "~/server/api.server";
import { startAssignment } from "~/server/assignments.server";

export const action = methods({
  POST: api({
    access: "user",
    handler: ({ params, db, user }) => startAssignment(db, user, idParam(params.id)),
  }),
});
