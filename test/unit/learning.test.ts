import { Rating } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { REVIEW_COOLDOWN_MS } from "~/lib/constants";
import {
  expectedSection,
  forecastSubject,
  groupAnswers,
  passProbability,
  rightNeededToPass,
  scoreForAccuracy,
  sectionProbabilities,
  type TopicAnswers,
} from "~/lib/forecast";
import { EXAM_PACE_SEC, ratingFor, replayMemory, reviewMemory, type MemoryState } from "~/lib/fsrs-rating";
import { prng } from "~/lib/prng";

const DAY = 24 * 60 * 60 * 1000;

describe("answer → FSRS rating", () => {
  it("wrong and blank are Again; right is Good, or Hard slower than the exam's pace (45 min / 31)", () => {
    expect(EXAM_PACE_SEC).toBeCloseTo(87.1, 1);
    expect(ratingFor(false, 10)).toBe(Rating.Again);
    expect(ratingFor(null, 10)).toBe(Rating.Again);
    expect(ratingFor(true, 30)).toBe(Rating.Good);
    expect(ratingFor(true, 87)).toBe(Rating.Good);
    expect(ratingFor(true, 88)).toBe(Rating.Hard);
    expect(ratingFor(true, null)).toBe(Rating.Good);
  });

  it("a slow right answer gives a shorter interval than a quick one", () => {
    const t0 = Date.UTC(2026, 0, 1, 9);
    const quick = reviewMemory(null, { correct: true, timeSec: 20, at: t0 });
    const slow = reviewMemory(null, { correct: true, timeSec: 200, at: t0 });
    expect(slow.due).toBeLessThan(quick.due);
  });

  it("a mistake is never due before the 24 h pause; an older review does not overwrite a newer one", () => {
    const t0 = Date.UTC(2026, 0, 1, 9);
    const m = reviewMemory(null, { correct: false, timeSec: 20, at: t0 });
    expect(m.due).toBeGreaterThanOrEqual(t0 + REVIEW_COOLDOWN_MS);
    expect(m.due).toBeLessThanOrEqual(t0 + DAY);
    const later = reviewMemory(m, { correct: true, timeSec: 20, at: t0 + 2 * DAY });
    expect(reviewMemory(later, { correct: false, timeSec: 20, at: t0 + DAY })).toBe(later);
    expect(
      replayMemory([
        { correct: true, timeSec: 20, at: t0 + 2 * DAY },
        { correct: false, timeSec: 20, at: t0 },
      ]),
    ).toEqual(later);
  });
});

describe("a simulated learner answering for 60 days", () => {
  it("wrong answers come back within a day, right ones space out, nothing due is lost", () => {
    const rand = prng(7);
    const topics = [0.35, 0.6, 0.85]; // true accuracy per topic
    const questions = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, p: topics[i % topics.length]! }));
    const memory = new Map<number, MemoryState>();
    const start = Date.UTC(2026, 0, 1, 8);
    // The intervals given by the current run of right answers of each question (emptied by a mistake).
    const streak = new Map<number, number[]>();
    let pairs = 0;
    let shorter = 0;
    let stabilityPairs = 0;
    let stabilityGrew = 0;
    let runsOfFour = 0;
    let grewOverFour = 0;
    let reviewedDue = 0;
    for (let day = 0; day < 60; day++) {
      const now = start + day * DAY;
      // Every morning: all that is due, plus 5 new questions while some are left.
      const due = questions.filter((q) => memory.has(q.id) && memory.get(q.id)!.due <= now);
      const fresh = questions.filter((q) => !memory.has(q.id)).slice(0, 5);
      for (const q of [...due, ...fresh]) {
        const before = memory.get(q.id);
        if (before) reviewedDue++;
        const correct = rand() < q.p;
        const after = reviewMemory(before, { correct, timeSec: 40, at: now });
        const interval = after.due - now;
        if (!correct) {
          expect(interval).toBeLessThanOrEqual(DAY);
          streak.set(q.id, []);
        } else {
          const run = [...(streak.get(q.id) ?? []), interval];
          if (run.length >= 2) {
            pairs++;
            if (interval < run[run.length - 2]!) shorter++;
          }
          if (run.length >= 2) {
            stabilityPairs++;
            if (after.stability > before!.stability) stabilityGrew++;
          }
          if (run.length >= 4) {
            runsOfFour++;
            if (interval > run[0]!) grewOverFour++;
          }
          streak.set(q.id, run);
        }
        memory.set(q.id, after);
      }
      // Nothing due is lost: every question seen has a memory and a finite due date, and whatever was
      // due this morning is scheduled again in the future.
      for (const q of due) expect(memory.get(q.id)!.due).toBeGreaterThan(now);
    }
    expect(memory.size).toBe(questions.length);
    expect(reviewedDue).toBeGreaterThan(100);
    for (const m of memory.values()) expect(Number.isFinite(m.due)).toBe(true);
    // Right ones space out: a right answer after a right answer never gives a shorter interval and
    // always a higher stability, and four in a row end on a longer interval than they started with.
    expect(pairs).toBeGreaterThan(30);
    expect(shorter).toBe(0);
    expect(stabilityGrew).toBe(stabilityPairs);
    expect(runsOfFour).toBeGreaterThan(5);
    expect(grewOverFour).toBe(runsOfFour);
    // Questions of the hard topic are reviewed more often than those of the easy one.
    const reps = (p: number) => questions.filter((q) => q.p === p).reduce((s, q) => s + memory.get(q.id)!.reps, 0);
    expect(reps(0.35)).toBeGreaterThan(reps(0.85));
  });
});

