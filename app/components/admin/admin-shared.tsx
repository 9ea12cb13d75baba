// Shared pieces of the admin console tabs of issue 7: data loading, formatting, the Italian texts.
import { formatDecimal } from "~/lib/format";
import { useCallback, useEffect, useState } from "react";
import { useNavigation, useSearchParams } from "react-router";
import { useToast } from "~/components/ui/Toast";
import { ApiError } from "~/lib/api-client";
import { RefusedError } from "~/lib/forms";
import { TIME_ZONE } from "~/lib/constants";
import "~/styles/admin-console.css";

/** Toasts of spec section 8 and the other texts of the console, in one place. */
export const T = {
  deleted: "Eliminazione completata",
  deleteError: "Errore eliminazione",
  userSaved: "Utente salvato",
  saveError: "Errore salvataggio",
  reportUpdated: "Segnalazione aggiornata",
  reportResolved: "Segnalazione risolta",
  importError: "Errore importazione",
  importWarnings: "Importate così come sono, con questi avvisi",
  taxonomyError: "Errore import materie/argomenti",
  difficultyError: "Errore import difficoltà",
  usersError: "Errore import utenti/tentativi",
  attemptsError: "Errore import tentativi",
  reprocessError: "Errore riprocesso",
  recalcError: "Errore ricalcolo",
  resetDone: "Database resettato",
  resetError: "Errore reset database",
  missingNameEmail: "Compila nome ed email",
  noAttempts: "Nessun tentativo",
  noReports: "Nessuna segnalazione trovata.",
  loading: "Caricamento…",
  loadError: "Impossibile caricare i dati. Riprova tra poco.",
} as const;

/** Role labels, in the order the role pickers list them. */
export const ROLE_LABEL: Record<string, string> = {
  studente: "Studente",
  docente: "Docente",
  moderator: "Moderatore",
  admin: "Admin",
};
export const STATUS_LABEL: Record<string, string> = { attivo: "Attivo", sospeso: "Sospeso" };

/** The `<option>`s of a label map, in its order. */
export function LabelOptions({ labels }: { labels: Record<string, string> }) {
  return Object.entries(labels).map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}

/**
 * A dialog's save: `busy` while `run(work)` runs; a failure keeps the dialog open with the server's
 * message (`error`) and the 'Salvataggio fallito' toast.
 */
export function useSave() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e instanceof ApiError || e instanceof RefusedError ? e.message : T.saveError);
      toast(T.saveError, "error");
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

const dateTime = new Intl.DateTimeFormat("it-IT", { dateStyle: "short", timeStyle: "short", timeZone: TIME_ZONE });
const dateOnly = new Intl.DateTimeFormat("it-IT", { dateStyle: "medium", timeZone: TIME_ZONE });

