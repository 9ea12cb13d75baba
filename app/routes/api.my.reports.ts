import { api } from "~/server/api.server";
import { listMyReports } from "~/server/reports.server";

export const loader = api({
  access: "user",
  async handler({ db, user }) {
    return { reports: await listMyReports(db, user.id) };
  },
});
