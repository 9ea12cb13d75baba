// What a teacher may put in a live simulation (issue 28). A simulation seals its questions for its audience while it
// runs, so a teacher's reaches only their own pupils (accepted members of the classes they own, picked one by one or
// by class) and stays the size of one sitting. Admins are not limited. Every door that saves or starts one asks this.
import { and, eq, inArray } from "drizzle-orm";
import { TEACHER_SIMULATION_LIMITS as LIMITS } from "~/lib/constants";
import { chunk } from "~/lib/chunk";
import type { Db } from "../db/client.server";
import { classes, classMembers } from "../db/schema";
import { HttpError } from "../errors.server";
import type { SessionUser } from "../session.server";

export const TEACHER_SIM_TEXT = {
  tooManySubjects: `Come docente puoi inserire al massimo ${LIMITS.subjects} materie in una simulazione.`,
  tooManyQuestions: `Come docente puoi assegnare al massimo ${LIMITS.questionsPerSubject} domande per materia.`,
  tooLong: `Come docente puoi dare al massimo ${LIMITS.minutesPerSubject} minuti per materia.`,
  notYourPupil:
    "Puoi abilitare solo studenti delle tue classi (chi ha accettato il tuo invito o è entrato con il codice).",
} as const;

export type PlannedSimulation = {
  subjects: { timeMin: number; questionCount: number }[];
  allowedUsers: readonly number[];
};

/** Refuses (400 for the size, 403 for someone outside the teacher's classes) before anything is written. */
export async function checkTeacherSimulation(
  db: Db,
  user: Pick<SessionUser, "id" | "effectiveRole">,
  plan: PlannedSimulation,
): Promise<void> {
  if (user.effectiveRole === "admin") return;
  if (plan.subjects.length > LIMITS.subjects) throw new HttpError(400, TEACHER_SIM_TEXT.tooManySubjects);
  if (plan.subjects.some((s) => s.questionCount > LIMITS.questionsPerSubject))
    throw new HttpError(400, TEACHER_SIM_TEXT.tooManyQuestions);
  if (plan.subjects.some((s) => s.timeMin > LIMITS.minutesPerSubject))
    throw new HttpError(400, TEACHER_SIM_TEXT.tooLong);
  const ids = [...new Set(plan.allowedUsers)];
  let pupils = 0;
  // D1 binds at most 100 values per statement.
  for (const part of chunk(ids, 90)) {
    const rows = await db
      .selectDistinct({ userId: classMembers.userId })
      .from(classMembers)
      .innerJoin(classes, eq(classes.id, classMembers.classId))
      .where(and(eq(classes.ownerId, user.id), inArray(classMembers.userId, part)))
      .all();
    pupils += rows.length;
  }
  if (pupils !== ids.length) throw new HttpError(403, TEACHER_SIM_TEXT.notYourPupil);
}
