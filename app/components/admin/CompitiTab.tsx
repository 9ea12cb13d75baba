/** Admin console tab 'Compiti' (teachers and admins, issue 32): assign a practice set to a class, follow who did it. */
import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import { useToast } from "~/components/ui/Toast";
import { ApiError } from "~/lib/api-client";
import {
  ASSIGNMENT_TEXT as T,
  ASSIGNMENT_TITLE_MAX,
  type AssignmentReport,
  type AssignmentStatus,
  assignmentCsv,
  assignmentCsvName,
} from "~/lib/assignments";
import { MAX_QUESTIONS, MIN_QUESTIONS } from "~/lib/constants";
import { downloadCsv } from "~/lib/csv";
import { RefusedError, succeeded } from "~/lib/forms";
import { formatRomeDateTime, toRomeInputValue } from "~/lib/rush";
import { useFormAction } from "~/lib/use-form-action";
import type { ClassAssignment } from "~/server/assignments.server";
import { ErrorText, formatNumber, formatSeconds, TableWrap } from "./admin-shared";
import "~/styles/admin-classes.css";
import "~/styles/assignments.css";

const DAY = 86_400_000;

type SubjectChoice = {
  id: number;
  name: string;
  units: { number: number; title: string }[];
  secPerQuestion: number | null;
};

