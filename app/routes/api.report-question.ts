import { api, methods, readJson } from "~/server/api.server";
import { createReport, reportSchema } from "~/server/reports.server";

export const action = methods({
  POST: api({
    access: "user",
    async handler({ db, request, user }) {
      return createReport(db, user.id, await readJson(request, reportSchema));
    },
  }),
});
