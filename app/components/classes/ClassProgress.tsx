/** A class's progress for its teacher (issue 32, point 2): accuracy per unit, weakest units, pupils' trends and forecasts, who is inactive. */
import { Group } from "@visx/group";
import { scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { Link } from "react-router";
import { ChartFrame } from "~/components/charts/ChartFrame";
import { formatNumber, TableWrap } from "~/components/admin/admin-shared";
import { truncateLabel } from "~/lib/analytics";
import { WEAK_TOPIC_THRESHOLD } from "~/lib/constants";
import type { ClassProgress, PupilProgress } from "~/server/class-progress.server";
import { PROGRESS_UI as T } from "./progress-texts";
import "~/styles/admin-classes.css";

const pct = (x: number | null) => (x == null ? null : Math.round(x * 100));
const BAR = 12;
const ROW = 38;
const MARGIN = { top: 4, right: 48, bottom: 4, left: 4 };

function UnitBars({ units }: { units: ClassProgress["units"] }) {
  const height = MARGIN.top + MARGIN.bottom + units.length * ROW;
  const answered = units.filter((u) => u.answered > 0).length;
  return (
    <ChartFrame
      title={T.unitsTitle}
      summary={T.unitsSummary(answered, answered)}
      height={height}
      testId="class-progress-units"
    >
      {(width) => {
        const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
        const x = scaleLinear({ domain: [0, 100], range: [0, innerW] });
        return (
          <Group left={MARGIN.left} top={MARGIN.top}>
            {units.map((u, i) => {
              const value = pct(u.accuracy);
              const w = value == null ? 0 : Math.max(2, x(value));
              const weak = value != null && value < WEAK_TOPIC_THRESHOLD * 100;
              return (
                <g key={`${u.subjectId}:${u.unit}`} transform={`translate(0, ${i * ROW})`} data-unit={u.unit}>
                  <text y={12} fill="#e6e7ea" fontSize={12}>
                    {truncateLabel(`${u.subject} U${u.unit} · ${u.title}`, 44)}
                  </text>
                  <Bar x={0} y={17} width={innerW} height={BAR} rx={3} fill="#262a31" />
                  <Bar x={0} y={17} width={w} height={BAR} rx={3} fill={weak ? "#f07178" : "#5b8def"} />
                  <text x={w + 4} y={17 + BAR - 1} fill="#c5c8cf" fontSize={11}>
                    {value == null ? "—" : `${value}%`}
                  </text>
                </g>
              );
            })}
          </Group>
        );
      }}
    </ChartFrame>
  );
}

function Sparkline({ pupil }: { pupil: PupilProgress }) {
  const width = 96;
  const height = 28;
  const points = pupil.trend.weekly.map((v, i) => ({ i, v })).filter((p): p is { i: number; v: number } => p.v != null);
  const x = scaleLinear({ domain: [0, pupil.trend.weekly.length - 1], range: [3, width - 3] });
  const y = scaleLinear({ domain: [0, 1], range: [height - 3, 3] });
  return (
    <svg width={width} height={height} role="img" aria-label={T.sparkLabel(pupil.name)}>
      <title>{T.sparkLabel(pupil.name)}</title>
      <LinePath data={points} x={(p) => x(p.i)} y={(p) => y(p.v)} stroke="#5b8def" strokeWidth={2} />
      {points.map((p) => (
        <circle key={p.i} cx={x(p.i)} cy={y(p.v)} r={2} fill="#5b8def" />
      ))}
    </svg>
  );
}

function Trend({ pupil }: { pupil: PupilProgress }) {
  const { direction, deltaPp } = pupil.trend;
  return (
    <span className="class-progress__trend">
      <Sparkline pupil={pupil} />
      <span data-testid={`trend-${pupil.userId}`}>
        {direction ? `${T.trend[direction]} (${T.trendDelta(deltaPp ?? 0)})` : T.trendNone}
      </span>
    </span>
  );
}

export function ClassProgressView({ progress }: { progress: ClassProgress }) {
  return (
    <div className="class-progress" data-testid="class-progress">
      <p>
        <Link to="/admin/classi">{T.back}</Link>
      </p>
      <h2>{T.title(progress.name)}</h2>
      <p className="muted">{T.period(progress.weeks, progress.pupils.length, progress.edition.label)}</p>

      <section aria-labelledby="class-progress-weakest">
        <h3 id="class-progress-weakest">{T.weakestTitle}</h3>
        {progress.weakest.length ? (
          <ol data-testid="class-progress-weakest">
            {progress.weakest.map((u) => (
              <li key={`${u.subjectId}:${u.unit}`}>
                {u.subject} U{u.unit} · {u.title}: <strong>{T.unitAnswers(u.answered, pct(u.accuracy) ?? 0)}</strong>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">{T.noWeakest}</p>
        )}
      </section>

      <section aria-labelledby="class-progress-units-title">
        <h3 id="class-progress-units-title">{T.unitsTitle}</h3>
        <UnitBars units={progress.units} />
      </section>

      <section aria-labelledby="class-progress-pupils">
        <h3 id="class-progress-pupils">{T.pupilsTitle}</h3>
        {!progress.pupils.length ? (
          <p className="muted">{T.noPupils}</p>
        ) : (
          <TableWrap label={T.pupilsTitle}>
            <table className="adm-table">
              <thead>
                <tr>
                  <th scope="col">{T.colPupil}</th>
                  <th scope="col">{T.colAnswers}</th>
                  <th scope="col">{T.colAccuracy}</th>
                  <th scope="col">{T.colTrend}</th>
                  <th scope="col">{T.colForecast}</th>
                  <th scope="col">{T.colLast}</th>
                </tr>
              </thead>
              <tbody>
                {progress.pupils.map((p) => (
                  <tr key={p.userId} data-testid={`pupil-${p.userId}`}>
                    <td>{p.name}</td>
                    <td>{p.answered}</td>
                    <td>{p.accuracy == null ? "—" : `${pct(p.accuracy)}%`}</td>
                    <td>
                      <Trend pupil={p} />
                    </td>
                    <td>
                      <ul className="class-progress__forecast">
                        {p.forecast.map((f) => (
                          <li key={f.subjectId}>
                            {f.name}:{" "}
                            {f.predicted == null
                              ? T.forecastNone
                              : `${formatNumber(f.predicted)} (${formatNumber(f.low)}–${formatNumber(f.high)})`}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>{p.inactiveDays == null ? T.lastNever : T.lastDays(p.inactiveDays)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>

      <section aria-labelledby="class-progress-inactive">
        <h3 id="class-progress-inactive">{T.inactiveTitle}</h3>
        {progress.inactive.length ? (
          <ul data-testid="class-progress-inactive">
            {progress.inactive.map((p) => (
              <li key={p.userId}>
                {p.name} — {p.inactiveDays == null ? T.inactiveNever : T.inactiveDays(p.inactiveDays)}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{T.noInactive}</p>
        )}
      </section>
    </div>
  );
}
