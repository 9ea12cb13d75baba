// Statistics by syllabus unit (issue 18): topics are sub-topics of units, so a unit's counts are the sum
// of its topics'. The dashboard's accuracy panel and "Suggeriti da ripassare" can show units instead of
// topics; the admin analytics list accuracy per unit. Pure, no I/O.
import type { TopicStat, WeakTopic } from "./analytics";
import { weakestTopics } from "./analytics";
import type { SubjectAnalytics, TopicCounts } from "./analytics-types";

export type UnitInfo = { number: number; title: string; credits: number };
/** A unit's row: `topicId` holds the unit's number (the charts key rows by it); `weakestTopicId` is where a targeted review goes. */
export type UnitStat = TopicStat & { unit: number; credits: number; weakestTopicId: number | null };

export const unitLabel = (u: { number: number; title: string }) => `U${u.number} · ${u.title}`;

/**
 * Each topic's unit in an exam edition (issue 29: unit statistics read the default edition): the unit most of the
 * topic's questions belong to in that edition (question_edition_units; ties to the lower unit). A topic with no
 * question in the edition's syllabus has none. Statistics are kept per topic, so this is the finest fair mapping.
 */
export function editionTopicUnits(rows: readonly { topicId: number | null; unit: number; n: number }[]) {
  const best = new Map<number, { unit: number; n: number }>();
  for (const r of rows) {
    if (r.topicId == null) continue;
    const n = Number(r.n);
    const cur = best.get(r.topicId);
    if (!cur || n > cur.n || (n === cur.n && r.unit < cur.unit)) best.set(r.topicId, { unit: r.unit, n });
  }
  return new Map([...best].map(([topicId, b]) => [topicId, b.unit]));
}

/** Sums topic counts per unit; topics outside every unit (legacy) are left out. */
export function sumByUnit(
  topicCounts: Record<string, TopicCounts | undefined>,
  topicUnits: Record<string, number | null | undefined>,
): Map<number, TopicCounts> {
  const out = new Map<number, TopicCounts>();
  for (const [topicId, counts] of Object.entries(topicCounts)) {
    const unit = topicUnits[topicId];
    if (unit == null || !counts) continue;
    const sum = out.get(unit) ?? { answered: 0, correct: 0 };
    sum.answered += counts.answered;
    sum.correct += counts.correct;
    out.set(unit, sum);
  }
  return out;
}

/** The student's accuracy per unit of a subject (empty for a subject without units). */
export function unitStats(subject: SubjectAnalytics | undefined): UnitStat[] {
  if (!subject?.units?.length || !subject.topicUnits) return [];
  const topicUnits = subject.topicUnits;
  const sums = sumByUnit(subject.studentTopicAccuracy, topicUnits);
  return subject.units.map((u) => {
    const topicsOfUnit: TopicStat[] = Object.entries(subject.topics)
      .filter(([id]) => topicUnits[id] === u.number)
      .map(([id, name]) => ({
        topicId: Number(id),
        name,
        answered: subject.studentTopicAccuracy[id]?.answered ?? 0,
        correct: subject.studentTopicAccuracy[id]?.correct ?? 0,
      }));
    const weakest = weakestTopics(topicsOfUnit, 1)[0] ?? topicsOfUnit[0];
    const counts = sums.get(u.number);
    return {
      topicId: u.number,
      unit: u.number,
      credits: u.credits,
      name: unitLabel(u),
      answered: counts?.answered ?? 0,
      correct: counts?.correct ?? 0,
      weakestTopicId: weakest?.topicId ?? null,
    };
  });
}

/** The weakest answered units, lowest accuracy first. */
export function weakestUnits(stats: UnitStat[], count?: number): (WeakTopic & UnitStat)[] {
  const weak = weakestTopics(stats, count);
  return weak.map((w) => ({ ...stats.find((s) => s.unit === w.topicId)!, accuracy: w.accuracy }));
}
