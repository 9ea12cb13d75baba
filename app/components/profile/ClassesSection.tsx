// /profilo: the classes the student belongs to (with their teacher), leave one, join with a code, and the
// invitations teachers sent to their e-mail (accept or decline: nobody is enrolled without saying yes).
// Each write posts to /profilo's action (the same services as /api/classes/join, /api/classes/invitations… and
// DELETE …/members/:userId).
import { useState } from "react";
import { Link } from "react-router";
import { CLASS_UI as T } from "~/components/classes/texts";
import { useToast } from "~/components/ui/Toast";
import { formError } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import type { ClassInvitation } from "~/server/class-invitations.server";

export type JoinedClassData = { id: number; name: string; teacher: string; joinedAt: number };

export function ClassesSection({
  classes,
  invitations,
}: {
  userId: number;
  classes: JoinedClassData[];
  invitations: ClassInvitation[];
}) {
  const toast = useToast();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { busy, submit } = useFormAction<{ name: string; joined: boolean }>("/profilo");

  function run(
    write: Record<string, unknown>,
    success: (result: { name: string; joined: boolean } | undefined) => string,
    then?: () => void,
  ) {
    setError(null);
    const fallback = String(write.intent).endsWith("-invitation") ? T.invitationError : T.leaveError;
    submit(write, (reply) => {
      const refused = formError(reply) ?? (reply.result.status === "success" ? null : fallback);
      if (refused) return setError(refused);
      toast(success(reply.value), "success");
      then?.();
    });
  }

  return (
    <section className="profile__card" id="classi" aria-labelledby="classes-title">
      <h2 id="classes-title" className="profile__h2">
        {T.myClasses}
      </h2>
      {invitations.length ? (
        <section aria-labelledby="class-invitations-title">
          <h3 id="class-invitations-title">{T.invitationsTitle}</h3>
          <ul className="profile__list">
            {invitations.map((i) => (
              <li key={i.id}>
                <span>{T.invitationText(i.name, i.teacher)}</span>
                <span>
                  <button
                    type="button"
                    className="btn btn--primary"
                    disabled={busy}
                    aria-label={`${T.accept}: ${i.name}`}
                    onClick={() => run({ intent: "accept-invitation", invitationId: i.id }, () => T.joined(i.name))}
                  >
                    {T.accept}
                  </button>{" "}
                  <button
                    type="button"
                    className="btn"
                    disabled={busy}
                    aria-label={`${T.decline}: ${i.name}`}
                    onClick={() => run({ intent: "decline-invitation", invitationId: i.id }, () => T.declined(i.name))}
                  >
                    {T.decline}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {classes.length ? (
        <ul className="profile__list">
          {classes.map((c) => (
            <li key={c.id}>
              <span>
                <strong>{c.name}</strong>
                <span className="muted small">
                  {" "}
                  · {T.teacher}: {c.teacher}
                </span>
              </span>
              <button
                type="button"
                className="btn"
                disabled={busy}
                aria-label={`${T.leave} ${c.name}`}
                onClick={() => run({ intent: "leave-class", classId: c.id }, () => T.left)}
              >
                {T.leave}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{T.noClasses}</p>
      )}
      {classes.length ? (
        <p>
          <Link to="/simulazioni">{T.toSimulations}</Link>
        </p>
      ) : null}
      <form
        className="profile__invite"
        onSubmit={(e) => {
          e.preventDefault();
          if (!code.trim()) return;
          run(
            { intent: "join-class", code },
            (r) => (r?.joined ? T.joined(r.name) : T.alreadyMember(r?.name ?? "")),
            () => setCode(""),
          );
        }}
      >
        <label className="field">
          <span>{T.joinCodeLabel}</span>
          <input
            className="input"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder={T.joinCodePlaceholder}
            autoComplete="off"
          />
        </label>
        <button type="submit" className="btn btn--primary" disabled={busy || !code.trim()}>
          {T.joinWithCode}
        </button>
      </form>
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
