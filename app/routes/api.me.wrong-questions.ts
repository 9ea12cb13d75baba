import { api } from "~/server/api.server";
import { listWrongQuestions } from "~/server/review.server";

export const loader = api({
  access: "user",
  async handler({ db, user }) {
    return { items: await listWrongQuestions(db, user.id), now: new Date().toISOString() };
  },
});
