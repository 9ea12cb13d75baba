// Calendar days in Italy's time (Europe/Rome): an attempt at 00:30 in Rome belongs to that day, not
// to the previous one as it would in UTC. Days are 'YYYY-MM-DD' texts, compared as strings.
// `italianDaySql` in ~/server/db/aggregate-sql is the same rule in SQL.
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { TIME_ZONE } from "./constants";

/** An instant as a date whose fields (day, hour…) are Italy's wall clock, for date-fns `format`. */
export function italianTime(at: number | Date): TZDate {
  return new TZDate(typeof at === "number" ? at : at.getTime(), TIME_ZONE);
}

/** The day in Italy of an instant, as 'YYYY-MM-DD'. */
export function italianDay(at: number | Date): string {
  return format(italianTime(at), "yyyy-MM-dd");
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
