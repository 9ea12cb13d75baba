// Offline fallback (spec section 7): the last data a screen received is kept in localStorage; when
// the server can't be reached on a client navigation, the screen shows that copy with a notice.
// Never invented sample data.

export type Cached<T> = T & { stale?: boolean; cachedAt?: string };

export function saveCache(key: string, data: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify({ data, cachedAt: new Date().toISOString() }));
  } catch {
    // storage full or disabled: nothing to keep
  }
}

export function readCache<T>(key: string): { data: T; cachedAt: string } | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as { data: T; cachedAt: string }) : null;
  } catch {
    return null;
  }
}

/** Runs the server loader; on a network failure answers the cached copy marked stale, if there is one. */
export async function withOfflineCache<T extends object>(key: string, load: () => Promise<T>): Promise<Cached<T>> {
  try {
    return await load();
  } catch (error) {
    // Redirects and HTTP errors are Responses: only a failed fetch falls back.
    if (error instanceof Response || !(error instanceof Error)) throw error;
    const cached = readCache<T>(key);
    if (!cached) throw error;
    return { ...cached.data, stale: true, cachedAt: cached.cachedAt };
  }
}