describe("score forecast", () => {
  const mix = new Map([
    [1, 0.3],
    [2, 0.25],
    [3, 0.2],
    [4, 0.15],
    [5, 0.1],
  ]);

  it("needs 30 answers; the interval contains the prediction and stays on the exam scale", () => {
    const few = [{ topicId: 1, ageDays: 0, n: 29, correct: 20 }];
    expect(forecastSubject(few, mix)).toEqual({ predicted: null, low: null, high: null, answers: 29 });
    const f = forecastSubject([{ topicId: 1, ageDays: 0, n: 30, correct: 30 }], mix);
    expect(f.answers).toBe(30);
    expect(f.low!).toBeLessThanOrEqual(f.predicted!);
    expect(f.high!).toBeGreaterThanOrEqual(f.predicted!);
    expect(f.high!).toBeLessThanOrEqual(31);
    expect(scoreForAccuracy(0)).toBeCloseTo(-3.1);
    expect(scoreForAccuracy(1)).toBe(31);
  });

  it("recent answers count more than old ones", () => {
    const oldRight = [
      { topicId: 1, ageDays: 90, n: 40, correct: 40 },
      { topicId: 1, ageDays: 0, n: 40, correct: 10 },
    ];
    const recentRight = [
      { topicId: 1, ageDays: 90, n: 40, correct: 10 },
      { topicId: 1, ageDays: 0, n: 40, correct: 40 },
    ];
    expect(forecastSubject(recentRight, mix).predicted!).toBeGreaterThan(forecastSubject(oldRight, mix).predicted! + 5);
  });

  it("more answers give a narrower interval", () => {
    const width = (n: number) => {
      const f = forecastSubject(
        [...mix.keys()].map((topicId) => ({ topicId, ageDays: 1, n, correct: Math.round(n * 0.6) })),
        mix,
      );
      return f.high! - f.low!;
    };
    expect(width(50)).toBeLessThan(width(8));
  });

  it("calibration: for 200 synthetic students the 80 % interval covers the true expected score for 75-90 % of them", () => {
    const rand = prng(2026);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    const now = Date.UTC(2026, 5, 1);
    const topicIds = [...mix.keys()];
    let covered = 0;
    const students = 200;
    for (let s = 0; s < students; s++) {
      const ability = 0.25 + rand() * 0.65;
      const p = new Map(topicIds.map((t) => [t, Math.min(0.98, Math.max(0.02, ability + normal() * 0.1))]));
      const trueScore = scoreForAccuracy(topicIds.reduce((sum, t) => sum + mix.get(t)! * p.get(t)!, 0));
      // 30-300 answers over the last 60 days, topics drawn as a random practice quiz draws them.
      const n = 30 + Math.floor(rand() * 271);
      const answers: { topicId: number; at: number; correct: boolean }[] = [];
      for (let i = 0; i < n; i++) {
        let r = rand();
        const topicId = topicIds.find((t) => (r -= mix.get(t)!) < 0) ?? topicIds[topicIds.length - 1]!;
        answers.push({ topicId, at: now - rand() * 60 * DAY, correct: rand() < p.get(topicId)! });
      }
      const groups: TopicAnswers[] = groupAnswers(answers, now);
      const f = forecastSubject(groups, mix);
      expect(f.answers).toBe(n);
      if (f.low! <= trueScore && trueScore <= f.high!) covered++;
    }
    const coverage = covered / students;
    expect(coverage).toBeGreaterThanOrEqual(0.75);
    expect(coverage).toBeLessThanOrEqual(0.9);
  });
});

