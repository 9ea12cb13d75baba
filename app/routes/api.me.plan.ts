// The student's plan to a sitting (issue 46): GET the plan, its calendar, the forecast's trend and the grades entered
// (/piano's data); PUT {editionId, sittingDate, minutesPerDay, weekdays?} sets it; DELETE removes it. The student's own
// only: no user id is ever read from the request.
import { planInputSchema } from "~/lib/forms/study-plan";
import { api, methods, readJson } from "~/server/api.server";
import { planPage } from "~/server/study-plan-page.server";
import { deletePlan, savePlan } from "~/server/study-plan.server";

export const loader = api({
  access: "user",
  handler: ({ db, user }) => planPage(db, user.id),
});

export const action = methods({
  PUT: api({
    access: "user",
    async handler({ request, db, user }) {
      await savePlan(db, user.id, await readJson(request, planInputSchema));
      return planPage(db, user.id);
    },
  }),
  DELETE: api({
    access: "user",
    async handler({ db, user }) {
      await deletePlan(db, user.id);
      return { ok: true };
    },
  }),
});
