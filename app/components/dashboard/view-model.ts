// What the dashboard shows for one subject and optional topic, derived from the analytics payload
// with the pure helpers of ~/lib/analytics. No I/O.
import { formatDecimal } from "~/lib/format";
import {
  countWeakTopics,
  daysBetween,
  inactivityDays,
  mean,
  median,
  minutesStudied,
  momentum,
  normalizeScore,
  percentileRank,
  preparationLevel,
  weakestTopics,
  type TopicStat,
} from "~/lib/analytics";
import type { StudentAnalytics, StudentAttempt, SubjectAnalytics } from "~/lib/analytics-types";

export function pickDefaultSubject(analytics: StudentAnalytics): number | null {
  let best: { id: number; date: string } | null = null;
  for (const s of analytics.subjects) {
    const last = s.studentAttempts[s.studentAttempts.length - 1];
    if (last && (!best || last.date > best.date)) best = { id: s.id, date: last.date };
  }
  return best?.id ?? analytics.subjects[0]?.id ?? null;
}

export function filterAttempts(subject: SubjectAnalytics | undefined, topicId: number | null): StudentAttempt[] {
  if (!subject) return [];
  return topicId == null
    ? subject.studentAttempts
    : subject.studentAttempts.filter((a) => a.topicIds.includes(topicId));
}

export function topicStats(subject: SubjectAnalytics | undefined): TopicStat[] {
  if (!subject) return [];
  return Object.entries(subject.topics).map(([id, name]) => {
    const counts = subject.studentTopicAccuracy[id];
    return { topicId: Number(id), name, answered: counts?.answered ?? 0, correct: counts?.correct ?? 0 };
  });
}

export type SubjectView = ReturnType<typeof subjectView>;

export function subjectView(
  analytics: StudentAnalytics,
  subjectId: number | null,
  topicId: number | null,
  now: number,
) {
  const subject = analytics.subjects.find((s) => s.id === subjectId);
  const attempts = filterAttempts(subject, topicId);
  const scores = attempts.map((a) => normalizeScore(a.score));
  const avg = mean(scores);
  const questions = attempts.reduce((n, a) => n + a.total, 0);
  const correct = attempts.reduce((n, a) => n + a.correct, 0);
  const seconds = attempts.reduce((n, a) => n + a.timeSec, 0);
  const stats = topicStats(subject);
  const last = attempts[attempts.length - 1];
  const everything = analytics.subjects.flatMap((s) => s.studentAttempts);
  const dist = subject?.siteAggregate.scoreDistribution ?? [];
  const distTotal = dist.reduce((n, b) => n + b.count, 0);
  return {
    subject,
    attempts,
    /** Taken offline (issue 47): labelled under the trend. */
    offlineCount: attempts.filter((a) => a.offline).length,
    scores,
    mean: avg,
    median: median(scores),
    preparation: preparationLevel(avg),
    accuracyPct: questions ? Math.round((correct / questions) * 100) : null,
    secondsPerQuestion: questions ? Math.round(seconds / questions) : null,
    coverage: { covered: stats.filter((t) => t.answered > 0).length, total: stats.length },
    daysSinceLast: last ? daysBetween(Date.parse(last.date), now) : null,
    momentum: momentum(scores),
    topicStats: stats,
    weakest: weakestTopics(stats),
    weakCount: countWeakTopics(stats),
    hasDistribution: distTotal > 0,
    rank: avg == null || distTotal === 0 ? null : percentileRank(dist, avg),
    minutesLast7Days: minutesStudied(everything, now),
    inactiveDays: inactivityDays(everything, now),
  };
}

export const fmt1 = (n: number | null | undefined) => (n == null ? "—" : formatDecimal(n, 1, 0));

export function signedPct(n: number | null): string {
  if (n == null) return "—";
  return `${n > 0 ? "+" : ""}${fmt1(n)}%`;
}

export function daysAgoText(days: number | null): string {
  if (days == null) return "Nessuna";
  if (days === 0) return "Oggi";
  if (days === 1) return "1 giorno fa";
  return `${days} giorni fa`;
}
