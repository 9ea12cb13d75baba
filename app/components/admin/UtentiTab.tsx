// Admin console tab 'Utenti': filters, 'Nuovo utente', Modifica, Sospendi/Riattiva, CSV export,
// bulk delete, the detail dialog, and the read-only audit log at the bottom.
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { useToast } from "~/components/ui/Toast";
import { useLookup } from "~/lib/use-lookup";
import { succeeded } from "~/lib/forms";
import { useFormAction } from "~/lib/use-form-action";
import { useSettled } from "~/lib/use-settled";
import { ADMIN_USERS_PAGE_SIZE } from "~/lib/constants";
import { downloadCsv, toCsv } from "~/lib/csv";
import {
  formatDateTime,
  LabelOptions,
  Pager,
  ROLE_LABEL,
  STATUS_LABEL,
  T,
  TableWrap,
  useBulkSelection,
  useUrlFilter,
  useUrlPaging,
} from "./admin-shared";
import { SuspendDialog, UserDetailDialog, UserFormDialog, type AdminUser } from "./UserDialogs";

export type AuditEntry = {
  id: number;
  at: string;
  actorEmail: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
};

const ACTION_LABEL: Record<string, string> = {
  "user.create": "Utente creato",
  "user.update": "Utente modificato",
  "user.role": "Ruolo cambiato",
  "user.ban": "Utente sospeso",
  "user.unban": "Utente riattivato",
  "user.delete": "Utente eliminato",
  "report.update": "Segnalazione aggiornata",
  "report.resolve": "Segnalazione risolta",
  "report.delete": "Segnalazione eliminata",
  "question.update": "Domanda modificata",
  import: "Importazione",
  "import.taxonomy": "Import materie/argomenti",
  "import.difficulty": "Import difficoltà",
  "import.users": "Import utenti/tentativi",
  "import.attempts": "Import tentativi",
  "reprocess.answers": "Riprocesso risposte",
  "recalc.stats": "Ricalcolo statistiche",
  "reset.db": "Reset database",
};

const CSV_COLUMNS = [
  { key: "id", label: "ID" },
  { key: "name", label: "Nome" },
  { key: "email", label: "Email" },
  { key: "phone", label: "Telefono" },
  { key: "username", label: "Username" },
  { key: "city", label: "Città" },
  { key: "school", label: "Scuola" },
  { key: "year", label: "Anno" },
  { key: "roleLabel", label: "Ruolo" },
  { key: "statusLabel", label: "Stato" },
  { key: "suspensionReason", label: "Motivo sospensione" },
  { key: "attempts", label: "Tentativi" },
  { key: "createdAt", label: "Registrato il" },
  { key: "lastLogin", label: "Ultimo accesso" },
] as const;

function describeAuditEntry(entry: AuditEntry) {
  const d = entry.details ?? {};
  const parts: string[] = [];
  if (typeof d.email === "string") parts.push(d.email);
  if (typeof d.reason === "string") parts.push(`motivo: ${d.reason}`);
  if (d.from !== undefined && d.to !== undefined) parts.push(`${String(d.from)} → ${String(d.to)}`);
  for (const key of [
    "importedQuestions",
    "importedUsers",
    "importedAttempts",
    "importedReports",
    "importedSubjects",
    "importedTopics",
    "importedSubtopics",
    "updatedQuestions",
    "updatedAttempts",
    "attempts",
  ]) {
    if (typeof d[key] === "number") parts.push(`${key}: ${d[key]}`);
  }
  return parts.join(" · ");
}

/**
 * `users` (one page) and `audit` come from the tab's loader (/admin/utenti?stato=…&ruolo=…&q=…&pagina=N&user=ID):
 * the filters, the page and the open detail are in the URL, and React Router reloads the lists after each write.
 */
