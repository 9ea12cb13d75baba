// Issue 47: the pure parts of practice without signal: which pages the service worker keeps, the submission a
// downloaded quiz makes from what the device kept, what a send's answer means, and the times the server keeps.
import { describe, expect, it } from "vitest";
import { offlinePageKey } from "~/lib/offline-routes";
import { queuedSubmission, type StoredQuiz, unsent } from "~/lib/offline-quizzes";
import { sendOutcome, submissionAnswers, type RunnerQuestion } from "~/lib/quiz-answers";
import { submissionTimes } from "~/server/offline-quizzes.server";

const questions: RunnerQuestion[] = [
  { id: 11, type: "mc", question_text: "?", options: [{ id: 0, option_text: "a" }], difficulty: 3, topic: null },
  { id: 12, type: "gap", question_text: "?", options: [], difficulty: 3, topic: null },
  { id: 13, type: "gap", question_text: "?", options: [], difficulty: 3, topic: null },
];

function stored(change: Partial<StoredQuiz>): StoredQuiz {
  return {
    quizId: 5,
    copy: {
      quizId: 5,
      subjectName: "Biologia",
      timeLimitSec: null,
      startedAt: "2026-03-28T08:00:00.000Z",
      expiresAt: "2026-04-04T08:00:00.000Z",
      gapBoxes: 16,
      questions,
    },
    savedAt: 0,
    answers: {},
    spent: {},
    startedAt: null,
    timeTaken: null,
    state: "new",
    attemptId: null,
    refusal: null,
    ...change,
  };
}

describe("the pages kept for offline use", () => {
  it("are the student screens, and every downloaded quiz's runner as one page", () => {
    expect(offlinePageKey("/dashboard")).toBe("/dashboard");
    expect(offlinePageKey("/tentativi/")).toBe("/tentativi");
    expect(offlinePageKey("/test/offline")).toBe("/test/offline");
    expect(offlinePageKey("/test/offline/42")).toBe("/test/offline");
    // Never an online quiz, a summary, the console, a profile or an API answer.
    for (const path of ["/test", "/test/riepilogo/3", "/admin/utenti", "/profilo", "/api/attempts", "/test/offline/x"])
      expect(offlinePageKey(path), path).toBeNull();
  });
});

describe("a downloaded quiz's submission", () => {
  it("holds every answer as given, a blank for the rest, the device's time and start", () => {
    const quiz = stored({
      state: "queued",
      answers: {
        11: { optionId: 0, text: "" },
        12: { optionId: null, text: "Acqua" },
        13: { optionId: null, text: "  " },
      },
      spent: { 11: 4.4, 12: 10.6 },
      startedAt: 1_000,
      timeTaken: 15,
    });
    expect(queuedSubmission(quiz)).toEqual({
      answers: [
        { question_id: 11, option_id: 0, answer_text: null, time_sec: 4 },
        { question_id: 12, option_id: null, answer_text: "Acqua", time_sec: 11 },
        { question_id: 13, option_id: null, answer_text: null, time_sec: 0 },
      ],
      timeTaken: 15,
      deviceStartedAt: 1_000,
    });
    expect(submissionAnswers(questions, {}, {})).toHaveLength(3);
  });

  it("what signing out would lose: handed in, or started with answers", () => {
    const quizzes = [
      stored({ quizId: 1, state: "new" }),
      stored({ quizId: 2, state: "started" }),
      stored({ quizId: 3, state: "started", answers: { 11: { optionId: 0, text: "" } } }),
      stored({ quizId: 4, state: "queued" }),
      stored({ quizId: 5, state: "sent" }),
      stored({ quizId: 6, state: "refused" }),
    ];
    expect(unsent(quizzes).map((q) => q.quizId)).toEqual([3, 4]);
  });

  it("a send's answer: taken, refused for good with the reason, or tried again later", () => {
    expect(sendOutcome(200)).toBe("taken");
    for (const status of [400, 404, 409, 410, 422]) expect(sendOutcome(status), String(status)).toBe("refused");
    for (const status of [null, 401, 403, 408, 423, 429, 500, 502, 503])
      expect(sendOutcome(status), String(status)).toBe("retry");
  });
});

describe("the times the server keeps", () => {
  const drawn = new Date(1_000_000);
  it("online: the draw's instant, and the time sent up to what passed since", () => {
    expect(submissionTimes(drawn, { timeTaken: 50, deviceStartedAt: 5 }, false, 1_100_000)).toEqual({
      startedAt: drawn,
      timeTaken: 50,
    });
    expect(submissionTimes(drawn, { timeTaken: 500 }, false, 1_100_000).timeTaken).toBe(100);
  });
  it("offline: the device's start within the download and now, its time up to what passed since that start", () => {
    expect(submissionTimes(drawn, { timeTaken: 30, deviceStartedAt: 1_050_000 }, true, 2_000_000)).toEqual({
      startedAt: new Date(1_050_000),
      timeTaken: 30,
    });
    // Before the download, after now, or none at all: clamped.
    expect(submissionTimes(drawn, { timeTaken: 30, deviceStartedAt: 5 }, true, 2_000_000).startedAt).toEqual(drawn);
    expect(submissionTimes(drawn, { timeTaken: 30, deviceStartedAt: 9e12 }, true, 2_000_000)).toEqual({
      startedAt: new Date(2_000_000),
      timeTaken: 0,
    });
    expect(submissionTimes(drawn, { timeTaken: 30 }, true, 2_000_000).startedAt).toEqual(drawn);
    expect(submissionTimes(drawn, { timeTaken: 5000, deviceStartedAt: 1_990_000 }, true, 2_000_000).timeTaken).toBe(10);
  });
});
