// /admin/classi/:id/progressi: a class's progress for its teacher (or an admin), the same service as
// GET /api/classes/:id/progress: someone else's class is a 403, an unknown one a 404.
import { ClassProgressView } from "~/components/classes/ClassProgress";
import { adminTabUser } from "~/server/admin/tab-guard.server";
import { idParam } from "~/server/api.server";
import { classProgress } from "~/server/class-progress.server";
import { dbOf } from "~/server/context";
import { HttpError } from "~/server/errors.server";
import { data } from "react-router";
import type { Route } from "./+types/admin.classi.$id.progressi";

export async function loader(args: Route.LoaderArgs) {
  const user = await adminTabUser(args, "classi");
  try {
    return { progress: await classProgress(dbOf(args.context), user, idParam(args.params.id, "classe")) };
  } catch (error) {
    // Someone else's class (403) or none (404): the error boundary says so in Italian.
    if (error instanceof HttpError) throw data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function ClassProgressPage({ loaderData }: Route.ComponentProps) {
  return <ClassProgressView progress={loaderData.progress} />;
}