export function UtentiTab({ users, audit }: { users: { items: AdminUser[]; total: number }; audit: AuditEntry[] }) {
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const setFilter = useUrlFilter();
  const status = params.get("stato") ?? "";
  const role = params.get("ruolo") ?? "";
  const [search, setSearch] = useState(params.get("q") ?? "");
  const q = useSettled(search.trim());
  useEffect(() => {
    if (q !== (params.get("q") ?? "")) setFilter("q", q);
  }, [q, params, setFilter]);
  const filters = new URLSearchParams();
  if (status) filters.set("status", status);
  if (role) filters.set("role", role);
  if (q) filters.set("q", q);
  // The server pages the list: a console with tens of thousands of students loads 50 at a time.
  const paging = useUrlPaging(users.total, users.items.length, ADMIN_USERS_PAGE_SIZE);
  const [editing, setEditing] = useState<AdminUser | "new" | null>(null);
  const [suspending, setSuspending] = useState<AdminUser | null>(null);
  const detailId = Number(params.get("user")) || null;
  const openDetail = (id: number | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set("user", String(id));
        else next.delete("user");
        return next;
      },
      { replace: true },
    );

  const write = useFormAction<{ failed: number }>("/admin/utenti").call;
  const toggleBan = async (user: AdminUser, reason?: string) => {
    try {
      succeeded(await write({ intent: "toggle-ban", id: user.id, reason: reason ?? null }));
      toast(T.userSaved, "success");
      setSuspending(null);
    } catch {
      toast(T.saveError, "error");
    }
  };

  // The export holds every user matching the filters, not only the page on screen (a fetcher reads them all).
  const [exportPath, setExportPath] = useState<string | null>(null);
  const exported = useLookup<AdminUser[]>(exportPath);
  const exporting = exportPath !== null;
  const exportCsv = () => {
    filters.set("volta", String(Date.now())); // each press reads afresh
    setExportPath(`/admin/utenti/esporta?${filters}`);
  };
  useEffect(() => {
    if (!exportPath || exported.loading) return;
    if (exported.data) {
      const rows = exported.data.map((u) => ({
        ...u,
        roleLabel: ROLE_LABEL[u.role],
        statusLabel: STATUS_LABEL[u.status],
      }));
      downloadCsv("utenti.csv", toCsv(rows, [...CSV_COLUMNS]));
    } else toast(T.loadError, "error");
    setExportPath(null);
  }, [exportPath, exported.loading, exported.data, toast]);

  const list = users.items;
  const { selected, allSelected, toggleAll, toggle, deleteSelected } = useBulkSelection(list, async (ids) =>
    succeeded(await write({ intent: "delete", ids })),
  );

  return (
    <div>
      <div className="adm-toolbar">
        <label className="adm-field">
          <span>Stato</span>
          <select value={status} onChange={(e) => setFilter("stato", e.target.value)}>
            <option value="">Tutti</option>
            <LabelOptions labels={STATUS_LABEL} />
          </select>
        </label>
        <label className="adm-field">
          <span>Ruolo</span>
          <select value={role} onChange={(e) => setFilter("ruolo", e.target.value)}>
            <option value="">Tutti</option>
            <LabelOptions labels={ROLE_LABEL} />
          </select>
        </label>
        <label className="adm-field">
          <span>Nome o email</span>
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Cerca…"
            maxLength={100}
          />
        </label>
        <span className="adm-toolbar__spacer" />
        <button type="button" className="btn btn--primary" onClick={() => setEditing("new")}>
          Nuovo utente
        </button>
        <button type="button" className="btn" onClick={exportCsv} disabled={!list.length || exporting}>
          Esporta CSV
        </button>
        <button type="button" className="btn" onClick={() => void deleteSelected()} disabled={!selected.size}>
          Elimina selezionati{selected.size ? ` (${selected.size})` : ""}
        </button>
      </div>

      <TableWrap label="Tabella utenti">
        <table className="adm-table" aria-label="Utenti">
          <thead>
            <tr>
              <th>
                <input
                  type="checkbox"
                  aria-label="Seleziona tutti"
                  checked={allSelected}
                  onChange={(e) => toggleAll(e.target.checked)}
                />
              </th>
              <th>Nome</th>
              <th>Email</th>
              <th>Ruolo</th>
              <th>Stato</th>
              <th className="num">Tentativi</th>
              <th>Azioni</th>
            </tr>
          </thead>
          <tbody>
            {list.length === 0 ? (
              <tr>
                <td colSpan={7} className="muted">
                  Nessun utente con questi filtri.
                </td>
              </tr>
            ) : null}
            {list.map((u) => (
              <tr key={u.id} data-user-email={u.email}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Seleziona ${u.name}`}
                    checked={selected.has(u.id)}
                    onChange={(e) => toggle(u.id, e.target.checked)}
                  />
                </td>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>{ROLE_LABEL[u.role]}</td>
                <td>
                  <span
                    className={`adm-badge ${u.status === "attivo" ? "adm-badge--ok" : "adm-badge--danger"}`}
                    title={u.suspensionReason ?? undefined}
                  >
                    {STATUS_LABEL[u.status]}
                  </span>
                </td>
                <td className="num">{u.attempts ?? 0}</td>
                <td>
                  <div className="adm-actions">
                    <button
                      type="button"
                      className="btn"
                      onClick={() => openDetail(u.id)}
                      aria-label={`Dettagli di ${u.name}`}
                    >
                      Dettagli
                    </button>
                    <button
                      type="button"
                      className="btn"
                      onClick={() => setEditing(u)}
                      aria-label={`Modifica ${u.name}`}
                    >
                      Modifica
                    </button>
                    {u.status === "attivo" ? (
                      <button
                        type="button"
                        className="btn"
                        onClick={() => setSuspending(u)}
                        aria-label={`Sospendi ${u.name}`}
                      >
                        Sospendi
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="btn"
                        onClick={() => void toggleBan(u)}
                        aria-label={`Riattiva ${u.name}`}
                      >
                        Riattiva
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <Pager label="Pagine degli utenti" noun={["utente", "utenti"]} list={paging} />

      <section className="adm-card" style={{ marginTop: "1.5rem" }} aria-labelledby="adm-audit">
        <h2 id="adm-audit">Registro attività</h2>
        <p className="muted small">Ogni modifica di amministratori e moderatori: chi, quando, cosa. Sola lettura.</p>
        {audit.length === 0 ? <p className="muted">Nessuna attività registrata.</p> : null}
        {audit.length ? (
          <TableWrap label="Tabella registro attività">
            <table className="adm-table" aria-label="Registro attività">
              <thead>
                <tr>
                  <th>Quando</th>
                  <th>Chi</th>
                  <th>Azione</th>
                  <th>Oggetto</th>
                  <th>Dettagli</th>
                </tr>
              </thead>
              <tbody>
                {audit.map((a) => (
                  <tr key={a.id}>
                    <td>{formatDateTime(a.at)}</td>
                    <td>{a.actorEmail}</td>
                    <td>{ACTION_LABEL[a.action] ?? a.action}</td>
                    <td>{a.targetType ? `${a.targetType}${a.targetId ? ` #${a.targetId}` : ""}` : "—"}</td>
                    <td>{describeAuditEntry(a)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </section>

      {editing ? (
        <UserFormDialog
          user={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            toast(T.userSaved, "success");
            // A new user would sit on the last page: show them by searching their email.
            if (editing === "new") setSearch(saved.email);
            setEditing(null);
          }}
        />
      ) : null}
      {suspending ? (
        <SuspendDialog
          user={suspending}
          onCancel={() => setSuspending(null)}
          onConfirm={(reason) => toggleBan(suspending, reason)}
        />
      ) : null}
      {detailId ? <UserDetailDialog userId={detailId} onClose={() => openDetail(null)} /> : null}
    </div>
  );
}
