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
export function forecastSubject(
  groups: readonly TopicAnswers[],
  mix: ReadonlyMap<number, number>,
  /** The raw number of answers, when `groups` hold recency-weighted sums already (ageDays 0): a class's forecasts. */
  answers = groups.reduce((s, g) => s + g.n, 0),
): Forecast {
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

/**
 * The groups as they stood `daysAgo` whole days before their reference day: only the answers already given then, each
 * that much younger (the forecast's trend, issue 46).
 */
export function groupsAsOf(groups: readonly TopicAnswers[], daysAgo: number): TopicAnswers[] {
  if (daysAgo <= 0) return [...groups];
  return groups.filter((g) => g.ageDays >= daysAgo).map((g) => ({ ...g, ageDays: g.ageDays - daysAgo }));
}

// --- The pass mark and the ranking section (issue 29) ---
//
// P(≥ 18) is the posterior predictive of ONE real paper: the exam's accuracy p follows the Beta that matches the
// mix posterior's mean and sd (mixPosterior), and the number right on a paper of `questions`, every one answered, is
// Binomial(questions, p): a Beta-binomial. A raw score of the pass mark or more passes (31 questions, +1 / −0,1:
// 20 right = 18,9 passes, 19 right = 17,8 fails). Subjects are taken as independent for the section.

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9): enough for Beta-binomial probabilities. */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const lnBeta = (a: number, b: number) => lnGamma(a) + lnGamma(b) - lnGamma(a + b);

/** The fewest right answers (all questions answered) that reach `passMark` with the given scoring. */
export function rightNeededToPass(questions: number, passMark: number, scoring = { right: 1, wrong: -WRONG_PENALTY }) {
  return Math.max(0, Math.ceil((passMark - questions * scoring.wrong) / (scoring.right - scoring.wrong) - 1e-9));
}

/** P(number right ≥ k) on a paper of n questions when the accuracy is Beta with this mean and sd. */
export function betaBinomialAtLeast(k: number, n: number, mean: number, sd: number): number {
  const m = Math.min(1 - 1e-6, Math.max(1e-6, mean));
  const variance = Math.max(1e-12, sd * sd);
  // Moment matching; a variance at or above m(1 − m) cannot be a Beta: keep a very weak one instead.
  const strength = Math.max(0.5, (m * (1 - m)) / variance - 1);
  const a = m * strength;
  const b = (1 - m) * strength;
  let p = 0;
  for (let x = Math.max(0, k); x <= n; x++) {
    const lnChoose = lnGamma(n + 1) - lnGamma(x + 1) - lnGamma(n - x + 1);
    p += Math.exp(lnChoose + lnBeta(x + a, n - x + b) - lnBeta(a, b));
  }
  return Math.min(1, Math.max(0, p));
}

/** P(raw score ≥ pass mark) on one real paper, from a subject's answers (null below FORECAST_MIN_ANSWERS). */
export function passProbability(
  groups: readonly TopicAnswers[],
  mix: ReadonlyMap<number, number>,
  paper: { questions: number; passMark: number; scoring?: { right: number; wrong: number } } = {
    questions: SCORE_SCALE,
    passMark: 18,
  },
): number | null {
  const answers = groups.reduce((s, g) => s + g.n, 0);
  if (answers < FORECAST_MIN_ANSWERS) return null;
  const { mean, sd } = mixPosterior(groups, mix);
  // The edition's scoring (issue 44: the forecast followed a constant +1 / −0,1 whatever the edition said).
  const needed = rightNeededToPass(paper.questions, paper.passMark, paper.scoring);
  return betaBinomialAtLeast(needed, paper.questions, mean, sd);
}

/** A ranking section: the exams passed × the edition's section points (300, 200, 100 or 0 in 2026/27). */
export type RankingSection = number;

/**
 * The ranking sections (three exams passed: 3 × `sectionPoints` + grades; two: 2 ×; one: 1 ×; none: 0), each with
 * its probability; the points come from the edition (sectionPoints: 100 in 2026/27).
 */
export function sectionProbabilities(passes: readonly number[], sectionPoints = 100): Map<RankingSection, number> {
  // Distribution of the number of exams passed, subjects independent.
  let dist = [1];
  for (const p of passes) {
    const next = new Array(dist.length + 1).fill(0) as number[];
    dist.forEach((q, i) => {
      next[i] += q * (1 - p);
      next[i + 1] += q * p;
    });
    dist = next;
  }
  // Highest section first (ties in expectedSection go to the higher one, as before).
  return new Map<RankingSection, number>(
    dist.map((_, i) => dist.length - 1 - i).map((passed) => [passed * sectionPoints, dist[passed] ?? 0]),
  );
}

/** The most likely section with its probability. */
export function expectedSection(
  passes: readonly number[],
  sectionPoints = 100,
): { section: RankingSection; probability: number } {
  let best: { section: RankingSection; probability: number } = { section: 0, probability: -1 };
  for (const [section, probability] of sectionProbabilities(passes, sectionPoints))
    if (probability > best.probability) best = { section, probability };
  return best;
}
