// Admin console tab 'Analytics': summary, top users, 'Utenti con almeno N quiz', attempts and logins per day.
import { useMemo, useState } from "react";
import type { ExamCalibration } from "~/server/forecast-days.server";
import { AdminLineChart } from "./AdminLineChart";
import { ForecastCalibration } from "./ForecastCalibration";
import { formatNumber, formatSeconds, TableWrap } from "./admin-shared";

export type Analytics = {
  userCount: number;
  attempts: number;
  avgScore: number;
  avgTimeAttempt: number;
  avgTimeQuestion: number;
  avgAttemptsPerUser: number;
  topUsers: { userId: number; name: string; attempts: number; avgScore: number; avgTimeQuestion: number }[];
  attemptsDistribution: { attempts: number; users: number }[];
  attemptsPerDay: { date: string; count: number }[];
  loginsPerDay: { date: string; existing: number; new: number }[];
  unitAccuracy?: {
    subjectId: number;
    subject: string;
    unit: number;
    title: string;
    credits: number;
    answered: number;
    correct: number;
    accuracy: number | null;
  }[];
  calibration?: ExamCalibration[];
};

const DEFAULT_MIN_QUIZ = 5;
const shortDay = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}`;

/** `data`: the tab loader's figures (/admin/analytics), the same as GET /api/admin/analytics. */
export function AnalyticsTab({ data }: { data: Analytics }) {
  const [minQuiz, setMinQuiz] = useState(DEFAULT_MIN_QUIZ);
  const maxAttempts = Math.max(DEFAULT_MIN_QUIZ, ...(data.attemptsDistribution.map((d) => d.attempts) ?? [0]));
  // Users with at least N quizzes for every N from 1 to the maximum.
  const atLeast = useMemo(() => {
    const out: number[] = [];
    for (let n = 1; n <= maxAttempts; n++)
      out.push(data.attemptsDistribution.filter((d) => d.attempts >= n).reduce((s, d) => s + d.users, 0) ?? 0);
    return out;
  }, [data, maxAttempts]);

  const usersAtLeast = atLeast[minQuiz - 1] ?? 0;

  return (
    <div className="adm-grid">
      <div className="adm-grid adm-grid--2">
        <section className="adm-card" aria-labelledby="an-summary">
          <h2 id="an-summary">Riepilogo</h2>
          <table className="adm-table">
            <tbody>
              <tr>
                <th scope="row">Utenti unici</th>
                <td className="num">{data.userCount}</td>
              </tr>
              <tr>
                <th scope="row">Tentativi totali</th>
                <td className="num">{data.attempts}</td>
              </tr>
              <tr>
                <th scope="row">Punteggio medio</th>
                <td className="num">{formatNumber(data.avgScore)}%</td>
              </tr>
              <tr>
                <th scope="row">Tempo medio per tentativo</th>
                <td className="num">{formatSeconds(data.avgTimeAttempt)}</td>
              </tr>
              <tr>
                <th scope="row">Tempo medio per domanda</th>
                <td className="num">{formatSeconds(data.avgTimeQuestion)}</td>
              </tr>
              <tr>
                <th scope="row">Tentativi per utente</th>
                <td className="num">{formatNumber(data.avgAttemptsPerUser)}</td>
              </tr>
            </tbody>
          </table>
        </section>
        <section className="adm-card" aria-labelledby="an-top">
          <h2 id="an-top">Utenti più attivi</h2>
          <TableWrap label="Tabella utenti più attivi">
            <table className="adm-table">
              <thead>
                <tr>
                  <th>Utente</th>
                  <th className="num">Tentativi</th>
                  <th className="num">Punteggio medio</th>
                  <th className="num">Tempo per domanda</th>
                </tr>
              </thead>
              <tbody>
                {data.topUsers.map((u) => (
                  <tr key={u.userId}>
                    <td>{u.name}</td>
                    <td className="num">{u.attempts}</td>
                    <td className="num">{formatNumber(u.avgScore)}/31</td>
                    <td className="num">{formatSeconds(u.avgTimeQuestion)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </section>
      </div>

      {data.unitAccuracy?.length ? (
        <section className="adm-card" aria-labelledby="an-units">
          <h2 id="an-units">Accuratezza per unità del syllabus</h2>
          <TableWrap label="Tabella accuratezza per unità">
            <table className="adm-table">
              <thead>
                <tr>
                  <th>Materia</th>
                  <th>Unità</th>
                  <th className="num">CFU</th>
                  <th className="num">Risposte</th>
                  <th className="num">Corrette</th>
                </tr>
              </thead>
              <tbody>
                {data.unitAccuracy.map((u) => (
                  <tr key={`${u.subjectId}-${u.unit}`}>
                    <td>{u.subject}</td>
                    <td>
                      U{u.unit} · {u.title}
                    </td>
                    <td className="num">{formatNumber(u.credits)}</td>
                    <td className="num">{u.answered}</td>
                    <td className="num">{u.accuracy == null ? "—" : `${formatNumber(u.accuracy)}%`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </section>
      ) : null}

      {data.calibration ? <ForecastCalibration rows={data.calibration} /> : null}

      <section className="adm-card" aria-labelledby="an-min">
        <h2 id="an-min">
          Utenti con almeno {minQuiz} quiz: {usersAtLeast}
        </h2>
        <label className="adm-field">
          <span>Utenti con almeno N quiz</span>
          <input
            type="range"
            min={1}
            max={maxAttempts}
            value={minQuiz}
            onChange={(e) => setMinQuiz(Number(e.target.value))}
            aria-valuetext={`${minQuiz} quiz: ${usersAtLeast} utenti`}
          />
        </label>
        <AdminLineChart
          xLabels={atLeast.map((_, i) => String(i + 1))}
          series={[{ label: "Utenti", color: "var(--accent)", values: atLeast }]}
          highlight={minQuiz - 1}
          ariaLabel={`Utenti con almeno N quiz, da 1 a ${maxAttempts}: con almeno ${minQuiz} quiz sono ${usersAtLeast}`}
        />
      </section>

      <div className="adm-grid adm-grid--2">
        <section className="adm-card" aria-labelledby="an-days">
          <h2 id="an-days">Tentativi al giorno</h2>
          <AdminLineChart
            xLabels={data.attemptsPerDay.map((d) => shortDay(d.date))}
            series={[{ label: "Tentativi", color: "var(--accent)", values: data.attemptsPerDay.map((d) => d.count) }]}
            ariaLabel={`Tentativi al giorno negli ultimi ${data.attemptsPerDay.length} giorni: in totale ${data.attemptsPerDay.reduce((s, d) => s + d.count, 0)}`}
          />
        </section>
        <section className="adm-card" aria-labelledby="an-logins">
          <h2 id="an-logins">Accessi al giorno</h2>
          <p className="adm-legend">
            <span>
              <i style={{ background: "var(--peer)" }} />
              Utenti esistenti
            </span>
            <span>
              <i style={{ background: "var(--accent)" }} />
              Nuovi utenti
            </span>
          </p>
          <AdminLineChart
            xLabels={data.loginsPerDay.map((d) => shortDay(d.date))}
            series={[
              { label: "Utenti esistenti", color: "var(--peer)", values: data.loginsPerDay.map((d) => d.existing) },
              { label: "Nuovi utenti", color: "var(--accent)", values: data.loginsPerDay.map((d) => d.new) },
            ]}
            ariaLabel={`Accessi al giorno: ${data.loginsPerDay.reduce((s, d) => s + d.existing, 0)} di utenti esistenti e ${data.loginsPerDay.reduce((s, d) => s + d.new, 0)} di nuovi utenti`}
          />
        </section>
      </div>
    </div>
  );
}
