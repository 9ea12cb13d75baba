// The console's analytics: the forecast against the real grades (issue 46, point 4). Per exam, the cases (students
// who entered a grade and had a forecast in the week before the sitting), the Brier score against the base rate's,
// and the reliability table by tenths of the forecast: a calibrated forecast passes about as many as it predicts.
import type { ExamCalibration } from "~/server/forecast-days.server";
import { formatNumber, TableWrap } from "./admin-shared";

const pct = (x: number | null) => (x == null ? "—" : `${formatNumber(Math.round(x * 1000) / 10)}%`);
const score = (x: number | null) => (x == null ? "—" : formatNumber(x, 3));

export function ForecastCalibration({ rows }: { rows: ExamCalibration[] }) {
  const any = rows.some((r) => r.cases > 0);
  return (
    <section className="adm-card" aria-labelledby="an-calibration">
      <h2 id="an-calibration">Previsione e voti reali</h2>
      <p className="muted">
        Per ogni esame: la probabilità di superarlo prevista il giorno prima dell'appello (l'ultima della settimana
        precedente) confrontata con il voto inserito dallo studente. Brier 0 è perfetto; il riferimento è il Brier di
        chi prevede sempre la quota di promossi.
      </p>
      {!any ? (
        <p>Nessun voto reale con una previsione della settimana prima, per ora.</p>
      ) : (
        rows.map((r) => (
          <div key={r.subjectId} className="adm-calibration">
            <h3>
              {r.name}: {r.cases} casi, Brier {score(r.brier)} (riferimento {score(r.baseBrier)})
            </h3>
            <TableWrap label={`Affidabilità della previsione, ${r.name}`}>
              <table className="adm-table">
                <thead>
                  <tr>
                    <th>Previsione</th>
                    <th className="num">Casi</th>
                    <th className="num">Prevista in media</th>
                    <th className="num">Superato davvero</th>
                  </tr>
                </thead>
                <tbody>
                  {r.bins.map((b) => (
                    <tr key={b.tenth}>
                      <td>
                        {b.tenth * 10}–{b.tenth * 10 + 10}%
                      </td>
                      <td className="num">{b.cases}</td>
                      <td className="num">{pct(b.meanForecast)}</td>
                      <td className="num">{pct(b.passedShare)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </div>
        ))
      )}
    </section>
  );
}
