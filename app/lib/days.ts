// Calendar days in Italy's time (Europe/Rome): an attempt at 00:30 in Rome belongs to that day, not
// to the previous one as it would in UTC. Days are 'YYYY-MM-DD' texts, compared as strings.
// `italianDaySql` in ~/server/db/aggregate-sql is the same rule in SQL.
import { TIME_ZONE } from "./constants";

const parts = new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

/** The day in Italy of an instant, as 'YYYY-MM-DD'. */
export function italianDay(at: number | Date): string {
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
}

/** The calendar day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + n)).toISOString().slice(0, 10);
}

/** The `count` calendar days that end with `lastDay`, oldest first. */
export function daysEndingOn(lastDay: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(lastDay, i - count + 1));
}

/** Italian midnight is one or two hours before UTC's: reading from this instant never misses the day. */
export function readFromForDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - 2 * 60 * 60 * 1000;
}
