// The browser's rush caches (spec section 3): unicum_qr_results (subject → score, time and finish),
// unicum_qr_start / unicum_qr_end (the event window, epoch seconds). They only mirror what the
// server answered and are read back only when the server cannot answer.
import { clampRushScore, RUSH_STORAGE } from "~/lib/rush";

export type CachedResult = { score: number; time: number | null; at: number };
export type CachedResults = Record<string, CachedResult>;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function writeRushCache(
  event: { startsAt: number; endsAt: number },
  items: { subjectId: number; score: number; at: number; timeSec: number | null }[],
) {
  const ls = storage();
  if (!ls) return;
  const results: CachedResults = {};
  for (const i of items) results[String(i.subjectId)] = { score: i.score, time: i.timeSec, at: i.at };
  try {
    ls.setItem(RUSH_STORAGE.results, JSON.stringify(results));
    ls.setItem(RUSH_STORAGE.start, String(Math.floor(event.startsAt / 1000)));
    ls.setItem(RUSH_STORAGE.end, String(Math.floor(event.endsAt / 1000)));
  } catch {
    // Quota or privacy mode: the cache is optional.
  }
}

/** Cached results for this event window only (a cache from another event is ignored). */
export function readRushCache(event: {
  startsAt: number;
  endsAt: number;
}): { subjectId: number; score: number; at: number; timeSec: number | null }[] {
  const ls = storage();
  if (!ls) return [];
  try {
    if (ls.getItem(RUSH_STORAGE.start) !== String(Math.floor(event.startsAt / 1000))) return [];
    if (ls.getItem(RUSH_STORAGE.end) !== String(Math.floor(event.endsAt / 1000))) return [];
    const parsed = JSON.parse(ls.getItem(RUSH_STORAGE.results) ?? "{}") as CachedResults;
    return Object.entries(parsed)
      .filter(([id, r]) => /^\d+$/.test(id) && r && typeof r.score === "number" && typeof r.at === "number")
      .map(([id, r]) => ({
        subjectId: Number(id),
        score: clampRushScore(r.score),
        at: r.at,
        timeSec: typeof r.time === "number" ? r.time : null,
      }));
  } catch {
    return [];
  }
}

/** The Reset button: empties only the local caches (the server's records stay). */
export function clearRushCache() {
  const ls = storage();
  try {
    ls?.removeItem(RUSH_STORAGE.results);
    ls?.removeItem(RUSH_STORAGE.start);
    ls?.removeItem(RUSH_STORAGE.end);
    // qr_subject / qr_event (session storage) are not scores: they stay.
  } catch {
    // Nothing to clear.
  }
}
