// Past attempts (/tentativi): search, date range (end of day inclusive), status groups and sorting.
import { isCalendarDay } from "./days";
export type AttemptLike = {
  id: number;
  subjectName: string | null;
  date: string;
  topics: string[];
  status: "completed" | "abandoned";
  score: number | null;
  timeSec: number;
};

export type Sort = "date_desc" | "date_asc" | "score" | "time";
export const SORTS: { value: Sort; label: string }[] = [
  { value: "date_desc", label: "Data (più recenti)" },
  { value: "date_asc", label: "Data (meno recenti)" },
  { value: "score", label: "Punteggio (più alto)" },
  { value: "time", label: "Tempo (più breve)" },
];

export type AttemptFilters = {
  search: string;
  from: string;
  to: string;
  completed: boolean;
  abandoned: boolean;
  sort: Sort;
};

/** 'YYYY-MM-DD' from a date input as the local start of that day, or its last millisecond (inclusive). */
export function dayBound(value: string, end: boolean): number | null {
  if (!isCalendarDay(value)) return null;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  return end ? new Date(y, m - 1, d, 23, 59, 59, 999).getTime() : new Date(y, m - 1, d).getTime();
}

export function filterAttempts<A extends AttemptLike>(items: A[], f: AttemptFilters): A[] {
  const needle = f.search.trim().toLowerCase().replace(/^#/, "");
  const from = dayBound(f.from, false);
  const to = dayBound(f.to, true);
  const list = items.filter((a) => {
    if (a.status === "completed" ? !f.completed : !f.abandoned) return false;
    const at = Date.parse(a.date);
    if (from != null && at < from) return false;
    if (to != null && at > to) return false;
    if (!needle) return true;
    return (
      String(a.id).includes(needle) ||
      (a.subjectName ?? "").toLowerCase().includes(needle) ||
      a.topics.some((t) => t.toLowerCase().includes(needle))
    );
  });
  const byDate = (a: A, b: A) => Date.parse(b.date) - Date.parse(a.date) || b.id - a.id;
  const sorters: Record<Sort, (a: A, b: A) => number> = {
    date_desc: byDate,
    date_asc: (a, b) => -byDate(a, b),
    score: (a, b) => (b.score ?? -1) - (a.score ?? -1) || byDate(a, b),
    time: (a, b) => a.timeSec - b.timeSec || byDate(a, b),
  };
  return list.sort(sorters[f.sort]);
}
