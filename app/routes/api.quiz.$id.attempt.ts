import { submissionSchema, submitQuizAttempt } from "~/server/attempts.server";
import { api, idParam, methods, readJson } from "~/server/api.server";
import { executionCtxOf } from "~/server/context";
import { afterResponse, refreshForecastDay } from "~/server/forecast-days.server";

export const action = methods({
  POST: api({
    access: "user",
    async handler({ db, params, request, user, context }) {
      const quizId = idParam(params.id, "quiz");
      const body = await readJson(request, submissionSchema);
      const result = await submitQuizAttempt(db, user.id, quizId, body);
      afterResponse(executionCtxOf(context), () => refreshForecastDay(db, user.id));
      return result;
    },
  }),
});
