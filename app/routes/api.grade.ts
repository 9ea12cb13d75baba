import { gradeServedQuiz, submissionSchema } from "~/server/attempts.server";
import { api, methods, readJson } from "~/server/api.server";
import { executionCtxOf } from "~/server/context";
import { afterResponse, refreshForecastDay } from "~/server/forecast-days.server";

export const action = methods({
  POST: api({
    access: "user",
    async handler({ db, request, user, context }) {
      const body = await readJson(request, submissionSchema);
      const headerKey = request.headers.get("Idempotency-Key");
      const result = await gradeServedQuiz(db, user.id, {
        ...body,
        idempotencyKey: body.idempotencyKey ?? (headerKey || undefined),
      });
      afterResponse(executionCtxOf(context), () => refreshForecastDay(db, user.id));
      return result;
    },
  }),
});
