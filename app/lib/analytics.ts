// Pure analytics helpers for the dashboard (spec section 9): score normalisation, averages,
// percentiles over the site histogram, momentum, weak topics, preparation level, study windows.
// Shared by the server (analytics.server.ts) and the dashboard components; no I/O here.
import {
  HIGH_PREPARATION,
  INACTIVITY_NOTICE_DAYS,
  MOMENTUM_WINDOW,
  RECENT_STUDY_DAYS,
  SCORE_SCALE,
  SUGGESTED_TOPICS,
  TOPIC_LABEL_MAX,
  WEAK_TOPIC_THRESHOLD,
} from "./constants.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A score of 1 or less is a fraction of the scale (spec section 9); the result is clamped to 0-31. */
export function normalizeScore(score: number): number {
  const value = score <= 1 ? score * SCORE_SCALE : score;
  return Math.min(SCORE_SCALE, Math.max(0, value));
}

/** Histogram bin of an attempt: its summary score rounded and kept in 0-31 (list score without one). */
export function scoreBin(score: number | null, correct: number, total: number): number {
  const value = score ?? (total > 0 ? (correct * SCORE_SCALE) / total : 0);
  return Math.round(Math.min(SCORE_SCALE, Math.max(0, value)));
}

export function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const round1 = (n: number) => Math.round(n * 10) / 10;

export type HistogramBin = { score: number; count: number };

/** The 0-31 histogram with every bin present (missing scores count 0). */
export function fullHistogram(bins: HistogramBin[]): HistogramBin[] {
  const counts = new Map<number, number>();
  for (const b of bins) counts.set(b.score, (counts.get(b.score) ?? 0) + b.count);
  return Array.from({ length: SCORE_SCALE + 1 }, (_, score) => ({ score, count: counts.get(score) ?? 0 }));
}

/** The score at percentile p (0-100) of a histogram: the lowest score whose cumulative share reaches p. */
export function histogramPercentile(bins: HistogramBin[], p: number): number | null {
  const sorted = [...bins].filter((b) => b.count > 0).sort((a, b) => a.score - b.score);
  const total = sorted.reduce((a, b) => a + b.count, 0);
  if (total === 0) return null;
  const target = (p / 100) * total;
  let cumulative = 0;
  for (const bin of sorted) {
    cumulative += bin.count;
    if (cumulative >= target) return bin.score;
  }
  return sorted[sorted.length - 1]!.score;
}

/** Share (0-100, rounded) of the histogram strictly below `value`: 'Tu sopra al N% degli studenti'. */
export function percentileRank(bins: HistogramBin[], value: number): number | null {
  const total = bins.reduce((a, b) => a + b.count, 0);
  if (total === 0) return null;
  const below = bins.filter((b) => b.score < value).reduce((a, b) => a + b.count, 0);
  return Math.round((below / total) * 100);
}

/** Mean score of a histogram. */
export function histogramMean(bins: HistogramBin[]): number | null {
  const total = bins.reduce((a, b) => a + b.count, 0);
  if (total === 0) return null;
  return bins.reduce((a, b) => a + b.score * b.count, 0) / total;
}

export type Momentum = { last: number; previous: number; delta: number };

/** Mean of the last 3 scores against the 3 before (chronological input); null with fewer than 6. */
export function momentum(scoresChronological: number[], window = MOMENTUM_WINDOW): Momentum | null {
  if (scoresChronological.length < window * 2) return null;
  const last = mean(scoresChronological.slice(-window))!;
  const previous = mean(scoresChronological.slice(-window * 2, -window))!;
  return { last: round1(last), previous: round1(previous), delta: round1(last - previous) };
}

export type TopicStat = { topicId: number; name: string; answered: number; correct: number };
export type WeakTopic = TopicStat & { accuracy: number };

/** The weakest answered topics, lowest accuracy first (ties: more answers first, then name). */
export function weakestTopics(stats: TopicStat[], count = SUGGESTED_TOPICS): WeakTopic[] {
  return stats
    .filter((t) => t.answered > 0)
    .map((t) => ({ ...t, accuracy: t.correct / t.answered }))
    .sort((a, b) => a.accuracy - b.accuracy || b.answered - a.answered || a.name.localeCompare(b.name))
    .slice(0, count);
}

/** Topics answered at least once whose accuracy is under 60%. */
export function countWeakTopics(stats: TopicStat[]): number {
  return stats.filter((t) => t.answered > 0 && t.correct / t.answered < WEAK_TOPIC_THRESHOLD).length;
}

export type PreparationLevel = { pct: number; label: "Alta" | "Media" | "Bassa" };

/** Preparation = mean score as a share of 31; above 80% is high, from 60% medium, else low. */
export function preparationLevel(meanScore: number | null): PreparationLevel | null {
  if (meanScore == null) return null;
  const pct = Math.round((normalizeScore(meanScore) / SCORE_SCALE) * 100);
  const label = pct > HIGH_PREPARATION * 100 ? "Alta" : pct >= WEAK_TOPIC_THRESHOLD * 100 ? "Media" : "Bassa";
  return { pct, label };
}

/** Cut to at most 24 characters, with an ellipsis when cut. */
export function truncateLabel(label: string, max = TOPIC_LABEL_MAX): string {
  return label.length <= max ? label : `${label.slice(0, max - 1).trimEnd()}…`;
}

/** Whole days between two instants (0 on the same day-length window). */
export function daysBetween(from: number, to: number): number {
  return Math.max(0, Math.floor((to - from) / DAY_MS));
}

export type DatedAttempt = { date: string; score: number; timeSec: number };

/** Minutes spent on attempts started in the last 7 days. */
export function minutesStudied(attempts: DatedAttempt[], now: number, days = RECENT_STUDY_DAYS): number {
  const since = now - days * DAY_MS;
  const seconds = attempts.filter((a) => Date.parse(a.date) >= since).reduce((s, a) => s + (a.timeSec || 0), 0);
  return Math.round(seconds / 60);
}

/** Days since the last attempt when that gap exceeds 5 days ('Sei fermo da N giorni'), else null. */
export function inactivityDays(attempts: DatedAttempt[], now: number): number | null {
  if (attempts.length === 0) return null;
  const last = Math.max(...attempts.map((a) => Date.parse(a.date)));
  const days = daysBetween(last, now);
  return days > INACTIVITY_NOTICE_DAYS ? days : null;
}

/**
 * 'Variazione mese': mean score of the last 30 days against the 30 days before, as a percentage
 * change (one decimal); null when either window is empty.
 */
export function improvementLastMonthPct(attempts: DatedAttempt[], now: number): number | null {
  const month = 30 * DAY_MS;
  const current: number[] = [];
  const previous: number[] = [];
  for (const a of attempts) {
    const t = Date.parse(a.date);
    if (t > now - month && t <= now) current.push(normalizeScore(a.score));
    else if (t > now - 2 * month && t <= now - month) previous.push(normalizeScore(a.score));
  }
  const cur = mean(current);
  const prev = mean(previous);
  if (cur == null || prev == null || prev === 0) return null;
  return round1(((cur - prev) / prev) * 100);
}
