import { gradeServedQuiz, submissionSchema } from "~/server/attempts.server";
import { api, methods, readJson } from "~/server/api.server";

export const action = methods({
  POST: api({
    access: "user",
    async handler({ db, request, user }) {
      const body = await readJson(request, submissionSchema);
      const headerKey = request.headers.get("Idempotency-Key");
      return gradeServedQuiz(db, user.id, { ...body, idempotencyKey: body.idempotencyKey ?? (headerKey || undefined) });
    },
  }),
});
