// The plan's arithmetic (issue 46, point 1) on simulated students: every day fits its budget, weak and heavy units
// get more, due reviews come first, whole exam days sit in the final ten days on the days with the most time, the
// days recompute from what was done, and nothing is planned on or after the sitting.
import { describe, expect, it } from "vitest";
import { addDays } from "~/lib/days";
import { EDITION_SUBJECT_CREDITS } from "~/lib/edition";
import {
  apportion,
  buildPlan,
  dayBudget,
  examDays,
  FINAL_DAYS,
  type PlanInput,
  type PlanItem,
  type PlanSubject,
  planDates,
  unitWeight,
} from "~/lib/study-plan";
import { dayProgress, pastDayStatus, planCalendar } from "~/lib/study-plan-progress";
import { PLAN_TEXT, unitsText } from "~/lib/study-plan-text";
import { SEED_EDITIONS } from "../../seed/editions";

const edition = SEED_EDITIONS.find((e) => e.isDefault)!;
const f = edition.format;

/** A student over the default edition's real units: each unit answered `answered` times at `accuracy`, half seen. */
function student(opts: { accuracy?: (subjectId: number, unit: number) => number; pass?: number | null } = {}) {
  return f.subjects.map(
    (s): PlanSubject => ({
      subjectId: s.subjectId,
      name: `Materia ${s.subjectId}`,
      paperMinutes: s.minutes,
      questions: f.questionTotal,
      passProbability: opts.pass === undefined ? 0.5 : opts.pass,
      units: f.units
        .filter((u) => u.subjectId === s.subjectId)
        .map((u) => {
          const acc = opts.accuracy?.(s.subjectId, u.number) ?? 0.6;
          return {
            number: u.number,
            credits: u.credits,
            answered: 40,
            correct: Math.round(40 * acc),
            seen: 30,
            bank: 60,
          };
        }),
    }),
  );
}

function input(over: Partial<PlanInput> = {}): PlanInput {
  return {
    today: "2026-11-01",
    sittingDate: "2026-12-10",
    budget: { minutes: 60 },
    subjects: student(),
    breakMin: f.breakMin,
    dueByDay: [],
    subjectCredits: EDITION_SUBJECT_CREDITS,
    ...over,
  };
}

const practiceOf = (items: PlanItem[], subjectId: number) =>
  items.find((i): i is Extract<PlanItem, { kind: "practice" }> => i.kind === "practice" && i.subjectId === subjectId);
const questionsOf = (days: ReturnType<typeof buildPlan>, subjectId: number) =>
  days.reduce((n, d) => n + (practiceOf(d.items, subjectId)?.count ?? 0), 0);

