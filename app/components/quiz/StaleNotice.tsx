import { formatDateTime, T } from "./messages";

/** Shown when a screen falls back to the copy kept on this device (offline). */
export function StaleNotice({ stale, cachedAt }: { stale?: boolean; cachedAt?: string }) {
  if (!stale) return null;
  return (
    <p className="notice" role="status">
      {T.staleNotice} {cachedAt ? `Ultimo aggiornamento: ${formatDateTime(cachedAt)}.` : null}
    </p>
  );
}
