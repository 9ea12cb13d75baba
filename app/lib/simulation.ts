// Pure, isomorphic logic of live simulations: the flow of subjects and breaks over time, the clock
// offset estimated from round trips, and the grading of a simulation attempt (spec section 9).
import { SCORE_SCALE, WRONG_PENALTY } from "./constants.ts";
import { gapVerdict } from "./gap-answer.ts";

export type FlowSubject = { id: number; name: string; timeMin: number; breakAfterMin: number };

export type FlowPhase =
  | { kind: "waiting"; index: 0; endsAt: number | null }
  | { kind: "subject"; index: number; startsAt: number; endsAt: number }
  | { kind: "break"; index: number; startsAt: number; endsAt: number }
  | { kind: "finished"; index: number; endsAt: number };

const MINUTE = 60_000;

/** Start and end instants (ms) of every subject; breaks sit between one end and the next start. */
export function subjectWindows(
  flow: readonly FlowSubject[],
  startTime: number,
): { startsAt: number; endsAt: number }[] {
  let t = startTime;
  return flow.map((s, i) => {
    const startsAt = t;
    const endsAt = startsAt + s.timeMin * MINUTE;
    t = endsAt + (i < flow.length - 1 ? s.breakAfterMin * MINUTE : 0);
    return { startsAt, endsAt };
  });
}

/** When the last subject closes (no break counted after it). */
export function flowEnd(flow: readonly FlowSubject[], startTime: number): number {
  const w = subjectWindows(flow, startTime);
  return w.length ? w[w.length - 1]!.endsAt : startTime;
}

/**
 * Where the exam stands at `now` (server time): each subject's duration (and break) is subtracted
 * in order from the elapsed time; once all have elapsed the exam is finished.
 */
export function phaseAt(flow: readonly FlowSubject[], startTime: number | null, now: number): FlowPhase {
  if (startTime == null || now < startTime) return { kind: "waiting", index: 0, endsAt: startTime };
  const windows = subjectWindows(flow, startTime);
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i]!;
    if (now < w.endsAt) return { kind: "subject", index: i, startsAt: w.startsAt, endsAt: w.endsAt };
    const next = windows[i + 1];
    if (next && now < next.startsAt) return { kind: "break", index: i, startsAt: w.endsAt, endsAt: next.startsAt };
  }
  return { kind: "finished", index: Math.max(0, flow.length - 1), endsAt: flowEnd(flow, startTime) };
}

/** The countdown turns red at max(10 s, 10 % of the subject time). */
export function isCountdownCritical(remainingMs: number, subjectMs: number): boolean {
  return remainingMs <= Math.max(10_000, subjectMs * 0.1);
}

// --- Clock ---

/** One time-sync round trip: client monotonic send/receive instants and the server's clock. */
export type ClockSample = { sentAt: number; receivedAt: number; serverTime: number };

/**
 * Offset such that serverTime ≈ clientMonotonic + offset. The samples with the shortest round
 * trip carry the least queueing noise: keep the `keep` fastest and take their median offset.
 */
export function estimateClockOffset(samples: readonly ClockSample[], keep = 3): { offset: number; rtt: number } | null {
  const valid = samples.filter((s) => s.receivedAt >= s.sentAt && Number.isFinite(s.serverTime));
  if (valid.length === 0) return null;
  const fastest = [...valid]
    .sort((a, b) => a.receivedAt - a.sentAt - (b.receivedAt - b.sentAt))
    .slice(0, Math.max(1, keep));
  const offsets = fastest.map((s) => s.serverTime - (s.sentAt + s.receivedAt) / 2).sort((a, b) => a - b);
  const mid = Math.floor(offsets.length / 2);
  const offset = offsets.length % 2 ? offsets[mid]! : (offsets[mid - 1]! + offsets[mid]!) / 2;
  return { offset, rtt: fastest[0]!.receivedAt - fastest[0]!.sentAt };
}

// --- Grading ---

export type AnswerKey = {
  id: number;
  type: "mc" | "gap";
  options: string[] | null;
  correctIndex: number | null;
  accepted: string[] | null;
  /** gap: the unit printed after the blank and the numeric tolerance (see gap-answer.ts). */
  measure?: string | null;
  tolerance?: number | null;
};

/** null = blank, true/false = correct/wrong. mc answers are the chosen option's text. */
export function isCorrect(key: AnswerKey, answer: string | undefined | null): boolean | null {
  if (answer == null || answer.trim() === "") return null;
  if (key.type === "mc") {
    const correct = key.options?.[key.correctIndex ?? -1];
    return correct !== undefined && answer === correct;
  }
  // The one verdict on typed answers, on the same stored form as practice, redo and Rush.
  return gapVerdict(answer, { accepted: key.accepted ?? [], measure: key.measure, tolerance: key.tolerance });
}

/** A verdict function: isCorrect itself, or a memo of it (memoJudge). */
export type Judge = (key: AnswerKey, answer: string | undefined | null) => boolean | null;

/** Distinct answers remembered per question: enough for a room; past it the rest are judged each time. */
const JUDGED_PER_KEY = 4096;

/**
 * isCorrect with each (question, answer) pair judged once (issue 31): a room grading its thousand students meets a
 * handful of distinct answers per question (five options, a few spellings of a number), and the grading and the
 * question memories judge each answer twice. Same verdicts as isCorrect (a unit test holds them equal over the bank).
 */
export function memoJudge(): Judge {
  const seen = new Map<AnswerKey, Map<string, boolean | null>>();
  return (key, answer) => {
    if (answer == null) return null;
    let byAnswer = seen.get(key);
    if (!byAnswer) {
      byAnswer = new Map();
      seen.set(key, byAnswer);
    }
    let verdict = byAnswer.get(answer);
    if (verdict === undefined) {
      verdict = isCorrect(key, answer);
      if (byAnswer.size < JUDGED_PER_KEY) byAnswer.set(answer, verdict);
    }
    return verdict;
  };
}

/** Per subject: round(correct/total × 31 − wrong × 0.1); blanks cost nothing. */
export function simulationSubjectScore(correct: number, wrong: number, total: number): number {
  if (total <= 0) return 0;
  // `|| 0` turns Math.round(-0.1) = -0 into a plain 0.
  return Math.round((correct / total) * SCORE_SCALE - wrong * WRONG_PENALTY) || 0;
}

export function simulationAccuracy(correct: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((correct / total) * 100);
}

export type SubjectResult = {
  id: number;
  name: string;
  score31: number;
  perc: number;
  correct: number;
  wrong: number;
  total: number;
};
export type SimulationResult = { totale: number; percTot: number; subjects: SubjectResult[] };

export function gradeSimulation(
  subjects: readonly { id: number; name: string; keys: readonly AnswerKey[] }[],
  answers: Record<string, Record<string, string>>,
  judge: Judge = isCorrect,
): SimulationResult {
  const results = subjects.map((s) => {
    const given = answers[String(s.id)] ?? {};
    let correct = 0;
    let wrong = 0;
    for (const key of s.keys) {
      const verdict = judge(key, given[String(key.id)]);
      if (verdict === true) correct++;
      else if (verdict === false) wrong++;
    }
    const total = s.keys.length;
    return {
      id: s.id,
      name: s.name,
      score31: simulationSubjectScore(correct, wrong, total),
      perc: simulationAccuracy(correct, total),
      correct,
      wrong,
      total,
    };
  });
  const avg = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);
  return { totale: avg(results.map((r) => r.score31)), percTot: avg(results.map((r) => r.perc)), subjects: results };
}
