import { describe, expect, it } from "vitest";
import { OFFLINE_QUIZ_TTL_MS, REVIEW_COOLDOWN_MS, UNTIMED_ABANDON_MS } from "~/lib/constants";
import { gapAnswerMatches, gapAnswerTooLong, gapBoxesLeft, normaliseGapAnswer, pastedGapText } from "~/lib/gap-answer";
import { filterAttempts } from "~/lib/attempt-filters";
import { normaliseReportStatus, REPORT_STATUS_LABELS } from "~/lib/report-status";
import { formatCountdown, isReviewPaused, reviewReadyAt, sample } from "~/lib/review";
import {
  attemptDeadline,
  attemptOpen,
  clampQuestionCount,
  formatClock,
  SUBMIT_GRACE_MS,
  timerChoiceFromTotal,
  timerTotalSeconds,
} from "~/lib/timer";

describe("gap answers", () => {
  it("lowercases, collapses whitespace and trims", () => {
    expect(normaliseGapAnswer("  Acido   DESOSSIRIBONUCLEICO ")).toBe("acido desossiribonucleico");
  });
  it("matches accepted spellings ignoring case and accents, never an empty answer", () => {
    expect(gapAnswerMatches(" NA ", ["Na", "sodio"])).toBe(true);
    expect(gapAnswerMatches("perche", ["perché"])).toBe(true);
    expect(gapAnswerMatches("sodo", ["Na", "sodio"])).toBe(false);
    expect(gapAnswerMatches("   ", [""])).toBe(false);
  });
  it("counts down the sheet's boxes; a paste keeps what fits from the focused box to the last one", () => {
    expect(gapBoxesLeft("", 16)).toBe(16);
    expect(gapBoxesLeft("mitocondrio", 16)).toBe(5);
    expect(gapBoxesLeft("2-metilbut-2-ene", 16)).toBe(0);
    // A blank box inside the word still takes its box; trailing blanks do not.
    expect(gapBoxesLeft("ab c  ", 16)).toBe(12);
    expect(gapBoxesLeft("a".repeat(20), 16)).toBe(0);
    expect(pastedGapText("fosfatidil serina e altro", 16)).toBe("fosfatidilserina");
  });
  it("stores and grades up to 50 characters (older answers, typed into 50 boxes), whatever the sheet's boxes", () => {
    const old = "acidodesossiribonucleicoacidodesossiribonucleico"; // 48 characters, from before the 16-box sheet
    expect(gapAnswerTooLong(old)).toBe(false);
    expect(gapAnswerMatches(old, [old])).toBe(true);
  });
  it("limits to 50 characters after normalisation; pasting strips whitespace", () => {
    expect(gapAnswerTooLong("a".repeat(50))).toBe(false);
    expect(gapAnswerTooLong("a".repeat(51))).toBe(true);
    expect(gapAnswerTooLong(`  ${"a".repeat(50)}  `)).toBe(false);
    expect(pastedGapText(" Mi To\tcondrio\n")).toBe("mitocondrio");
  });
});

describe("timer levels", () => {
  it("Poco 40 s, Giusto 60 s, Tanto 90 s per question; Nessuno is no timer", () => {
    expect(timerTotalSeconds("poco", 10)).toBe(400);
    expect(timerTotalSeconds("giusto", 10)).toBe(600);
    expect(timerTotalSeconds("tanto", 31)).toBe(2790);
    expect(timerTotalSeconds("nessuno", 10)).toBeNull();
  });
  it("maps a prefilled total back to a level only for an exact ratio", () => {
    expect(timerChoiceFromTotal(400, 10)).toBe("poco");
    expect(timerChoiceFromTotal(1860, 31)).toBe("giusto");
    expect(timerChoiceFromTotal(500, 10)).toBe("nessuno");
    expect(timerChoiceFromTotal(null, 10)).toBe("nessuno");
  });
  it("clamps the question count to 1-31", () => {
    expect(clampQuestionCount(0)).toBe(1);
    expect(clampQuestionCount(50)).toBe(31);
    expect(clampQuestionCount("12")).toBe(12);
    expect(clampQuestionCount("x", 10)).toBe(10);
  });
  it("formats clocks and deadlines", () => {
    expect(formatClock(400)).toBe("6:40");
    expect(formatClock(3725)).toBe("1:02:05");
    expect(attemptDeadline(1000, 400, false)).toBe(1000 + 400_000 + SUBMIT_GRACE_MS);
    expect(attemptDeadline(1000, null, false)).toBe(1000 + 3 * 3600_000);
    // A timer of 0 is "no timer", in the browser's rule and in the SQL one alike.
    expect(attemptDeadline(1000, 0, false)).toBe(1000 + UNTIMED_ABANDON_MS);
    expect(attemptOpen("in_progress", 1000, 400, false, 1000 + 400_000 + SUBMIT_GRACE_MS)).toBe(true);
    expect(attemptOpen("in_progress", 1000, 400, false, 1001 + 400_000 + SUBMIT_GRACE_MS)).toBe(false);
    expect(attemptOpen("abandoned", 1000, 400, false, 1000)).toBe(false);
    expect(attemptOpen("completed", 1000, null, false, 1000)).toBe(false);
  });
  it("keeps a downloaded quiz open a week from its download, timer or not (issue 47)", () => {
    expect(OFFLINE_QUIZ_TTL_MS).toBe(7 * 24 * 3600_000);
    expect(attemptDeadline(1000, 400, true)).toBe(1000 + OFFLINE_QUIZ_TTL_MS);
    expect(attemptDeadline(1000, null, true)).toBe(1000 + OFFLINE_QUIZ_TTL_MS);
    // Long past its timer and the 3 untimed hours, still open; a millisecond after the week, not.
    expect(attemptOpen("in_progress", 1000, 400, true, 1000 + 2 * 24 * 3600_000)).toBe(true);
    expect(attemptOpen("in_progress", 1000, 400, true, 1000 + OFFLINE_QUIZ_TTL_MS)).toBe(true);
    expect(attemptOpen("in_progress", 1000, 400, true, 1001 + OFFLINE_QUIZ_TTL_MS)).toBe(false);
    expect(attemptOpen("completed", 1000, 400, true, 1000)).toBe(false);
  });
});

