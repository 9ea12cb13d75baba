// Grades out of 30 across a student's official-format simulations (issue 29, point 5): as across the two real
// sittings of an edition, the best passing grade of each exam counts. Official format = a simulation made from the
// edition's template (simulations.edition_id), graded. The pure rule is bestGrades in app/lib/simulation-day.ts.
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { type BestGrade, bestGrades } from "~/lib/simulation-day";
import type { Db } from "./db/client.server";
import { simulationAttempts, simulations } from "./db/schema";
import { defaultEdition } from "./editions.server";

export type EditionBestGrades = {
  edition: { id: number; label: string; academicYear: string };
  /** Graded official-format simulations of the edition the student sat. */
  simulations: number;
  subjects: BestGrade[];
};

/** The student's best grade per exam over the default edition's simulations, or null when they sat none. */
export async function bestSimulationGrades(db: Db, userId: number): Promise<EditionBestGrades | null> {
  // The edition and the student's graded simulations are read side by side (one round trip on the dashboard):
  // a student sits a handful of simulations, so the edition's are picked here.
  const [edition, all] = await Promise.all([
    defaultEdition(db).catch(() => null),
    db
      .select({ subjects: simulationAttempts.subjectsResult, editionId: simulations.editionId })
      .from(simulationAttempts)
      .innerJoin(simulations, eq(simulations.id, simulationAttempts.simulationId))
      .where(and(eq(simulationAttempts.userId, userId), isNotNull(simulations.gradedAt)))
      .orderBy(desc(simulationAttempts.createdAt))
      .all(),
  ]);
  if (!edition) return null;
  const rows = all.filter((r) => r.editionId === edition.id);
  if (!rows.length) return null;
  return {
    edition: { id: edition.id, label: edition.label, academicYear: edition.academicYear },
    simulations: rows.length,
    subjects: bestGrades(edition, rows),
  };
}
