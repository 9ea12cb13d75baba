// Admin console tab 'Tentativi': every user's attempts, paginated on the server, with the summary link.
import { Link, useSearchParams } from "react-router";
import { ADMIN_ATTEMPTS_PAGE_SIZE } from "~/lib/constants";
import { formatDateTime, formatNumber, Pager, T, TableWrap, useUrlPaging } from "./admin-shared";

export type AdminAttempt = {
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

/** `items` and `total`: the page the tab's loader read (/admin/tentativi?userId=…&pagina=N). */
export function TentativiTab({ items, total }: { items: AdminAttempt[]; total: number }) {
  const [params] = useSearchParams();
  const userId = Number(params.get("userId")) || null;
  const list = useUrlPaging(total, items.length, ADMIN_ATTEMPTS_PAGE_SIZE);

  return (
    <div>
      {userId ? (
        <p className="muted">
          Tentativi dell'utente #{userId}. <Link to="/admin/tentativi">Mostra tutti</Link>
        </p>
      ) : null}
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
              {items.length === 0 ? (
                <tr>
                  <td colSpan={6} className="muted">
                    {T.noAttempts}
                  </td>
                </tr>
              ) : null}
              {items.map((a) => (
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
    </div>
  );
}
