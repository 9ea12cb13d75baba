// Timer levels of a practice quiz (spec section 5): seconds per question, total = questions × seconds.
import {
  MAX_QUESTIONS,
  MIN_QUESTIONS,
  OFFLINE_QUIZ_TTL_MS,
  TIMER_LEVELS,
  type TimerLevel,
  UNTIMED_ABANDON_MS,
} from "./constants.ts";

export type TimerChoice = TimerLevel | "nessuno";

export const TIMER_CHOICES: { value: TimerChoice; label: string }[] = [
  { value: "nessuno", label: "Nessuno" },
  { value: "poco", label: "Poco" },
  { value: "giusto", label: "Giusto" },
  { value: "tanto", label: "Tanto" },
];

/** Clamps a question count to 1-31; anything unreadable becomes the minimum. */
export function clampQuestionCount(value: unknown, fallback = MIN_QUESTIONS): number {
  const n = Math.round(Number(value));
  if (!Number.isFinite(n)) return fallback;
  return Math.min(MAX_QUESTIONS, Math.max(MIN_QUESTIONS, n));
}

/** Total seconds of the timer, or null for 'Nessuno'. */
export function timerTotalSeconds(choice: TimerChoice, questions: number): number | null {
  if (choice === "nessuno") return null;
  return TIMER_LEVELS[choice] * questions;
}

/** Maps a prefilled total back to a level only when the ratio is exactly 40, 60 or 90. */
export function timerChoiceFromTotal(totalSec: number | null | undefined, questions: number): TimerChoice {
  if (!totalSec || !questions) return "nessuno";
  const ratio = totalSec / questions;
  for (const [level, seconds] of Object.entries(TIMER_LEVELS) as [TimerLevel, number][]) {
    if (ratio === seconds) return level;
  }
  return "nessuno";
}

/** 'm:ss' (or 'h:mm:ss') for countdowns and totals. */
export function formatClock(totalSec: number): string {
  const s = Math.max(0, Math.round(totalSec));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Seconds a timed submission may arrive after the countdown ends (network latency, retries). */
export const SUBMIT_GRACE_MS = 60_000;

/**
 * THE deadline rule of a practice quiz (issue 19: one function): the instant after which a drawn, never-submitted
 * attempt counts as abandoned: its timer plus the grace or, without a timer (null or 0), UNTIMED_ABANDON_MS.
 * A quiz downloaded for offline use (issue 47: `attempts.offline`) is open for OFFLINE_QUIZ_TTL_MS (7 days) from its
 * download, timer or not: the server cannot see when the student starts it on the device, whose own countdown runs
 * its timer, and a week covers a trip without signal while its questions stay sealed for their owner.
 * The runner's loader, the submission and the sealing/abandoning SQL (attemptDeadlineSql) all follow it.
 */
export function attemptDeadline(
  startedAtMs: number,
  timeLimitSec: number | null | undefined,
  offline: boolean,
): number {
  if (offline) return startedAtMs + OFFLINE_QUIZ_TTL_MS;
  return timeLimitSec ? startedAtMs + timeLimitSec * 1000 + SUBMIT_GRACE_MS : startedAtMs + UNTIMED_ABANDON_MS;
}

/** Whether an attempt can still be submitted at `now` (in progress and before attemptDeadline). */
export function attemptOpen(
  status: string,
  startedAtMs: number,
  timeLimitSec: number | null | undefined,
  offline: boolean,
  now: number,
): boolean {
  return status === "in_progress" && now <= attemptDeadline(startedAtMs, timeLimitSec, offline);
}

/**
 * The same deadline as a SQL expression over the columns (or subqueries) holding the start, the timer and the
 * offline flag.
 */
export function attemptDeadlineSql(startedAt: string, timeLimitSec: string, offline: string): string {
  const online = `COALESCE(NULLIF(${timeLimitSec}, 0) * 1000 + ${SUBMIT_GRACE_MS}, ${UNTIMED_ABANDON_MS})`;
  return `(${startedAt} + CASE WHEN ${offline} = 1 THEN ${OFFLINE_QUIZ_TTL_MS} ELSE ${online} END)`;
}
