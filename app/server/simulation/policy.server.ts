// What a teacher may put in a live simulation (issues 28 and 44). A teacher's simulation seals its questions for its
// audience while it runs (seal.server.ts), so it reaches only their own pupils (accepted members of the classes they
// own, picked one by one or by class), stays the size of one sitting with short breaks, needs a pupil to start, and a
// teacher runs at most two at once. Admins are not limited. Every door that saves or starts one asks this.
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
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
  breakTooLong: `Come docente puoi inserire pause di al massimo ${LIMITS.breakMinutes} minuti tra le materie.`,
  noPupils:
    "Per avviare la simulazione serve almeno uno studente delle tue classi tra gli abilitati (chi ha accettato il tuo invito o è entrato con il codice).",
  tooManyRunning: `Hai già ${LIMITS.running} simulazioni in corso: potrai avviarne un'altra quando una sarà conclusa.`,
  notYourPupil:
    "Puoi abilitare solo studenti delle tue classi (chi ha accettato il tuo invito o è entrato con il codice).",
} as const;

export type PlannedSimulation = {
  subjects: { timeMin: number; breakAfterMin?: number; questionCount: number }[];
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
  if (plan.subjects.some((s) => (s.breakAfterMin ?? 0) > LIMITS.breakMinutes))
    throw new HttpError(400, TEACHER_SIM_TEXT.breakTooLong);
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

/**
 * Avvia of a teacher's simulation (its seal covers its audience): refused (409) without a pupil in its audience now
 * (picked, or a member of a picked class), or while the teacher already runs LIMITS.running simulations (started,
 * not graded, still sealing at `now`).
 */
export async function assertTeacherMayStart(db: Db, simulationId: string, teacherId: number | null, now: number) {
  const row = await db.get<{ pupils: number; running: number }>(sql`SELECT
      (SELECT count(*) FROM (
        SELECT user_id FROM simulation_allowed_users WHERE simulation_id = ${simulationId}
        UNION SELECT cm.user_id FROM class_members cm
          JOIN simulation_allowed_classes sac ON sac.class_id = cm.class_id WHERE sac.simulation_id = ${simulationId}
      )) AS pupils,
      (SELECT count(*) FROM simulations WHERE created_by = ${teacherId ?? -1} AND id <> ${simulationId}
        AND started = 1 AND graded_at IS NULL AND seal_until >= ${now}) AS running`);
  if (!row?.pupils) throw new HttpError(409, TEACHER_SIM_TEXT.noPupils);
  if (row.running >= LIMITS.running) throw new HttpError(409, TEACHER_SIM_TEXT.tooManyRunning);
}

/** The running limit as a condition of Avvia's own write (two Avvias at once cannot both pass the check above). */
export function runningUnderLimitSql(simulationId: string, teacherId: number | null, now: number): SQL {
  return sql`(SELECT count(*) FROM simulations o WHERE o.created_by = ${teacherId ?? -1} AND o.id <> ${simulationId}
    AND o.started = 1 AND o.graded_at IS NULL AND o.seal_until >= ${now}) < ${LIMITS.running}`;
}
