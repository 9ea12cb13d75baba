// /profilo: the classes the student belongs to (with their teacher), leave one, or join with a code.
import { useState } from "react";
import { useRevalidator } from "react-router";
import { CLASS_UI as T } from "~/components/classes/texts";
import { useToast } from "~/components/ui/Toast";
import { ApiError, apiFetch } from "~/lib/api-client";

export type JoinedClassData = { id: number; name: string; teacher: string; joinedAt: number };

export function ClassesSection({ userId, classes }: { userId: number; classes: JoinedClassData[] }) {
  const toast = useToast();
  const revalidator = useRevalidator();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run<R>(action: () => Promise<R>, success: string | ((result: R) => string)) {
    setBusy(true);
    setError(null);
    try {
      const result = await action();
      toast(typeof success === "string" ? success : success(result), "success");
      await revalidator.revalidate();
      return true;
    } catch (e) {
      setError(e instanceof ApiError ? e.message : T.leaveError);
      return false;
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="profile__card" id="classi" aria-labelledby="classes-title">
      <h2 id="classes-title" className="profile__h2">
        {T.myClasses}
      </h2>
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
                onClick={() => run(() => apiFetch(`/api/classes/${c.id}/members/${userId}`, { method: "DELETE" }), T.left)}
              >
                {T.leave}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{T.noClasses}</p>
      )}
      <form
        className="profile__invite"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!code.trim()) return;
          const ok = await run(
            () => apiFetch<{ name: string; joined: boolean }>("/api/classes/join", { method: "POST", json: { code } }),
            (r) => (r.joined ? T.joined(r.name) : T.alreadyMember(r.name)),
          );
          if (ok) setCode("");
        }}
      >
        <label className="field">
          <span>{T.joinCodeLabel}</span>
          <input className="input" value={code} onChange={(e) => setCode(e.target.value)} placeholder={T.joinCodePlaceholder} autoComplete="off" />
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
