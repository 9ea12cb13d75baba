// The dashboard's reminder of the assignments (compiti, issue 32) a pupil still has to submit: open ones, overdue
// ones too (a late submission still counts, as late), nearest due date first. Nothing when there are none.
import { Link } from "react-router";
import { ASSIGNMENT_TEXT as T } from "~/lib/assignment-texts";
import type { MyAssignment } from "~/server/assignments.server";

export function AssignmentsDue({ items, now }: { items: MyAssignment[]; now: number }) {
  if (!items.length) return null;
  return (
    <section className="happening" aria-labelledby="assignments-due" data-testid="assignments-due">
      <article className="happening__card">
        <h2 id="assignments-due" className="happening__title">
          {T.reminderTitle}
        </h2>
        <ul className="assignments-due">
          {items.map((a) => (
            <li key={a.id}>
              <strong>{a.title}</strong> <span className="small">· {a.subjectName}</span>
              <br />
              <span className="small muted">
                {T.dueOn(a.dueAt)}
                {a.dueAt < now ? ` · ${T.overdue}` : null}
              </span>
            </li>
          ))}
        </ul>
        <div className="happening__actions">
          <Link className="btn btn--primary" to="/compiti">
            {T.reminderAll}
          </Link>
        </div>
      </article>
    </section>
  );
}