/** An instant (ISO text or epoch ms) as "22/11/26, 10:15", in Italy's time. */
export function formatDateTime(at: string | number | null | undefined) {
  return at == null || at === "" ? "—" : dateTime.format(new Date(at));
}
export function formatDate(iso: string | null | undefined) {
  return iso ? dateOnly.format(new Date(iso)) : "—";
}
/** Seconds as "m min s s" (or "s s" under a minute). */
export function formatSeconds(total: number | null | undefined) {
  const s = Math.max(0, Math.round(total ?? 0));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, "0")} s`;
}
export function formatNumber(n: number | null | undefined, digits = 1) {
  return n == null ? "—" : formatDecimal(n, digits);
}

export function Loading() {
  return (
    <p className="muted" role="status">
      {T.loading}
    </p>
  );
}

export function ErrorText({ message }: { message: string }) {
  return (
    <p className="alert alert--error" role="alert">
      {message}
    </p>
  );
}

/**
 * The page of a list the tab's loader pages on the server, kept in the URL (?pagina=N, absent on page 1) so that
 * filters, pages and the back button agree. The page steps back to the last one when the page on screen empties
 * (after a delete). `loading` while the next page loads (the previous one stays on screen).
 */
export function useUrlPaging(total: number, shown: number, pageSize: number) {
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const page = Math.max(1, Number(params.get("pagina")) || 1);
  const setPage = useCallback(
    (next: number) =>
      setParams(
        (current) => {
          const url = new URLSearchParams(current);
          if (next > 1) url.set("pagina", String(next));
          else url.delete("pagina");
          return url;
        },
        { preventScrollReset: true },
      ),
    [setParams],
  );
  const emptyPage = shown === 0 && page > 1;
  useEffect(() => {
    if (emptyPage) setPage(Math.max(1, Math.ceil(total / pageSize)));
  }, [emptyPage, total, pageSize, setPage]);
  return { page, setPage, pageSize, loading: navigation.state !== "idle", data: { total } };
}

/** Sets (or, when empty, removes) one filter of the URL, and goes back to page 1. */
export function useUrlFilter() {
  const [, setParams] = useSearchParams();
  return useCallback(
    (key: string, value: string) =>
      setParams(
        (current) => {
          const url = new URLSearchParams(current);
          if (value) url.set(key, value);
          else url.delete(key);
          url.delete("pagina");
          return url;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
}

/** 'Precedente' / 'Pagina x di y · n <noun>' / 'Successiva' under a paginated table. */
export function Pager({
  label,
  noun,
  list,
}: {
  label: string;
  noun: [one: string, many: string];
  list: {
    page: number;
    setPage: (page: number) => void;
    pageSize: number;
    loading: boolean;
    data: { total: number } | null;
  };
}) {
  const { page, setPage, pageSize, loading } = list;
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="adm-pager" aria-label={label}>
      <button
        type="button"
        className="btn"
        onClick={() => setPage(Math.max(1, page - 1))}
        disabled={page <= 1 || loading}
      >
        Precedente
      </button>
      <span>
        Pagina {page} di {pages} · {total} {total === 1 ? noun[0] : noun[1]}
      </span>
      <button
        type="button"
        className="btn"
        onClick={() => setPage(Math.min(pages, page + 1))}
        disabled={page >= pages || loading}
      >
        Successiva
      </button>
    </nav>
  );
}

/**
 * One labelled control of a console form: the label above, the control, and the field's error (linked by
 * `errorId` from the control's aria-describedby). `wide` spans the whole form row; `check` puts a checkbox inline.
 */
export function Field({
  label,
  error,
  errorId,
  wide,
  check,
  children,
}: {
  label: string;
  error?: string;
  errorId?: string;
  wide?: boolean;
  check?: boolean;
  children: React.ReactNode;
}) {
  const className = ["adm-field", wide ? "adm-field--wide" : "", check ? "adm-field--check" : ""].filter(Boolean);
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, nested in the label
    <label className={className.join(" ")}>
      {check ? children : <span>{label}</span>}
      {check ? <span>{label}</span> : children}
      {error ? (
        <span className="adm-field__error" id={errorId}>
          {error}
        </span>
      ) : null}
    </label>
  );
}

/** A horizontally scrollable table container that keyboard users can focus and scroll. */
export function TableWrap({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (axe scrollable-region-focusable)
    <div className="adm-table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/**
 * Row checkboxes and 'Elimina selezionati' of a console table: select all, toggle one, delete every
 * selected row (no confirmation, spec section 5), then one toast. A list from the tab's loader reloads by itself
 * after the write; `reload` is for a list the component reads otherwise.
 */
export function useBulkSelection<Row extends { id: number }>(
  list: Row[],
  remove: (ids: number[]) => Promise<{ failed: number } | undefined>,
  reload?: () => void,
) {
  const toast = useToast();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const allSelected = list.length > 0 && list.every((row) => selected.has(row.id));
  const toggleAll = (checked: boolean) => setSelected(checked ? new Set(list.map((row) => row.id)) : new Set());
  const toggle = (id: number, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  const deleteSelected = async () => {
    let failed = true;
    try {
      failed = ((await remove([...selected]))?.failed ?? 0) > 0;
    } catch {
      // refused or unreachable: said by the toast
    }
    toast(failed ? T.deleteError : T.deleted, failed ? "error" : "success");
    setSelected(new Set());
    reload?.();
  };
  return { selected, allSelected, toggleAll, toggle, deleteSelected };
}
