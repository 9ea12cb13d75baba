import { api, idParam } from "~/server/api.server";
import { getQuiz } from "~/server/quiz.server";

export const loader = api({
  access: "user",
  async handler({ db, params, user }) {
    return getQuiz(db, user.id, idParam(params.id, "quiz"));
  },
});
