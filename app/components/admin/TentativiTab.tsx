// Admin console tab 'Tentativi': every user's attempts, paginated on the server, with the summary link.
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { apiFetchWithHeaders, ErrorText, formatDateTime, formatNumber, Loading, T, TableWrap } from "./admin-shared";

type AdminAttempt = { id: number; date: string; userId: number; userName: string; subjectId: number | null; subjectName: string | null; status: string; score: number | null };

export const ADMIN_ATTEMPTS_PAGE_SIZE = 25;

/** The attempt summary any admin may open (the summary screen lets admins read every user's attempt). */
export const attemptSummaryPath = (attemptId: number) => `/test/riepilogo/${attemptId}`;

export function TentativiTab() {
  const [params] = useSearchParams();
  const userId = Number(params.get("userId")) || null;
  const [page, setPage] = useState(1);
  const [state, setState] = useState<{ items: AdminAttempt[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let alive = true;
    setLoading(true);
    const query = new URLSearchParams({ page: String(page), pageSize: String(ADMIN_ATTEMPTS_PAGE_SIZE) });
    if (userId) query.set("userId", String(userId));
    // The total travels in X-Total-Count (the body is the spec's plain array).
    apiFetchWithHeaders<AdminAttempt[]>(`/api/admin/attempts?${query}`)
      .then(({ body: items, headers }) => {
        if (alive) {
          setState({ items, total: Number(headers.get("X-Total-Count") ?? items.length) });
          setError(null);
        }
      })
      .catch((e: Error) => alive && setError(e.message || T.loadError))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [page, userId]);

  const pages = Math.max(1, Math.ceil((state?.total ?? 0) / ADMIN_ATTEMPTS_PAGE_SIZE));

  return (
    <div>
      {userId ? (
        <p className="muted">
          Tentativi dell'utente #{userId}. <Link to="/admin?tab=tentativi">Mostra tutti</Link>
        </p>
      ) : null}
      {loading && !state ? <Loading /> : null}
      {error ? <ErrorText message={error} /> : null}
      {state ? (
        <>
          <TableWrap label="Tabella tentativi">
            <table className="adm-table" aria-label="Tentativi">
              <thead>
                <tr>
                  <th className="num">ID</th>
                  <th>Data</th>
                  <th>Utente</th>
                  <th>Materia</th>
                  <th className="num">Punteggio</th>
                  <th><span className="sr-only">Azioni</span></th>
                </tr>
              </thead>
              <tbody>
                {state.items.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">{T.noAttempts}</td>
                  </tr>
                ) : null}
                {state.items.map((a) => (
                  <tr key={a.id}>
                    <td className="num">{a.id}</td>
                    <td>{formatDateTime(a.date)}</td>
                    <td>{a.userName}</td>
                    <td>{a.subjectName ?? (a.subjectId ? `Materia ${a.subjectId}` : "—")}</td>
                    <td className="num">{a.status === "abandoned" ? "Interrotto" : a.score == null ? "—" : `${formatNumber(a.score)}/31`}</td>
                    <td>
                      <Link to={attemptSummaryPath(a.id)} aria-label={`Riepilogo del tentativo ${a.id}`}>Riepilogo</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <nav className="adm-pager" aria-label="Pagine dei tentativi">
            <button type="button" className="btn" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1 || loading}>Precedente</button>
            <span>Pagina {page} di {pages} · {state.total} tentativi</span>
            <button type="button" className="btn" onClick={() => setPage((p) => Math.min(pages, p + 1))} disabled={page >= pages || loading}>Successiva</button>
          </nav>
        </>
      ) : null}
    </div>
  );
}