describe("the plan to a sitting", () => {
  it("fits every day's budget (an exam day longer than its day says so), whatever the minutes", () => {
    for (const minutes of [10, 30, 60, 90, 120, 600]) {
      const weekdays = [null, null, null, null, null, 240, 0];
      const days = buildPlan(input({ budget: { minutes, weekdays }, dueByDay: [80, 5, 40, 0, 12] }));
      for (const day of days) {
        expect(day.budget).toBe(dayBudget({ minutes, weekdays }, day.date));
        const planned = day.items.reduce((n, i) => n + i.minutes, 0);
        if (day.overBudget) expect(day.items.map((i) => i.kind)).toContain("exam-day");
        else expect(planned).toBeLessThanOrEqual(day.budget + 1e-9);
      }
      // A day off plans nothing but what cannot move (an exam day never lands on one while others have time).
      expect(days.filter((d) => d.budget === 0).every((d) => d.items.length === 0)).toBe(true);
    }
  });

  it("plans nothing on or after the sitting, and nothing once it has come", () => {
    const days = buildPlan(input({ today: "2026-12-01" }));
    expect(days.map((d) => d.date)).toEqual(planDates("2026-12-01", "2026-12-10"));
    expect(days.at(-1)!.date).toBe("2026-12-09");
    expect(buildPlan(input({ today: "2026-12-10" }))).toEqual([]);
    expect(buildPlan(input({ today: "2026-12-11" }))).toEqual([]);
  });

  it("gives weak units and heavy units more questions", () => {
    // Fisica (4): unit 3 weak (30 %), unit 6 strong (90 %), same credits (1,2 each).
    const weak = buildPlan(
      input({ subjects: student({ accuracy: (s, u) => (s === 4 && u === 3 ? 0.3 : s === 4 && u === 6 ? 0.9 : 0.6) }) }),
    );
    const perUnit = new Map<number, number>();
    for (const d of weak)
      for (const u of practiceOf(d.items, 4)?.units ?? []) perUnit.set(u, (perUnit.get(u) ?? 0) + 1);
    expect(perUnit.get(3) ?? 0).toBeGreaterThan(perUnit.get(6) ?? 0);
    // Same accuracy and coverage: the unit with more credits weighs more (Fisica 2: 1,4 against unit 1: 0,2).
    const units = student()[1]!.units;
    expect(unitWeight(units[1]!, 6)).toBeGreaterThan(unitWeight(units[0]!, 6) * 5);
    // A whole subject further from passing gets more of the new questions.
    const subjects = student();
    subjects[1]!.passProbability = 0.1;
    subjects[0]!.passProbability = 0.95;
    const days = buildPlan(input({ subjects }));
    expect(questionsOf(days, 4)).toBeGreaterThan(questionsOf(days, 2) * 1.5);
  });

  it("puts due reviews first: they take the day before new questions and carry over when they do not fit", () => {
    const days = buildPlan(input({ budget: { minutes: 30 }, dueByDay: [40, 0, 0] }));
    const pace = f.subjects[0]!.minutes / f.questionTotal;
    const fit = Math.floor(30 / pace);
    expect(days[0]!.items).toHaveLength(1);
    expect(days[0]!.items[0]).toMatchObject({ kind: "review", count: fit });
    expect(days[1]!.items).toEqual([expect.objectContaining({ kind: "review", count: fit })]);
    expect(days[2]!.items[0]).toMatchObject({ kind: "review", count: 40 - 2 * fit });
    expect(days[2]!.items.some((i) => i.kind === "practice")).toBe(true);
  });

  it("sets two whole exam days in the final ten days, on the days with the most time, not on the eve", () => {
    // Saturdays have 300 minutes, every other day 60.
    const budget = { minutes: 60, weekdays: [null, null, null, null, null, 300, null] };
    const days = buildPlan(input({ budget }));
    const exams = days.filter((d) => d.items.some((i) => i.kind === "exam-day"));
    expect(exams).toHaveLength(2);
    const finalDays = days.slice(-FINAL_DAYS).map((d) => d.date);
    for (const d of exams) {
      expect(finalDays).toContain(d.date);
      expect(d.date).not.toBe("2026-12-09");
    }
    // 10 Dec 2026 is a Thursday: the final ten days (30 Nov to 9 Dec) hold one Saturday (5 Dec), then equal days.
    expect(exams.map((d) => d.date)).toContain("2026-12-05");
    const day = exams.find((d) => d.date === "2026-12-05")!;
    // The real day: three papers of the edition's minutes and its two breaks (3 × 50 + 2 × 30 = 210).
    const examDay = day.items.find((i) => i.kind === "exam-day")!;
    expect(examDay.minutes).toBe(f.subjects.reduce((n, s) => n + s.minutes, 0) + 2 * f.breakMin);
    expect(day.overBudget).toBe(false);
    // On 60-minute days the exam day is still set, and says it is longer than the day.
    const tight = buildPlan(input({ budget: { minutes: 60 } })).filter((d) => d.overBudget);
    expect(tight).toHaveLength(2);
    // With three days left, two of them are exam days (the eve kept free); with one day left, that day.
    expect(examDays(planDates("2026-12-07", "2026-12-10"), () => 60)).toEqual(["2026-12-07", "2026-12-08"].sort());
    expect(examDays(["2026-12-09"], () => 60)).toEqual(["2026-12-09"]);
  });

  it("sets one full paper per subject and week in the weeks before, weakest subject first", () => {
    const subjects = student();
    subjects[2]!.passProbability = 0.05;
    const days = buildPlan(input({ subjects, budget: { minutes: 90 } }));
    const papers = days.flatMap((d) => d.items.filter((i) => i.kind === "paper").map((i) => ({ date: d.date, i })));
    expect(papers.length).toBeGreaterThanOrEqual(9);
    expect(papers.every((p) => p.date < days.at(-FINAL_DAYS)!.date)).toBe(true);
    expect((papers[0]!.i as { subjectId: number }).subjectId).toBe(subjects[2]!.subjectId);
    // 30 minutes cannot hold a 50-minute paper: none is set.
    expect(buildPlan(input({ budget: { minutes: 30 } })).some((d) => d.items.some((i) => i.kind === "paper"))).toBe(
      false,
    );
  });

  it("recomputes from what was done: units practised today weigh less tomorrow, and one day fewer is left", () => {
    // Weeks before the paper weeks: the days hold reviews and new questions only.
    const before = input({ today: "2026-10-20", subjects: student({ accuracy: () => 0.5 }) });
    const day1 = buildPlan(before);
    const fisica = practiceOf(day1[0]!.items, 4)!;
    // Tomorrow: the student did today's block of Fisica, right as often as before, in the units it named.
    const done = student({ accuracy: () => 0.5 });
    const fis = done.find((s) => s.subjectId === 4)!;
    for (const u of fis.units)
      if (fisica.units.includes(u.number))
        Object.assign(u, { answered: u.answered + 30, correct: u.correct + 15, seen: u.bank });
    const day2 = buildPlan({ ...before, today: addDays(before.today, 1), subjects: done });
    const next = practiceOf(day2[0]!.items, 4)!;
    expect(next.units).not.toEqual(fisica.units);
    expect(day2).toHaveLength(day1.length - 1);
  });

  it("splits a whole number exactly, by weight", () => {
    expect(apportion(10, [1, 1, 2])).toEqual([3, 2, 5]);
    expect(apportion(7, [0, 0])).toEqual([0, 0]);
    expect(apportion(31, [0.2, 1.4, 1.2, 0.4, 1, 1.2, 0.6]).reduce((a, b) => a + b)).toBe(31);
  });
});

