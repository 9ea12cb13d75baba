// The score forecast: the expected score on the real exam scale (31 questions, +1 / 0 / −0.1) with an
// 80 % interval, from a student's answers in one subject. Pure and isomorphic.
//
// Model: each topic t has an accuracy p_t with a Beta posterior. Its prior is centred on the student's
// own accuracy over the whole subject (so a topic with few answers leans on the others) with a strength
// of PRIOR_STRENGTH answers; every answer counts with weight 0.5^(age / HALF_LIFE_DAYS), so recent
// answers count more. The exam's accuracy is the topic mix Σ π_t p_t (π: the exam's share of each
// topic). Its posterior mean and variance (including the uncertainty of the subject-wide centre)
// give a normal 80 % interval, mapped onto the score: every question answered, 31·p − 3.1·(1 − p).
import { SCORE_SCALE, WRONG_PENALTY } from "./constants.ts";

export const FORECAST_MIN_ANSWERS = 30;
export const HALF_LIFE_DAYS = 45;
export const PRIOR_STRENGTH = 8;
/** z for a central 80 % interval. */
const Z80 = 1.2815515655446004;
const DAY = 24 * 60 * 60 * 1000;

/** Answers of one topic, grouped by age: `n` answers of which `correct` right, `ageDays` old. */
export type TopicAnswers = { topicId: number; ageDays: number; n: number; correct: number };
export type Forecast = { predicted: number | null; low: number | null; high: number | null; answers: number };

/** Expected exam score for an accuracy p with every question answered. */
export function scoreForAccuracy(p: number): number {
  return SCORE_SCALE * p - WRONG_PENALTY * SCORE_SCALE * (1 - p);
}

export function recencyWeight(ageDays: number): number {
  return 0.5 ** (Math.max(0, ageDays) / HALF_LIFE_DAYS);
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** The accuracy posterior on the exam's topic mix: mean and standard deviation. */
export function mixPosterior(
  groups: readonly TopicAnswers[],
  mix: ReadonlyMap<number, number>,
): { mean: number; sd: number } {
  const byTopic = new Map<number, { n: number; k: number }>();
  let n = 0;
  let k = 0;
  for (const g of groups) {
    const w = recencyWeight(g.ageDays);
    const t = byTopic.get(g.topicId) ?? { n: 0, k: 0 };
    t.n += w * g.n;
    t.k += w * g.correct;
    byTopic.set(g.topicId, t);
    n += w * g.n;
    k += w * g.correct;
  }
  // The subject-wide centre: Beta(k + 1, n − k + 1).
  const a0 = k + 1;
  const b0 = n - k + 1;
  const m = a0 / (a0 + b0);
  const varM = (a0 * b0) / ((a0 + b0) ** 2 * (a0 + b0 + 1));
  // Topics of the exam mix; answered topics missing from the mix count with the mix's weights only.
  let totalWeight = 0;
  for (const w of mix.values()) totalWeight += w;
  if (totalWeight <= 0) return { mean: m, sd: Math.sqrt(varM) };
  let mean = 0;
  let variance = 0;
  let dMean = 0; // d(mean)/d(m): how much the mix leans on the centre
  for (const [topicId, weight] of mix) {
    const pi = weight / totalWeight;
    const t = byTopic.get(topicId) ?? { n: 0, k: 0 };
    const alpha = m * PRIOR_STRENGTH + t.k;
    const beta = (1 - m) * PRIOR_STRENGTH + (t.n - t.k);
    const s = alpha + beta;
    mean += pi * (alpha / s);
    variance += pi * pi * ((alpha * beta) / (s * s * (s + 1)));
    dMean += pi * (PRIOR_STRENGTH / s);
  }
  variance += dMean * dMean * varM;
  return { mean, sd: Math.sqrt(variance) };
}

/**
 * The forecast for one subject: `predicted` and the 80 % interval [low, high] on the exam scale,
 * or nulls with fewer than FORECAST_MIN_ANSWERS answers. `mix` maps topic id → share of the exam.
 */
export function forecastSubject(groups: readonly TopicAnswers[], mix: ReadonlyMap<number, number>): Forecast {
  const answers = groups.reduce((s, g) => s + g.n, 0);
  if (answers < FORECAST_MIN_ANSWERS) return { predicted: null, low: null, high: null, answers };
  const { mean, sd } = mixPosterior(groups, mix);
  return {
    predicted: round1(scoreForAccuracy(mean)),
    low: round1(scoreForAccuracy(clamp01(mean - Z80 * sd))),
    high: round1(scoreForAccuracy(clamp01(mean + Z80 * sd))),
    answers,
  };
}

/** Groups raw answers (time, topic, right or not) by topic and whole days of age at `now`. */
export function groupAnswers(
  answers: readonly { topicId: number; at: number; correct: boolean }[],
  now: number,
): TopicAnswers[] {
  const groups = new Map<string, TopicAnswers>();
  for (const a of answers) {
    const ageDays = Math.max(0, Math.floor((now - a.at) / DAY));
    const key = `${a.topicId}:${ageDays}`;
    const g = groups.get(key) ?? { topicId: a.topicId, ageDays, n: 0, correct: 0 };
    g.n++;
    if (a.correct) g.correct++;
    groups.set(key, g);
  }
  return [...groups.values()];
}
