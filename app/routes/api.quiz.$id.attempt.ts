import { submissionSchema, submitQuizAttempt } from "~/server/attempts.server";
import { api, idParam, methods, readJson } from "~/server/api.server";

export const action = methods({
  POST: api({
    access: "user",
    async handler({ db, params, request, user }) {
      const quizId = idParam(params.id, "quiz");
      const body = await readJson(request, submissionSchema);
      return submitQuizAttempt(db, user.id, quizId, body);
    },
  }),
});