describe("what was done", () => {
  const day = {
    date: "2026-11-28",
    budget: 120,
    minutes: 100,
    overBudget: false,
    items: [
      { kind: "review", count: 18, minutes: 29 },
      { kind: "practice", subjectId: 4, count: 20, units: [3, 6], minutes: 32 },
      { kind: "paper", subjectId: 1, minutes: 50 },
    ] as PlanItem[],
  };

  it("marks items from the day's attempts: answers in reviews, practice per subject, full papers per subject", () => {
    const none = dayProgress(day, { reviews: 0, practice: {}, papers: [] });
    expect(none.complete).toBe(false);
    const some = dayProgress(day, { reviews: 18, practice: { 4: 12, 1: 40 }, papers: [4] });
    expect(some.items.map((i) => [i.done, i.complete])).toEqual([
      [18, true],
      [12, false],
      [0, false],
    ]);
    const all = dayProgress(day, { reviews: 25, practice: { 4: 20 }, papers: [1] });
    expect(all.complete).toBe(true);
  });

  it("an exam day is done when each of its papers is", () => {
    const exam = { ...day, items: [{ kind: "exam-day", subjectIds: [2, 4, 1], minutes: 210 }] as PlanItem[] };
    expect(dayProgress(exam, { reviews: 0, practice: {}, papers: [2, 4] }).items[0]).toMatchObject({
      done: 2,
      target: 3,
    });
    expect(dayProgress(exam, { reviews: 0, practice: {}, papers: [1, 2, 4] }).complete).toBe(true);
  });

  it("judges a past day against its budget, and draws the calendar to the sitting", () => {
    expect(pastDayStatus(60, 50)).toBe("fatto");
    expect(pastDayStatus(60, 20)).toBe("parziale");
    expect(pastDayStatus(60, 0)).toBe("saltato");
    expect(pastDayStatus(0, 0)).toBe("riposo");
    const days = buildPlan(input({ today: "2026-11-28" }));
    const calendar = planCalendar({
      since: "2026-11-25",
      today: "2026-11-28",
      historyDays: 28,
      days,
      answeredByDay: new Map([["2026-11-26", 40]]),
      budgetOf: () => 60,
      minutesPerQuestion: 50 / 31,
    });
    expect(calendar.slice(0, 4).map((d) => d.status)).toEqual(["saltato", "fatto", "saltato", "oggi"]);
    expect(calendar.at(-1)!.date).toBe("2026-12-09");
  });

  it("words the card as the issue shows it", () => {
    expect(PLAN_TEXT.practice(20, "Fisica", [3, 6])).toBe("20 domande di Fisica (unità 3 e 6)");
    expect(PLAN_TEXT.reviews(18)).toBe("18 ripassi");
    expect(PLAN_TEXT.paper("Biologia")).toBe("1 prova completa di Biologia");
    expect(unitsText([1, 2, 5])).toBe("unità 1, 2 e 5");
  });
});