describe("Test mirato weights and peer difficulty", () => {
  it("weak topics, due and unseen questions weigh more; questions near the student's level are preferred", async () => {
    const { peerDifficulty, targetedWeight, weightedSample } = await import("~/server/learning-advice.server");
    const base = { topicAccuracy: 0.5, due: false, seen: false, peerShare: null };
    expect(targetedWeight({ ...base, topicAccuracy: 0.2 })).toBeGreaterThan(
      targetedWeight({ ...base, topicAccuracy: 0.9 }),
    );
    expect(targetedWeight({ ...base, seen: true, due: true })).toBeGreaterThan(targetedWeight(base));
    expect(targetedWeight(base)).toBeGreaterThan(targetedWeight({ ...base, seen: true }));
    expect(targetedWeight({ ...base, peerShare: 0.5 })).toBeGreaterThan(targetedWeight({ ...base, peerShare: 0.95 }));
    // The sampler draws without repeats and follows the weights.
    const rand = prng(3);
    const items = [
      { id: "heavy", weight: 20 },
      ...Array.from({ length: 20 }, (_, i) => ({ id: `light${i}`, weight: 1 })),
    ];
    let heavy = 0;
    for (let i = 0; i < 200; i++) {
      const drawn = weightedSample(items, 3, rand);
      expect(new Set(drawn.map((d) => d.id)).size).toBe(3);
      if (drawn.some((d) => d.id === "heavy")) heavy++;
    }
    expect(heavy).toBeGreaterThan(150); // about 86 % (uniform: 3 in 21, 14 %)
    expect(peerDifficulty(19, 0)).toBeNull();
    expect([
      peerDifficulty(20, 18),
      peerDifficulty(20, 14),
      peerDifficulty(20, 11),
      peerDifficulty(20, 8),
      peerDifficulty(20, 2),
    ]).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("P(≥ 18) and the ranking section (issue 29)", () => {
  const mix = new Map([
    [1, 0.4],
    [2, 0.35],
    [3, 0.25],
  ]);
  it("20 right of 31 pass (18,9), 19 fail (17,8); sections follow the passes", () => {
    expect(rightNeededToPass(31, 18)).toBe(20);
    expect(expectedSection([0.99, 0.99, 0.99])).toEqual({ section: 300, probability: expect.closeTo(0.97, 2) });
    expect(expectedSection([0.01, 0.01, 0.01]).section).toBe(0);
    const probs = sectionProbabilities([0.9, 0.8, 0.1]);
    expect([...probs.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(expectedSection([0.9, 0.8, 0.1]).section).toBe(200);
  });

  it("follows the edition's scoring and section points, not constants (issue 44)", () => {
    // A harsher penalty needs more right answers: +1 / −0,5 on 31 → 23 right (23 − 4 = 19 ≥ 18), 22 fail (18 − 4,5).
    expect(rightNeededToPass(31, 18, { right: 1, wrong: -0.5 })).toBe(23);
    const answers = [{ topicId: 1, ageDays: 1, n: 200, correct: 130 }];
    const usual = passProbability(answers, mix, { questions: 31, passMark: 18, scoring: { right: 1, wrong: -0.1 } })!;
    const harsh = passProbability(answers, mix, { questions: 31, passMark: 18, scoring: { right: 1, wrong: -0.5 } })!;
    expect(harsh).toBeLessThan(usual - 0.1);
    expect(expectedSection([0.99, 0.99, 0.99], 1000).section).toBe(3000);
    expect([...sectionProbabilities([0.9, 0.8, 0.1], 1000).keys()]).toEqual([3000, 2000, 1000, 0]);
  });

  it("is calibrated: over 2,000 simulated students, in each band of predicted P(≥ 18) the share who pass a real paper is within 8 points of the band's mean", () => {
    // The synthetic students: a true accuracy per topic around an ability uniform in 0,35-0,95 (sd 0,08 between
    // topics), 30-300 practice answers over 60 days in the exam's topic mix, every question of the paper answered.
    const rand = prng(2027);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    const now = Date.UTC(2026, 10, 1);
    const topicIds = [...mix.keys()];
    const bands = Array.from({ length: 5 }, () => ({ predicted: 0, passed: 0, n: 0 }));
    for (let s = 0; s < 2000; s++) {
      const ability = 0.35 + rand() * 0.6;
      const p = new Map(topicIds.map((t) => [t, Math.min(0.98, Math.max(0.02, ability + normal() * 0.08))]));
      const topicOf = () => {
        let r = rand();
        return topicIds.find((t) => (r -= mix.get(t)!) < 0) ?? topicIds[topicIds.length - 1]!;
      };
      const n = 30 + Math.floor(rand() * 271);
      const answers = Array.from({ length: n }, () => {
        const topicId = topicOf();
        return { topicId, at: now - rand() * 60 * DAY, correct: rand() < p.get(topicId)! };
      });
      const predicted = passProbability(groupAnswers(answers, now), mix)!;
      // The real paper: 31 questions in the topic mix.
      let right = 0;
      for (let q = 0; q < 31; q++) if (rand() < p.get(topicOf())!) right++;
      const band = bands[Math.min(4, Math.floor(predicted * 5))]!;
      band.predicted += predicted;
      band.passed += right * 1.1 - 3.1 >= 18 ? 1 : 0;
      band.n++;
    }
    for (const band of bands.filter((b) => b.n >= 50))
      expect(Math.abs(band.passed / band.n - band.predicted / band.n)).toBeLessThan(0.08);
  });
});
