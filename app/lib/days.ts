// Calendar days in Italy's time (Europe/Rome): an attempt at 00:30 in Rome belongs to that day, not
// to the previous one as it would in UTC. Days are 'YYYY-MM-DD' texts, compared as strings.
// `italianDaySql` in ~/server/db/aggregate-sql is the same rule in SQL.
import { TZDate } from "@date-fns/tz";
import { isExists } from "date-fns";
import { TIME_ZONE } from "./constants.ts";

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/**
 * Whether a text is a day that exists, written 'YYYY-MM-DD' (issue 44). Every date an admin, a teacher or a student
 * types goes through it: `Date` and TZDate roll an impossible day over ('2026-02-31' reads as 3 March), so a shape
 * check alone lets one through. Years before 1000 are refused with the rest (no date of ours is that old).
 */
export function isCalendarDay(value: string): boolean {
  const m = CALENDAR_DAY.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  return year >= 1000 && isExists(year, Number(m[2]) - 1, Number(m[3]));
}

/** Whether a text is a time of day, 'HH:MM' or 'HH:MM:SS' from 00:00 to 23:59:59 (never '24:00', '10:75'). */
export function isClockTime(value: string): boolean {
  return CLOCK_TIME.test(value);
}

/** An instant as a date whose fields (day, hour…) are Italy's wall clock. */
export function italianTime(at: number | Date): TZDate {
  return new TZDate(typeof at === "number" ? at : at.getTime(), TIME_ZONE);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * Italy's wall clock of an instant as zero-padded fields (yyyy, MM, dd, HH, mm). Read from TZDate's getters rather
 * than date-fns `format`, whose token parser and English locale every screen showing a date would otherwise ship.
 */
export function italianClock(at: number | Date) {
  const t = italianTime(at);
  return {
    yyyy: pad(t.getFullYear(), 4),
    MM: pad(t.getMonth() + 1),
    dd: pad(t.getDate()),
    HH: pad(t.getHours()),
    mm: pad(t.getMinutes()),
  };
}

/** The day in Italy of an instant, as 'YYYY-MM-DD'. */
export function italianDay(at: number | Date): string {
  const c = italianClock(at);
  return `${c.yyyy}-${c.MM}-${c.dd}`;
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

/** The instant Italy's day `day` begins (its midnight, CET or CEST as that day has it). */
export function italianMidnight(day: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new TZDate(y, m - 1, d, 0, 0, TIME_ZONE).getTime();
}

/** The months' Italian names, January first (dates written in words: "10 dicembre"). */
export const ITALIAN_MONTHS = [
  "gennaio",
  "febbraio",
  "marzo",
  "aprile",
  "maggio",
  "giugno",
  "luglio",
  "agosto",
  "settembre",
  "ottobre",
  "novembre",
  "dicembre",
] as const;
