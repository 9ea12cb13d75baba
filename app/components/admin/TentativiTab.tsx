// Admin console tab 'Tentativi': every user's attempts, paginated on the server, with the summary link.
import { Link, useSearchParams } from "react-router";
import { ADMIN_ATTEMPTS_PAGE_SIZE } from "~/lib/constants";
import { ErrorText, formatDateTime, formatNumber, Loading, Pager, T, TableWrap, usePagedApi } from "./admin-shared";

type AdminAttempt = {
  id: number;
  date: string;
  userId: number;
  userName: string;
  subjectId: number | null;
  subjectName: string | null;
  status: string;
  score: number | null;
};

/** The attempt summary any admin may open (the summary screen lets admins read every user's attempt). */
export const attemptSummaryPath = (attemptId: number) => `/test/riepilogo/${attemptId}`;

export function TentativiTab() {
  const [params] = useSearchParams();
  const userId = Number(params.get("userId")) || null;
  const list = usePagedApi<AdminAttempt>(
    "/api/admin/attempts",
    new URLSearchParams(userId ? { userId: String(userId) } : {}),
    ADMIN_ATTEMPTS_PAGE_SIZE,
  );
  const { data: state, error, loading } = list;

  return (
    <div>
      {userId ? (
        <p className="muted">
          Tentativi dell'utente #{userId}. <Link to="/admin/tentativi">Mostra tutti</Link>
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
                  <th>
                    <span className="sr-only">Azioni</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {state.items.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">
                      {T.noAttempts}
                    </td>
                  </tr>
                ) : null}
                {state.items.map((a) => (
                  <tr key={a.id}>
                    <td className="num">{a.id}</td>
                    <td>{formatDateTime(a.date)}</td>
                    <td>{a.userName}</td>
                    <td>{a.subjectName ?? (a.subjectId ? `Materia ${a.subjectId}` : "—")}</td>
                    <td className="num">
                      {a.status === "abandoned" ? "Interrotto" : a.score == null ? "—" : `${formatNumber(a.score)}/31`}
                    </td>
                    <td>
                      <Link to={attemptSummaryPath(a.id)} aria-label={`Riepilogo del tentativo ${a.id}`}>
                        Riepilogo
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager label="Pagine dei tentativi" noun={["tentativo", "tentativi"]} list={list} />
        </>
      ) : null}
    </div>
  );
}
