// The student analytics shape (spec section 3), shared by the server and the dashboard.
import type { HistogramBin } from "./analytics";

export type StudentAttempt = {
  id: number;
  /** ISO instant the attempt started. */
  date: string;
  /** Summary score on the 0-31 scale. */
  score: number;
  correct: number;
  total: number;
  timeSec: number;
  /** Taken offline on the device (issue 47): its date and time are the device's. */
  offline?: boolean;
  /** Name of the topic most of its questions came from. */
  topic: string | null;
  /** Every topic its questions touched (the sub-topic filter). */
  topicIds: number[];
};

export type TopicCounts = { answered: number; correct: number };

export type SiteAggregate = {
  /** Completed attempts per list score 0..31 (every bin present). */
  scoreDistribution: HistogramBin[];
  /** Site-wide average score per day (last 60 days). */
  attemptsOverTime: { date: string; avgScore: number; attempts: number }[];
  /** Topic id → share of correct answers (0-1) over every student. */
  topicAccuracy: Record<string, number>;
  /** Syllabus unit number → share of correct answers (0-1) over every student (semestre filtro subjects). */
  unitAccuracy?: Record<string, number>;
  /** Top 20% threshold (80th percentile) and 90th percentile of the distribution; null without data. */
  p80: number | null;
  p90: number | null;
  /** Mean list score over every completed attempt ('Media globale'). */
  average: number | null;
};

export type SubjectAnalytics = {
  id: number;
  name: string;
  /** Topic id → name. */
  topics: Record<string, string>;
  /** The subject's syllabus units (Biologia, Chimica, Fisica); empty for the others. */
  units?: { number: number; title: string; credits: number }[];
  /** Topic id → its unit's number (null: legacy or no unit). */
  topicUnits?: Record<string, number | null>;
  studentAttempts: StudentAttempt[];
  /** Topic id → the student's answered (non-blank) and correct answers. */
  studentTopicAccuracy: Record<string, TopicCounts>;
  siteAggregate: SiteAggregate;
};

export type StudentAnalytics = {
  studentId: number;
  studentName: string;
  improvementLastMonthPct: number | null;
  subjects: SubjectAnalytics[];
};
