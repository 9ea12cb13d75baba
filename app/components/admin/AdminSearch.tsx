// Global search of the admin console: users by name or email, questions by text or id, attempts by id.
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { useLookup } from "~/lib/use-lookup";
import { useSettled } from "~/lib/use-settled";
import { ROLE_LABEL } from "./admin-shared";
import { QuestionEditorDialog } from "./QuestionEditor";
import { UserDetailDialog } from "./UserDialogs";

type Results = {
  users: { id: number; name: string; email: string; role: string; status: string }[];
  questions: { id: number; stem: string; subjectId: number; type: string }[];
  attempts: { id: number; userName: string; subjectName: string | null; date: string; score: number | null }[];
};

const MIN_QUERY = 2;

export function AdminSearch() {
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [user, setUser] = useState<number | null>(null);
  const [question, setQuestion] = useState<number | null>(null);
  const listId = useId();
  const boxRef = useRef<HTMLDivElement>(null);

  // The console's search route, asked once typing settles (a fetcher: /admin/cerca).
  const text = useSettled(q.trim(), 200);
  const asked = text.length >= MIN_QUERY || /^\d+$/.test(text);
  const results = useLookup<Results>(asked ? `/admin/cerca?q=${encodeURIComponent(text)}` : null).data;
  useEffect(() => {
    if (results) setOpen(true);
  }, [results]);

  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (boxRef.current && !boxRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, []);

  const empty = results && !results.users.length && !results.questions.length && !results.attempts.length;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the search box closes its results
    <div className="adm-search" ref={boxRef} onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <label htmlFor={`${listId}-input`} className="sr-only">
        Cerca utenti, domande o tentativi
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        placeholder="Cerca utenti (nome, email), domande (testo o ID), tentativi (ID)"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onFocus={() => results && setOpen(true)}
        aria-controls={open && results ? listId : undefined}
        autoComplete="off"
      />
      {open && results ? (
        <div className="adm-search__results" id={listId} role="region" aria-label="Risultati della ricerca">
          {empty ? (
            <p className="muted" style={{ margin: "0.5rem" }}>
              Nessun risultato.
            </p>
          ) : null}
          {results.users.length ? (
            <>
              <h3>Utenti</h3>
              <ul>
                {results.users.map((u) => (
                  <li key={u.id}>
                    <button type="button" onClick={() => (setUser(u.id), setOpen(false))}>
                      {u.name}{" "}
                      <span className="muted">
                        · {u.email} · {ROLE_LABEL[u.role] ?? u.role}
                        {u.status === "sospeso" ? " · Sospeso" : ""}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {results.questions.length ? (
            <>
              <h3>Domande</h3>
              <ul>
                {results.questions.map((x) => (
                  <li key={x.id}>
                    <button type="button" onClick={() => (setQuestion(x.id), setOpen(false))}>
                      <span className="muted">#{x.id}</span> {x.stem.length > 90 ? `${x.stem.slice(0, 90)}…` : x.stem}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {results.attempts.length ? (
            <>
              <h3>Tentativi</h3>
              <ul>
                {results.attempts.map((a) => (
                  <li key={a.id}>
                    <Link to={`/test/riepilogo/${a.id}`}>
                      Tentativo #{a.id}{" "}
                      <span className="muted">
                        · {a.userName} · {a.subjectName ?? "—"}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
      {user ? <UserDetailDialog userId={user} onClose={() => setUser(null)} /> : null}
      {question ? <QuestionEditorDialog id={question} onClose={() => setQuestion(null)} /> : null}
    </div>
  );
}
