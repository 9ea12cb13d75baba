// Shared pieces of the admin console tabs of issue 7: data loading, formatting, the Italian texts.
import { useCallback, useEffect, useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { apiFetch, ApiError } from "~/lib/api-client";
import { reportSessionProblem } from "~/lib/session-events";
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

export const ROLE_LABEL: Record<string, string> = { admin: "Admin", moderator: "Moderatore", studente: "Studente" };
export const STATUS_LABEL: Record<string, string> = { attivo: "Attivo", sospeso: "Sospeso" };

/** Loads a JSON call and keeps it fresh; `reload()` after a change. */
export function useApi<T>(path: string | null) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(Boolean(path));
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) return;
    let alive = true;
    setLoading(true);
    apiFetch<T>(path)
      .then((d) => alive && (setData(d), setError(null)))
      .catch((e: Error) => alive && setError(e.message || T.loadError))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, setData };
}

const dateTime = new Intl.DateTimeFormat("it-IT", { dateStyle: "short", timeStyle: "short", timeZone: "Europe/Rome" });
const dateOnly = new Intl.DateTimeFormat("it-IT", { dateStyle: "medium", timeZone: "Europe/Rome" });

export function formatDateTime(iso: string | null | undefined) {
  return iso ? dateTime.format(new Date(iso)) : "—";
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
  return n == null ? "—" : n.toLocaleString("it-IT", { maximumFractionDigits: digits });
}

export function Loading() {
  return <p className="muted" role="status">{T.loading}</p>;
}

export function ErrorText({ message }: { message: string }) {
  return <p className="alert alert--error" role="alert">{message}</p>;
}

/** Like apiFetch (same session overlay on 401/403/423) but also returns the response headers. */
export async function apiFetchWithHeaders<T>(path: string): Promise<{ body: T; headers: Headers }> {
  const response = await fetch(path, { credentials: "same-origin" });
  const body = (await response.json().catch(() => ({}))) as T & { error?: string; reason?: string };
  if (!response.ok) {
    if (response.status === 423) reportSessionProblem({ kind: "suspended", reason: String(body.reason ?? "") });
    else if (response.status === 401 || response.status === 403) reportSessionProblem({ kind: "expired" });
    throw new ApiError(response.status, typeof body.error === "string" ? body.error : "Errore di rete");
  }
  return { body, headers: response.headers };
}

/** A horizontally scrollable table container that keyboard users can focus and scroll. */
export function TableWrap({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="adm-table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/**
 * Row checkboxes and 'Elimina selezionati' of a console table: select all, toggle one, delete every
 * selected row (no confirmation, spec section 5), then one toast and a reload.
 */
export function useBulkSelection<Row extends { id: number }>(list: Row[], deletePath: (id: number) => string, reload: () => void) {
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
    const results = await Promise.allSettled([...selected].map((id) => apiFetch(deletePath(id), { method: "DELETE" })));
    const failed = results.some((r) => r.status === "rejected");
    toast(failed ? T.deleteError : T.deleted, failed ? "error" : "success");
    setSelected(new Set());
    reload();
  };
  return { selected, allSelected, toggleAll, toggle, deleteSelected };
}