export function CompitiTab({
  now,
  classes,
  classId,
  subjects,
  assignments,
  report,
}: {
  now: number;
  classes: { id: number; name: string; memberCount: number }[];
  classId: number | null;
  subjects: SubjectChoice[];
  assignments: ClassAssignment[];
  report: AssignmentReport | null;
}) {
  const [, setParams] = useSearchParams();
  const go = (params: Record<string, string>) => setParams(params, { preventScrollReset: true });
  const selectId = useId();
  if (!classes.length || classId == null) {
    return (
      <div className="adm-classes">
        <h2>{T.tabTitle}</h2>
        <p className="muted">{T.noClasses}</p>
      </div>
    );
  }
  return (
    <div className="adm-classes">
      <h2>{T.tabTitle}</h2>
      <p className="muted">{T.tabIntro}</p>
      <label htmlFor={selectId}>{T.fieldClass}</label>{" "}
      <select
        id={selectId}
        className="input"
        value={classId}
        onChange={(e) => go({ classe: e.target.value })}
        style={{ maxWidth: "20rem" }}
      >
        {classes.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.memberCount})
          </option>
        ))}
      </select>
      <NewAssignment
        key={classId}
        classId={classId}
        now={now}
        subjects={subjects}
        onCreated={(id) => go({ classe: String(classId), compito: String(id) })}
      />
      <h3>{T.list}</h3>
      {assignments.length === 0 ? (
        <p className="muted">{T.noAssignments}</p>
      ) : (
        <TableWrap label={T.list}>
          <table className="adm-table">
            <thead>
              <tr>
                <th scope="col">{T.fieldTitle}</th>
                <th scope="col">{T.fieldSubject}</th>
                <th scope="col">{T.fieldOpens}</th>
                <th scope="col">{T.fieldDue}</th>
                <th scope="col">{T.colStatus}</th>
                <th scope="col">
                  <span className="sr-only">{T.open}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {assignments.map((a) => (
                <tr key={a.id} data-testid={`assignment-row-${a.id}`}>
                  <td>{a.title}</td>
                  <td>
                    {a.subjectName} · {T.questions(a.questionCount)}
                    {a.mode === "mirato" ? ` · ${T.targeted}` : ""}
                  </td>
                  <td>{formatRomeDateTime(a.opensAt)}</td>
                  <td>{formatRomeDateTime(a.dueAt)}</td>
                  <td>{T.counts(a.counts.fatto, a.counts.in_ritardo, a.counts.non_fatto)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn"
                      aria-label={`${T.open} ${a.title}`}
                      onClick={() => go({ classe: String(classId), compito: String(a.id) })}
                    >
                      {T.open}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {report ? (
        <Report key={report.assignment.id} report={report} onDeleted={() => go({ classe: String(classId) })} />
      ) : null}
    </div>
  );
}

function NewAssignment({
  classId,
  now,
  subjects,
  onCreated,
}: {
  classId: number;
  now: number;
  subjects: SubjectChoice[];
  onCreated: (id: number) => void;
}) {
  const toast = useToast();
  const write = useFormAction<{ id: number }>("/admin/compiti").call;
  const ids = { title: useId(), subject: useId(), count: useId(), opens: useId(), due: useId() };
  const [title, setTitle] = useState("");
  const [subjectId, setSubjectId] = useState<number>(subjects[0]?.id ?? 0);
  const [count, setCount] = useState(10);
  const [timer, setTimer] = useState<"edizione" | "nessuno">("nessuno");
  const [mode, setMode] = useState<"comune" | "mirato">("comune");
  const [units, setUnits] = useState<number[]>([]);
  // The loader's clock, read in Rome on both sides: the server's HTML and the browser's first render agree.
  const [opensAt, setOpensAt] = useState(toRomeInputValue(now));
  const [dueAt, setDueAt] = useState(toRomeInputValue(now + 7 * DAY));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const subject = subjects.find((s) => s.id === subjectId) ?? null;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = succeeded(
        await write({ intent: "create", classId, title, subjectId, count, timer, mode, units, opensAt, dueAt }),
        T.createError,
      )!;
      toast(T.created, "success");
      setTitle("");
      onCreated(created.id);
    } catch (e) {
      setError(e instanceof ApiError || e instanceof RefusedError ? e.message : T.createError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="practice-card" onSubmit={submit} noValidate aria-labelledby="asg-new">
      <h3 id="asg-new">{T.newTitle}</h3>
      <div className="asg-form">
        <div>
          <label htmlFor={ids.title}>{T.fieldTitle}</label>
          <input
            id={ids.title}
            className="input"
            value={title}
            maxLength={ASSIGNMENT_TITLE_MAX + 20}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={ids.subject}>{T.fieldSubject}</label>
          <select
            id={ids.subject}
            className="input"
            value={subjectId}
            onChange={(e) => {
              setSubjectId(Number(e.target.value));
              setUnits([]);
            }}
          >
            {subjects.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.count}>{T.fieldCount}</label>
          <input
            id={ids.count}
            className="input"
            type="number"
            min={MIN_QUESTIONS}
            max={MAX_QUESTIONS}
            value={count}
            onChange={(e) => setCount(Number(e.target.value))}
          />
        </div>
        <fieldset>
          <legend>{T.fieldTimer}</legend>
          <label>
            <input type="radio" name="asg-timer" checked={timer === "nessuno"} onChange={() => setTimer("nessuno")} />{" "}
            {T.timerNone}
          </label>{" "}
          <label>
            <input
              type="radio"
              name="asg-timer"
              checked={timer === "edizione"}
              disabled={subject?.secPerQuestion == null}
              onChange={() => setTimer("edizione")}
            />{" "}
            {T.timerEdition}
            {subject?.secPerQuestion != null ? ` (${Math.round((subject.secPerQuestion * count) / 60)} min)` : ""}
          </label>
        </fieldset>
        <fieldset>
          <legend>{T.fieldMode}</legend>
          <label>
            <input type="radio" name="asg-mode" checked={mode === "comune"} onChange={() => setMode("comune")} />{" "}
            {T.modeCommon}
          </label>{" "}
          <label>
            <input type="radio" name="asg-mode" checked={mode === "mirato"} onChange={() => setMode("mirato")} />{" "}
            {T.modeTargeted}
          </label>
        </fieldset>
        <div>
          <label htmlFor={ids.opens}>{T.fieldOpens}</label>
          <input
            id={ids.opens}
            className="input"
            type="datetime-local"
            value={opensAt}
            onChange={(e) => setOpensAt(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={ids.due}>{T.fieldDue}</label>
          <input
            id={ids.due}
            className="input"
            type="datetime-local"
            value={dueAt}
            onChange={(e) => setDueAt(e.target.value)}
          />
        </div>
      </div>
      {subject?.units.length ? (
        <fieldset>
          <legend>{T.fieldUnits}</legend>
          <div className="asg-units">
            {subject.units.map((u) => (
              <label key={u.number}>
                <input
                  type="checkbox"
                  checked={units.includes(u.number)}
                  onChange={(e) =>
                    setUnits((list) => (e.target.checked ? [...list, u.number] : list.filter((n) => n !== u.number)))
                  }
                />{" "}
                {u.number}. {u.title}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <p>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {T.create}
        </button>
      </p>
      {error ? <ErrorText message={error} /> : null}
    </form>
  );
}

const statusClass = (status: AssignmentStatus) => `asg-badge asg-badge--${status}`;

function Report({ report, onDeleted }: { report: AssignmentReport; onDeleted: () => void }) {
  const toast = useToast();
  const write = useFormAction("/admin/compiti").call;
  const [busy, setBusy] = useState(false);
  const { assignment: a, pupils, questions } = report;
  const count = (s: AssignmentStatus) => pupils.filter((p) => p.status === s).length;
  const run = async (body: Record<string, unknown>, done: string, then?: () => void) => {
    setBusy(true);
    try {
      succeeded(await write(body), T.saveError);
      toast(done, "success");
      then?.();
    } catch (e) {
      toast(e instanceof ApiError || e instanceof RefusedError ? e.message : T.saveError, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="adm-classes__dialog" aria-labelledby="asg-report" data-testid="assignment-report">
      <h3 id="asg-report">{T.report(a.title)}</h3>
      <p className="muted">
        {a.subjectName} · {T.questions(a.questionCount)} · {a.timeLimitSec ? T.withTimer(a.timeLimitSec) : T.noTimer}
        {a.mode === "mirato" ? ` · ${T.targeted}` : ""} · {T.dueOn(a.dueAt)}
      </p>
      <p data-testid="assignment-counts">{T.counts(count("fatto"), count("in_ritardo"), count("non_fatto"))}</p>
      <div className="row">
        <button
          type="button"
          className="btn"
          onClick={() => downloadCsv(assignmentCsvName(a.title), assignmentCsv(report))}
        >
          {T.exportCsv}
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy}
          onClick={() => run({ intent: "close-now", assignmentId: a.id }, T.closedNow)}
        >
          {T.closeNow}
        </button>
        <button
          type="button"
          className="btn btn--danger"
          disabled={busy}
          onClick={() => run({ intent: "delete", assignmentId: a.id }, T.removed, onDeleted)}
        >
          {T.remove}
        </button>
      </div>
      <h4>{T.perPupil}</h4>
      <TableWrap label={T.perPupil}>
        <table className="adm-table" data-testid="assignment-pupils">
          <thead>
            <tr>
              <th scope="col">{T.colStudent}</th>
              <th scope="col">{T.colStatus}</th>
              <th scope="col">{T.colScore}</th>
              <th scope="col">{T.colTime}</th>
              <th scope="col">{T.colSubmitted}</th>
            </tr>
          </thead>
          <tbody>
            {pupils.map((p) => (
              <tr key={p.userId}>
                <td>{p.name}</td>
                <td>
                  <span className={statusClass(p.status)}>{T.status[p.status]}</span>
                </td>
                <td>{p.score == null ? "—" : `${formatNumber(p.score)}/31 (${p.correct}/${p.total})`}</td>
                <td>{p.timeSec == null ? "—" : formatSeconds(p.timeSec)}</td>
                <td>{p.finishedAt == null ? "—" : formatRomeDateTime(p.finishedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h4>{T.perQuestion}</h4>
      {questions.every((q) => q.answered === 0 && !q.sealed) && count("non_fatto") === pupils.length ? (
        <p className="muted">{T.noAnswersYet}</p>
      ) : null}
      <TableWrap label={T.perQuestion}>
        <table className="adm-table" data-testid="assignment-questions">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{T.colQuestion}</th>
              <th scope="col">{T.colAnswered}</th>
              <th scope="col">{T.colRight}</th>
              <th scope="col">{T.colWrong}</th>
            </tr>
          </thead>
          <tbody>
            {questions.map((q, i) => (
              <tr key={q.questionId}>
                <td>{q.position ?? i + 1}</td>
                <td>{q.stem.length > 140 ? `${q.stem.slice(0, 140)}…` : q.stem}</td>
                {q.sealed ? (
                  <td colSpan={3}>{T.sealedRow}</td>
                ) : (
                  <>
                    <td>{q.answered}</td>
                    <td>{q.rightPct == null ? "—" : `${q.rightPct}%`}</td>
                    <td>{q.topWrong ? `${q.topWrong.answer} (${q.topWrong.count})` : T.noWrong}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}
