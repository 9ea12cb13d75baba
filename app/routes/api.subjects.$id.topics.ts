import { api, idParam } from "~/server/api.server";
import { listTopics } from "~/server/quiz.server";

export const loader = api({
  access: "user",
  async handler({ db, params }) {
    const topics = await listTopics(db, idParam(params.id, "materia"));
    return topics.map((t) => ({ id: t.id, name: t.name }));
  },
});
