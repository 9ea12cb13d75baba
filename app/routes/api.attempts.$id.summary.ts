import { api, idParam } from "~/server/api.server";
import { attemptSummary } from "~/server/attempt-reads.server";

export const loader = api({
  access: "user",
  async handler({ db, params, user }) {
    return attemptSummary(db, user, idParam(params.id, "tentativo"));
  },
});
