// Review of mistakes (spec sections 2, 4, 9): a wrong question rests 24 hours after its last wrong answer.
import { REVIEW_COOLDOWN_MS } from "./constants.ts";

export function reviewReadyAt(lastWrongAt: number): number {
  return lastWrongAt + REVIEW_COOLDOWN_MS;
}

/** 'in pausa' strictly before 24 hours have passed; ready from the 24th hour on. */
export function isReviewPaused(lastWrongAt: number, now: number): boolean {
  return now < reviewReadyAt(lastWrongAt);
}

/** 'Xh Ym' until the next paused question becomes ready (minutes rounded up, never 0h 0m). */
export function formatCountdown(ms: number): string {
  const totalMin = Math.max(1, Math.ceil(ms / 60_000));
  return `${Math.floor(totalMin / 60)}h ${totalMin % 60}m`;
}

/** A uniform random sample of up to `count` items (Fisher-Yates on a copy). */
export function sample<T>(items: readonly T[], count: number, random: () => number = Math.random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.max(0, count));
}