describe("review cooldown", () => {
  it("is 'in pausa' until exactly 24 hours after the last wrong answer", () => {
    const t = Date.UTC(2026, 0, 1);
    expect(reviewReadyAt(t)).toBe(t + REVIEW_COOLDOWN_MS);
    expect(isReviewPaused(t, t + REVIEW_COOLDOWN_MS - 1)).toBe(true);
    expect(isReviewPaused(t, t + REVIEW_COOLDOWN_MS)).toBe(false);
  });
  it("counts down in hours and minutes", () => {
    expect(formatCountdown(5 * 3600_000 + 7 * 60_000)).toBe("5h 7m");
    expect(formatCountdown(30_000)).toBe("0h 1m");
  });
  it("samples without repetition up to the count", () => {
    const picked = sample([1, 2, 3, 4, 5], 3);
    expect(new Set(picked).size).toBe(3);
    expect(sample([1, 2], 10)).toHaveLength(2);
  });
});

describe("report status for its author", () => {
  it("normalises resolved, risolta, rejected, respinta, chiusa to 'Risolta', the rest to 'In revisione'", () => {
    for (const s of ["resolved", "risolta", "rejected", "respinta", "chiusa", "Chiusa"])
      expect(normaliseReportStatus(s)).toBe("resolved");
    for (const s of ["open", "in_review", "pending", "", null]) expect(normaliseReportStatus(s)).toBe("in_review");
    expect(REPORT_STATUS_LABELS.resolved).toBe("Risolta");
    expect(REPORT_STATUS_LABELS.in_review).toBe("In revisione");
  });
});

describe("past attempts filters", () => {
  const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).toISOString();
  const items = [
    {
      id: 11,
      subjectName: "Biologia",
      date: at(2026, 3, 1),
      topics: ["La cellula"],
      status: "completed" as const,
      score: 20,
      timeSec: 300,
    },
    {
      id: 12,
      subjectName: "Chimica",
      date: at(2026, 3, 2, 23),
      topics: ["Stechiometria"],
      status: "abandoned" as const,
      score: null,
      timeSec: 0,
    },
    {
      id: 13,
      subjectName: "Fisica",
      date: at(2026, 3, 3),
      topics: ["Cinematica"],
      status: "completed" as const,
      score: 25,
      timeSec: 100,
    },
  ];
  const base = { search: "", from: "", to: "", completed: true, abandoned: true, sort: "date_desc" as const };
  it("searches topics, subject name and id, case-insensitively", () => {
    expect(filterAttempts(items, { ...base, search: "CELLULA" }).map((a) => a.id)).toEqual([11]);
    expect(filterAttempts(items, { ...base, search: "chimica" }).map((a) => a.id)).toEqual([12]);
    expect(filterAttempts(items, { ...base, search: "#13" }).map((a) => a.id)).toEqual([13]);
  });
  it("includes the whole 'Al' day and filters by status group", () => {
    expect(filterAttempts(items, { ...base, from: "2026-03-02", to: "2026-03-02" }).map((a) => a.id)).toEqual([12]);
    expect(filterAttempts(items, { ...base, abandoned: false }).map((a) => a.id)).toEqual([13, 11]);
    expect(filterAttempts(items, { ...base, completed: false }).map((a) => a.id)).toEqual([12]);
  });
  it("sorts by date both ways, by score and by time", () => {
    expect(filterAttempts(items, { ...base, sort: "date_asc" }).map((a) => a.id)).toEqual([11, 12, 13]);
    expect(filterAttempts(items, { ...base, sort: "score" }).map((a) => a.id)).toEqual([13, 11, 12]);
    expect(filterAttempts(items, { ...base, sort: "time" }).map((a) => a.id)).toEqual([12, 13, 11]);
  });
});
