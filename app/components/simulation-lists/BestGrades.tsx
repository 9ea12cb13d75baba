// The student's best grade per exam over the default edition's official-format simulations (issue 29, point 5):
// as across the two real sittings, the best grade from 18 up counts. Shown on the dashboard.
import type { EditionBestGrades } from "~/server/grades.server";
import { MY_SIM_TEXT as T } from "./texts";

export function BestGrades({ grades }: { grades: EditionBestGrades }) {
  return (
    <section className="happening__card best-grades-card" aria-labelledby="best-grades-title" data-testid="best-grades">
      <h2 id="best-grades-title" className="happening__title">
        {T.bestTitle(grades.edition.academicYear)}
      </h2>
      <p className="small muted">
        {T.bestIntro} ({T.bestCount(grades.simulations)})
      </p>
      <ul className="best-grades">
        {grades.subjects.map((s) => (
          <li
            key={s.subjectId}
            data-testid={`best-grade-${s.subjectId}`}
            data-passed={s.grade?.passed ?? false}
            className="small"
          >
            <strong>{s.name}</strong>:{" "}
            {!s.grade ? (
              <span className="muted">{T.bestNotSat}</span>
            ) : s.grade.passed ? (
              <>
                <strong>{s.grade.label}</strong> · {T.bestPassed}
              </>
            ) : (
              <>
                {T.bestNone} <span className="muted">({T.bestSoFar(s.grade.label)})</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
