/** 'Risultati per classe' of a finished simulation: ranking, averages per subject, distribution, absentees, CSV. */
import { CLASS_UI as T } from "~/components/classes/texts";
import { rankScoreText } from "~/lib/rank-key";
import { Modal } from "~/components/ui/Modal";
import { classResultsCsv, type ClassResult } from "~/lib/class-results";
import { downloadCsv } from "~/lib/csv";
import { formatNumber, formatSeconds, TableWrap } from "./admin-shared";
import "~/styles/admin-classes.css";

function csvName(title: string, cls: string) {
  const slug = (text: string) =>
    text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
  return `risultati-${slug(title) || "simulazione"}-${slug(cls) || "classe"}.csv`;
}

/** `classes`: the results of a finished simulation, from the Simulazioni tab's loader (?risultati=ID). */
export function ClassResultsDialog({
  title,
  classes,
  onClose,
}: {
  title: string;
  classes: ClassResult[];
  onClose: () => void;
}) {
  return (
    <Modal title={T.resultsTitle(title)} onClose={onClose} maxWidth={900}>
      {!classes.length ? (
        <p className="muted">{T.noClassesInSim}</p>
      ) : (
        classes.map((c) => <ClassBlock key={c.classId} result={c} title={title} />)
      )}
    </Modal>
  );
}

function ClassBlock({ result, title }: { result: ClassResult; title: string }) {
  const max = Math.max(1, ...result.distribution.map((d) => d.count));
  // Grades out of 30 for a simulation of an exam edition (its template), issue 29.
  const graded = result.ranking.some((r) => r.subjects.some((s) => s.grade));
  return (
    <section className="adm-classes__dialog" aria-label={result.name} data-testid={`class-results-${result.classId}`}>
      <h3>{result.name}</h3>
      <p className="muted">{T.participants(result.participants, result.members)}</p>
      <div>
        <button
          type="button"
          className="btn"
          onClick={() => downloadCsv(csvName(title, result.name), classResultsCsv(result))}
        >
          {T.exportCsv}
        </button>
      </div>
      <h4>{T.ranking}</h4>
      <TableWrap label={`${T.ranking} ${result.name}`}>
        <table className="adm-table">
          <thead>
            <tr>
              <th scope="col">{T.colPos}</th>
              <th scope="col">{T.colStudent}</th>
              <th scope="col">{T.colScore}</th>
              <th scope="col">{T.colPerc}</th>
              <th scope="col">{T.colTime}</th>
              {graded ? <th scope="col">{T.colGrades}</th> : null}
            </tr>
          </thead>
          <tbody>
            {result.ranking.map((r) => (
              <tr key={r.userId}>
                <td>#{r.pos}</td>
                <td>{r.name}</td>
                <td>{rankScoreText(r)}</td>
                <td>{r.perc}%</td>
                <td>{formatSeconds(r.timeSec)}</td>
                {graded ? (
                  <td data-testid="class-grades">
                    {r.subjects.map((s) => `${s.name} ${s.grade?.text ?? "—"}`).join(" · ")}
                    {r.passed != null ? (
                      <span className="muted"> ({T.passedOf(r.passed, r.subjects.length)})</span>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h4>{T.averages}</h4>
      <TableWrap label={`${T.averages} ${result.name}`}>
        <table className="adm-table">
          <thead>
            <tr>
              <th scope="col">{T.colSubject}</th>
              <th scope="col">{T.colAverage}</th>
            </tr>
          </thead>
          <tbody>
            {result.subjectAverages.map((s) => (
              <tr key={s.subjectId}>
                <td>{s.name}</td>
                <td>{formatNumber(s.average)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h4>{T.distribution}</h4>
      <div className="adm-classes__bars">
        {result.distribution.map((d) => (
          <div key={d.label} className="adm-classes__bar">
            <span>{d.label}</span>
            <span aria-hidden="true" style={{ width: `${(d.count / max) * 100}%` }} />
            <span>{d.count}</span>
          </div>
        ))}
      </div>
      <h4>{T.absent}</h4>
      {result.absent.length === 0 ? (
        <p className="muted">{T.noAbsent}</p>
      ) : (
        <ul>
          {result.absent.map((a) => (
            <li key={a.userId}>
              {a.name} <span className="muted">· {a.email}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
