// /compiti: a pupil's assignments from the classes they are a member of (issue 32): open ones with "Inizia" (or
// "Riprendi"), those not open yet, and the submitted ones with their result. "Inizia" posts here: the server stores
// the practice quiz (assignments.server.ts startAssignment) and the runner at /test?id= takes over, graded like practice.
import { Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { z } from "zod";
import { ASSIGNMENT_TEXT as T, type AssignmentStatus } from "~/lib/assignments";
import { formError } from "~/lib/forms";
import { formatDecimal } from "~/lib/format";
import { withLabels } from "~/lib/validation";
import { redirect } from "react-router";
import { myAssignments, startAssignment, type MyAssignment } from "~/server/assignments.server";
import { dbOf } from "~/server/context";
import { handleForm } from "~/server/form.server";
import { requirePageUser } from "~/server/page-guard.server";
import "~/styles/simulations.css";
import "~/styles/assignments.css";
import type { Route } from "./+types/compiti";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const now = Date.now();
  return { now, assignments: await myAssignments(dbOf(args.context), user.id, now) };
}

const StartInput = withLabels(z.object({ assignmentId: z.coerce.number("Compito non valido").int().positive() }), {
  assignmentId: "Compito",
});

export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  return handleForm(args.request, StartInput, async ({ assignmentId }) => {
    const started = await startAssignment(dbOf(args.context), user, assignmentId);
    throw redirect(
      started.completed && started.attemptId ? `/test/riepilogo/${started.attemptId}` : `/test?id=${started.quizId}`,
    );
  });
}

export function meta() {
  return [{ title: "Compiti · Unicum" }];
}

const statusClass = (status: AssignmentStatus) => `asg-badge asg-badge--${status}`;

export default function Compiti() {
  const { now, assignments } = useLoaderData<typeof loader>();
  const refused = formError(useActionData<typeof action>());
  const navigation = useNavigation();
  const open = assignments.filter((a) => a.status === "non_fatto" && a.opensAt <= now);
  const upcoming = assignments.filter((a) => a.status === "non_fatto" && a.opensAt > now);
  const done = assignments.filter((a) => a.status !== "non_fatto");
  return (
    <section className="page my-sims">
      <h1 className="page__title">{T.pageTitle}</h1>
      <p className="muted">{T.pageIntro}</p>
      {refused && navigation.state === "idle" ? (
        <p className="alert alert--error" role="alert">
          {refused}
        </p>
      ) : null}
      {!assignments.length ? (
        <p className="alert" role="status">
          {T.none}
        </p>
      ) : (
        <>
          <AssignmentList id="open" title="Da fare" items={open} now={now} busy={navigation.state !== "idle"} />
          <AssignmentList id="upcoming" title="In arrivo" items={upcoming} now={now} busy />
          <AssignmentList id="done" title="Consegnati" items={done} now={now} busy={false} />
        </>
      )}
    </section>
  );
}

function AssignmentList({
  id,
  title,
  items,
  now,
  busy,
}: {
  id: string;
  title: string;
  items: MyAssignment[];
  now: number;
  busy: boolean;
}) {
  if (!items.length) return null;
  return (
    <section className="my-sims__section" aria-labelledby={`compiti-${id}`} data-testid={`compiti-${id}`}>
      <h2 id={`compiti-${id}`} className="my-sims__h2">
        {title}
      </h2>
      <ul className="my-sims__list">
        {items.map((a) => (
          <li key={a.id} className="my-sim" data-testid={`compito-${a.id}`}>
            <div className="my-sim__body">
              <h3 className="my-sim__title">{a.title}</h3>
              <p className="small">{summaryLine(a)}</p>
              <p className="small muted">
                {a.opensAt > now ? T.opensOn(a.opensAt) : T.dueOn(a.dueAt)}
                {a.status === "non_fatto" && a.opensAt <= now && a.dueAt < now ? ` · ${T.overdue}` : null}
              </p>
            </div>
            <Action a={a} now={now} busy={busy} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Chimica · 10 domande · timer 15 min · classe 5B (prof. Rossi)". */
function summaryLine(a: MyAssignment) {
  return [
    a.subjectName,
    T.questions(a.questionCount),
    a.timeLimitSec ? T.withTimer(a.timeLimitSec) : T.noTimer,
    a.mode === "mirato" ? T.targeted : null,
    `${a.className} (${a.teacher})`,
  ]
    .filter(Boolean)
    .join(" · ");
}

function Action({ a, now, busy }: { a: MyAssignment; now: number; busy: boolean }) {
  if (a.status !== "non_fatto") {
    return (
      <div className="my-sim__action">
        <span className={statusClass(a.status)}>{T.status[a.status]}</span>
        {a.score != null ? <span className="small"> {formatDecimal(a.score, 1)}/31 </span> : null}
        {a.attemptId ? (
          <Link className="btn" to={`/test/riepilogo/${a.attemptId}`}>
            {T.seeResult}
          </Link>
        ) : null}
      </div>
    );
  }
  if (a.opensAt > now) return null;
  return (
    <Form method="post" className="my-sim__action">
      <input type="hidden" name="assignmentId" value={a.id} />
      <button
        type="submit"
        className="btn btn--primary"
        disabled={busy}
        aria-label={`${a.inProgress ? T.resume : T.start}: ${a.title}`}
      >
        {a.inProgress ? T.resume : T.start}
      </button>
    </Form>
  );
}
