// The learning engine's scheduling rule: how a graded answer becomes an FSRS rating, and one review
// step of a question's memory state with ts-fsrs. Pure and isomorphic: the grading write, the
// recalc-stats rebuild, the seed (Node) and the bench all replay answers through `reviewMemory`.
import { createEmptyCard, fsrs, generatorParameters, Rating, type Card, type Grade } from "ts-fsrs";
import { REVIEW_COOLDOWN_MS } from "./constants.ts";

/** The real exam's pace: 45 minutes for 31 questions (≈ 87 s a question). */
export const EXAM_PACE_SEC = (45 * 60) / 31;

/**
 * wrong → Again; blank → Again; right → Good, or Hard when it took longer than the exam's pace.
 * `timeSec` null or 0 means the time is unknown (simulations, old imports): a right answer is Good.
 */
export function ratingFor(correct: boolean | null, timeSec: number | null | undefined): Grade {
  if (correct !== true) return Rating.Again;
  return timeSec != null && timeSec > EXAM_PACE_SEC ? Rating.Hard : Rating.Good;
}

// One exam day ahead, so whole days are the unit: no intraday learning steps (enable_short_term off,
// Again comes back the next day), no fuzz (the same history always gives the same schedule), and no
// interval longer than a year.
const scheduler = fsrs(generatorParameters({ enable_short_term: false, enable_fuzz: false, maximum_interval: 365 }));

/** The stored memory of one student for one question (the columns of question_memory). */
export type MemoryState = {
  due: number;
  stability: number;
  difficulty: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: number;
  lastReview: number;
  lastCorrect: boolean | null;
};

/**
 * A memory as the columns of question_memory after user_id and question_id, in table order (due … last_correct,
 * the verdict as 1 / 0 / null): the grading batch, the seed and the benchmark write it the same way.
 */
export function memoryColumns(m: MemoryState): (number | null)[] {
  return [
    m.due,
    m.stability,
    m.difficulty,
    m.scheduledDays,
    m.learningSteps,
    m.reps,
    m.lapses,
    m.state,
    m.lastReview,
    m.lastCorrect == null ? null : m.lastCorrect ? 1 : 0,
  ];
}

export type ReviewInput = { correct: boolean | null; timeSec: number | null | undefined; at: number };

function cardOf(memory: MemoryState | null | undefined, at: number): Card {
  if (!memory) return createEmptyCard(new Date(at));
  return {
    due: new Date(memory.due),
    stability: memory.stability,
    difficulty: memory.difficulty,
    elapsed_days: 0,
    scheduled_days: memory.scheduledDays,
    learning_steps: memory.learningSteps,
    reps: memory.reps,
    lapses: memory.lapses,
    state: memory.state,
    last_review: new Date(memory.lastReview),
  };
}

/**
 * The memory after one more answer. A review older than the stored one (an out-of-order write)
 * leaves the memory as it is.
 */
export function reviewMemory(memory: MemoryState | null | undefined, review: ReviewInput): MemoryState {
  if (memory && review.at < memory.lastReview) return memory;
  const { card } = scheduler.next(
    cardOf(memory, review.at),
    new Date(review.at),
    ratingFor(review.correct, review.timeSec),
  );
  // Again (wrong or blank) comes back exactly after the spec's 24 h pause: never earlier (the floor of
  // /ripasso/errori), never later (a mistake is reviewed the next day, whatever the old stability).
  const due = review.correct === true ? card.due.getTime() : review.at + REVIEW_COOLDOWN_MS;
  return {
    due,
    stability: card.stability,
    difficulty: card.difficulty,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    lastReview: review.at,
    lastCorrect: review.correct,
  };
}

/** Replays a question's answers (any order; sorted by time here) from an empty memory. */
export function replayMemory(reviews: readonly ReviewInput[]): MemoryState | null {
  let memory: MemoryState | null = null;
  for (const review of [...reviews].sort((a, b) => a.at - b.at)) memory = reviewMemory(memory, review);
  return memory;
}
