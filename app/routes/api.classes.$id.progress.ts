// GET /api/classes/:id/progress: a class's progress for its teacher (or an admin): accuracy per syllabus unit of the
// default edition over the last 8 weeks, the weakest units, each pupil's trend and forecast band, who is inactive.
// Server-Timing tells how many D1 round trips it took one after the other (the bench reads it; at most 2).
import { getDb } from "~/server/db/client.server";
import { api, idParam } from "~/server/api.server";
import { classProgress } from "~/server/class-progress.server";
import { serverTimingOf, tracedD1 } from "~/server/d1-trace.server";

export const loader = api({
  access: "teacher",
  async handler({ params, env, user }) {
    const classId = idParam(params.id);
    const { d1, trace } = tracedD1(env.DB);
    const progress = await classProgress(getDb(d1), user, classId);
    return Response.json(progress, { headers: { "Server-Timing": serverTimingOf(trace) } });
  },
});
