import { api } from "~/server/api.server";
import { listSubjects } from "~/server/quiz.server";

export const loader = api({
  access: "user",
  async handler({ db }) {
    return listSubjects(db);
  },
});
