import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { REVIEW_COOLDOWN_MS } from "~/lib/constants";
import { summaryScore } from "~/lib/scoring";
import { getDb } from "~/server/db/client.server";
import { listWrongQuestions } from "~/server/review.server";
import { call, count, json, login, seed, answeredBefore } from "./helpers";

type Quiz = {
  quizId: number;
  attemptId: number;
  status: string;
  timeLimitSec: number | null;
  remainingSec: number | null;
  questions: {
    id: number;
    type: "mc" | "gap";
    question_text: string;
    options: { id: number; option_text: string }[];
  }[];
};
type BankRow = {
  id: number;
  type: string;
  correct_index: number | null;
  accepted_answers: string | null;
  explanation: string;
  options: string | null;
};

let student: string;
let friend: string;
let admin: string;

beforeAll(async () => {
  await seed();
  student = await login("studente@example.com");
  // The redo tests below take these ids: a redo needs them in the student's own history.
  await answeredBefore("studente@example.com", [1001, 1002, 1003, 2001, 2002, 2003, 2004, 2005, 2006]);
  friend = await login("amico@example.com");
  admin = await login("admin@example.com");
});

async function draw(token: string, query: string): Promise<Quiz> {
  // A Rush quiz starts only with a POST (issue 28); the same fields as the query.
  const response = query.includes("rushEventId=")
    ? await call("POST", "/api/quiz", { token, json: Object.fromEntries(new URLSearchParams(query)) })
    : await call("GET", `/api/quiz?${query}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Quiz>(response);
}

async function bank(ids: number[]): Promise<Map<number, BankRow>> {
  const { results } = await env.DB.prepare(
    `SELECT id, type, correct_index, accepted_answers, explanation, options FROM questions WHERE id IN (${ids.join(",")})`,
  ).all<BankRow>();
  return new Map(results.map((r) => [r.id, r]));
}

/** An answer sheet: the first `c` right, the next `w` wrong, the rest blank. */
async function answerSheet(quiz: Quiz, c: number, w: number) {
  const rows = await bank(quiz.questions.map((q) => q.id));
  return quiz.questions.map((q, i) => {
    const row = rows.get(q.id)!;
    const right = i < c;
    const wrong = !right && i < c + w;
    if (q.type === "mc") {
      const option = right ? row.correct_index! : wrong ? (row.correct_index! + 1) % 5 : null;
      return { question_id: q.id, option_id: option, answer_text: null, time_sec: 5 };
    }
    // Right gap answers are typed in capitals with extra spaces: the server normalises them.
    const accepted = JSON.parse(row.accepted_answers!) as string[];
    const text = right ? `  ${accepted[0]!.toUpperCase()} ` : wrong ? "zzzz" : "";
    return { question_id: q.id, option_id: null, answer_text: text, time_sec: 5 };
  });
}

describe("catalogue", () => {
  it("lists the subjects and a subject's topics, behind the session guard", async () => {
    const subjects = await json<{ id: number; name: string }[]>(await call("GET", "/api/subjects", { token: student }));
    expect(subjects.map((s) => s.name)).toEqual(["Biologia", "Chimica", "Matematica", "Fisica", "Ragionamento Logico"]);
    const topics = await json<{ id: number; name: string }[]>(
      await call("GET", "/api/subjects/1/topics", { token: student }),
    );
    expect(topics.length).toBeGreaterThan(0);
    expect(topics.every((t) => t.id > 100 && t.id < 200)).toBe(true);
    expect((await call("GET", "/api/subjects")).status).toBe(401);
    const missing = await call("GET", "/api/subjects/99/topics", { token: student });
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toBe("Materia non trovata.");
    expect((await call("GET", "/api/subjects/abc/topics", { token: student })).status).toBe(400);
  });
});

describe("drawing a quiz", () => {
  it("clamps the count to 1-31, never repeats a question, stores the quiz and an in-progress attempt", async () => {
    const quizzes = await count("quizzes");
    const big = await draw(student, "subjectId=1&count=50");
    expect(big.questions).toHaveLength(31);
    expect(new Set(big.questions.map((q) => q.id)).size).toBe(31);
    expect(await count("quiz_questions", `quiz_id = ${big.quizId}`)).toBe(31);
    expect(await count("attempts", `quiz_id = ${big.quizId} AND status = 'in_progress' AND total = 31`)).toBe(1);
    const small = await draw(student, "subjectId=2&count=0");
    expect(small.questions).toHaveLength(1);
    expect(await count("quizzes")).toBe(quizzes + 2);
  });

  it("draws only from the chosen topic and keeps the timer", async () => {
    const quiz = await draw(student, "subjectId=1&topicId=101&count=5&time=200");
    const ids = quiz.questions.map((q) => q.id).join(",");
    expect(await count("questions", `id IN (${ids}) AND topic_id <> 101`)).toBe(0);
    expect(quiz.timeLimitSec).toBe(200);
    expect(quiz.remainingSec).toBeGreaterThan(195);
  });

  it("never sends the correct option, the accepted answers or the explanation (leak scan)", async () => {
    const responses = [
      await call("GET", "/api/quiz?subjectId=1&count=31", { token: student }),
      await call("GET", "/api/quiz?subjectId=2&count=31", { token: student }),
      await call("GET", "/api/quiz?ids=1001,1002,1003,2001,2002", { token: student }),
    ];
    const first = await json<Quiz>(responses[0]!.clone());
    responses.push(await call("GET", `/api/quiz/${first.quizId}`, { token: student }));
    for (const response of responses) {
      expect(response.status).toBe(200);
      const text = await response.text();
      const quiz = JSON.parse(text) as Quiz;
      expect(text).not.toMatch(/correct|accepted|explanation|answerIndex|correctText/i);
      const rows = await bank(quiz.questions.map((q) => q.id));
      for (const q of quiz.questions) {
        const row = rows.get(q.id)!;
        expect(text).not.toContain(JSON.stringify(row.explanation).slice(1, -1));
        expect(Object.keys(q).sort()).toEqual([
          "difficulty",
          "id",
          "options",
          "question_text",
          "subjectId",
          "topic",
          "topicId",
          "type",
        ]);
        if (q.type === "mc") expect(q.options.map((o) => o.option_text)).toEqual(JSON.parse(row.options!));
      }
    }
  });

  it("answers 400 with an Italian error for bad input and writes nothing", async () => {
    const quizzes = await count("quizzes");
    const attempts = await count("attempts");
    for (const query of [
      "",
      "subjectId=abc",
      "subjectId=1&count=tanti",
      "subjectId=1&topicId=-3",
      "ids=1,x",
      "ids=",
      "subjectId=1&time=-5",
    ]) {
      const response = await call("GET", `/api/quiz?${query}`, { token: student });
      expect(response.status, query).toBe(400);
      expect((await json(response)).error, query).toMatch(/[a-z]/);
    }
    const noSubject = await call("GET", "/api/quiz?subjectId=99&count=5", { token: student });
    expect(noSubject.status).toBe(404);
    expect((await json(noSubject)).error).toBe("Materia non trovata.");
    const otherTopic = await call("GET", "/api/quiz?subjectId=1&topicId=201&count=5", { token: student });
    expect(otherTopic.status).toBe(404);
    // A redo takes only questions the user has answered (test/integration/sealed-questions.test.ts has the rest).
    const noQuestion = await call("GET", "/api/quiz?ids=1001,999999", { token: student });
    expect(noQuestion.status).toBe(403);
    expect((await json(noQuestion)).error).toBe("Puoi ripetere solo domande a cui hai già risposto.");
    expect(await count("quizzes")).toBe(quizzes);
    expect(await count("attempts")).toBe(attempts);
    expect((await call("GET", "/api/quiz?subjectId=1")).status).toBe(401);
  });

  it("serves a stored quiz only to its owner; a redo keeps the given questions in order", async () => {
    const redo = await draw(student, "ids=1003,1001,1002");
    expect(redo.questions.map((q) => q.id)).toEqual([1003, 1001, 1002]);
    const again = await json<Quiz>(await call("GET", `/api/quiz/${redo.quizId}`, { token: student }));
    expect(again.questions.map((q) => q.id)).toEqual([1003, 1001, 1002]);
    const other = await call("GET", `/api/quiz/${redo.quizId}`, { token: friend });
    expect(other.status).toBe(404);
    expect((await json(other)).error).toBe("Quiz non trovato.");
  });
});

describe("grading on the server", () => {
  it("grades a known answer sheet with the summary formula and lands aggregates in the same batch", async () => {
    const quiz = await draw(student, "subjectId=1&count=20");
    const answers = await answerSheet(quiz, 13, 6); // 13 right, 6 wrong, 1 blank
    const histogramBefore = await count("stat_score_histogram", "1=1");
    await env.DB.prepare("UPDATE attempts SET started_at = started_at - 200000 WHERE id = ?")
      .bind(quiz.attemptId)
      .run();
    const sumBefore = (await env.DB.prepare(
      "SELECT sum(count) AS n FROM stat_score_histogram WHERE subject_id = 1",
    ).first<{ n: number }>())!.n;
    const response = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: student,
      json: { answers, timeTaken: 100 },
    });
    expect(response.status).toBe(200);
    const { attemptId } = await json<{ attemptId: number }>(response);
    expect(attemptId).toBe(quiz.attemptId);
    const row = await env.DB.prepare("SELECT * FROM attempts WHERE id = ?")
      .bind(attemptId)
      .first<Record<string, number | string>>();
    expect(row).toMatchObject({
      status: "completed",
      correct: 13,
      wrong: 6,
      blank: 1,
      total: 20,
      score: 19.6,
      time_taken: 100,
    });
    expect(summaryScore(13, 6, 20)).toBe(19.6);
    expect(await count("attempt_answers", `attempt_id = ${attemptId}`)).toBe(20);
    const sumAfter = (await env.DB.prepare(
      "SELECT sum(count) AS n FROM stat_score_histogram WHERE subject_id = 1",
    ).first<{ n: number }>())!.n;
    expect(sumAfter).toBe(sumBefore + 1);
    expect(await count("stat_score_histogram")).toBeGreaterThanOrEqual(histogramBefore);

    const summary = await json<Record<string, unknown> & { questions: Record<string, unknown>[] }>(
      await call("GET", `/api/attempts/${attemptId}/summary`, { token: student }),
    );
    expect(summary).toMatchObject({
      attemptId,
      subjectId: 1,
      subjectName: "Biologia",
      score: 19.6,
      percentCorrect: 65,
      listScore: 20,
      correct: 13,
      wrong: 6,
      blank: 1,
      total: 20,
    });
    expect(summary.questions).toHaveLength(20);
    const q0 = summary.questions[0]!;
    expect(Object.keys(q0)).toEqual(
      expect.arrayContaining([
        "id",
        "index",
        "type",
        "topic",
        "difficulty",
        "text",
        "options",
        "correctText",
        "userText",
        "selectedIndex",
        "answerIndex",
        "score",
        "timeSec",
        "explanation",
      ]),
    );
    expect(q0.score).toBe(1);
    expect(summary.questions[13]!.score).toBe(-0.1);
    expect(summary.questions[19]!.score).toBe(0);
    expect(String(q0.explanation).length).toBeGreaterThan(5);
  });

  it("a retried or concurrent submission yields one attempt with the same id", async () => {
    const quiz = await draw(student, "subjectId=4&count=10");
    const body = { answers: await answerSheet(quiz, 5, 5), timeTaken: 30 };
    const [a, b] = await Promise.all([
      call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: student, json: body }),
      call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: student, json: body }),
    ]);
    const c = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: student, json: body });
    const ids = await Promise.all(
      [a, b, c].map(async (r) => {
        expect(r.status).toBe(200);
        return (await json<{ attemptId: number }>(r)).attemptId;
      }),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await count("attempts", `quiz_id = ${quiz.quizId}`)).toBe(1);
    expect(await count("attempt_answers", `attempt_id = ${ids[0]}`)).toBe(10);
  });

  it("rejects bad answer sheets with 400 and writes nothing; another user's quiz is a 404", async () => {
    const quiz = await draw(student, "ids=2001,2002,2003,2004,2005,2006"); // mc and gap questions, not left to chance
    const mc = quiz.questions.find((q) => q.type === "mc")!;
    const gap = quiz.questions.find((q) => q.type === "gap")!;
    const bad: [unknown, RegExp][] = [
      [{ answers: [{ question_id: mc.id, option_id: 7 }], timeTaken: 5 }, /Opzione non valida/],
      [{ answers: [{ question_id: 999999, option_id: 0 }], timeTaken: 5 }, /non fa parte/],
      [
        {
          answers: [
            { question_id: mc.id, option_id: 0 },
            { question_id: mc.id, option_id: 1 },
          ],
          timeTaken: 5,
        },
        /ripetuta/,
      ],
      [{ answers: [{ question_id: gap.id, answer_text: "a".repeat(51) }], timeTaken: 5 }, /50 caratteri/],
      [{ answers: [] }, /Tempo impiegato/],
      [{ answers: "tutte", timeTaken: 5 }, /elenco/],
    ];
    for (const [body, message] of bad) {
      const response = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: student, json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await json(response)).error).toMatch(message);
    }
    expect(await count("attempts", `quiz_id = ${quiz.quizId} AND status = 'in_progress'`)).toBe(1);
    expect(await count("attempt_answers", `attempt_id = ${quiz.attemptId}`)).toBe(0);
    const other = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: friend,
      json: { answers: [], timeTaken: 1 },
    });
    expect(other.status).toBe(404);
    expect(await count("attempt_answers", `attempt_id = ${quiz.attemptId}`)).toBe(0);
  });

  it("refuses a submission after the timer (plus a minute of grace) has run out", async () => {
    const quiz = await draw(student, "subjectId=3&count=2&time=80");
    await env.DB.prepare("UPDATE attempts SET started_at = started_at - 200000 WHERE id = ?")
      .bind(quiz.attemptId)
      .run();
    const response = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: student,
      json: { answers: [], timeTaken: 80 },
    });
    expect(response.status).toBe(409);
    expect((await json(response)).error).toMatch(/Tempo scaduto/);
  });

  it("POST /api/grade submits the open quiz that served the questions, once per idempotency key or identical body", async () => {
    const before = await count("attempts", "user_id = 2");
    const quiz = await draw(friend, "subjectId=1&count=2");
    const answers = await answerSheet(quiz, 1, 1);
    const first = await call("POST", "/api/grade", { token: friend, json: { answers, timeTaken: 20 } });
    const second = await call("POST", "/api/grade", { token: friend, json: { answers, timeTaken: 20 } });
    expect(first.status).toBe(200);
    const a = await json<{ attemptId: number; alreadySubmitted: boolean }>(first);
    // It is that quiz's submission: its attempt, graded as POST /api/quiz/{id}/attempt grades it.
    expect(a).toEqual({ attemptId: quiz.attemptId, alreadySubmitted: false });
    expect(await json<{ attemptId: number; alreadySubmitted: boolean }>(second)).toEqual({
      attemptId: quiz.attemptId,
      alreadySubmitted: true,
    });
    const row = await env.DB.prepare("SELECT status, correct, wrong, blank, total FROM attempts WHERE id = ?")
      .bind(a.attemptId)
      .first();
    expect(row).toMatchObject({ status: "completed", correct: 1, wrong: 1, blank: 0, total: 2 });
    const direct = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: friend,
      json: { answers, timeTaken: 20 },
    });
    expect(await json(direct)).toEqual({ attemptId: quiz.attemptId, alreadySubmitted: true });

    const other = await draw(friend, "subjectId=2&count=3");
    const keyed = {
      answers: (await answerSheet(other, 2, 0)).slice(0, 2),
      timeTaken: 21,
      idempotencyKey: "retry-key-123",
    };
    const k1 = await json<{ attemptId: number }>(await call("POST", "/api/grade", { token: friend, json: keyed }));
    const k2 = await json<{ attemptId: number }>(await call("POST", "/api/grade", { token: friend, json: keyed }));
    expect(k1.attemptId).toBe(other.attemptId);
    expect(k2.attemptId).toBe(other.attemptId);
    // The question left out is a blank of the same quiz.
    expect(
      await env.DB.prepare("SELECT correct, blank, total FROM attempts WHERE id = ?").bind(other.attemptId).first(),
    ).toMatchObject({ correct: 2, blank: 1, total: 3 });
    expect(await count("attempts", "user_id = 2")).toBe(before + 2);
    const bad = await call("POST", "/api/grade", { token: friend, json: { answers: [], timeTaken: 3 } });
    expect(bad.status).toBe(400);
    expect(await count("attempts", "user_id = 2")).toBe(before + 2);
  });
});

describe("attempt summary", () => {
  it("is 'Tentativo non trovato' for another user's, a missing or an unsubmitted attempt; an admin may read it", async () => {
    const quiz = await draw(student, "subjectId=5&count=3");
    const pending = await call("GET", `/api/attempts/${quiz.attemptId}/summary`, { token: student });
    expect(pending.status).toBe(404);
    expect((await json(pending)).error).toBe("Tentativo non trovato");
    await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: student, json: { answers: [], timeTaken: 3 } });
    expect((await call("GET", `/api/attempts/${quiz.attemptId}/summary`, { token: student })).status).toBe(200);
    expect((await call("GET", `/api/attempts/${quiz.attemptId}/summary`, { token: friend })).status).toBe(404);
    expect((await call("GET", `/api/attempts/${quiz.attemptId}/summary`, { token: admin })).status).toBe(200);
    expect((await call("GET", "/api/attempts/987654/summary", { token: student })).status).toBe(404);
    // The screen says the same.
    const page = await call("GET", `/test/riepilogo/${quiz.attemptId}`, { token: friend });
    expect(JSON.stringify(await page.json())).toContain("Tentativo non trovato");
  });
});

describe("past attempts", () => {
  it("lists completed and abandoned attempts newest first; a drawn quiz left 3 hours untimed becomes abandoned", async () => {
    const quiz = await draw(friend, "subjectId=1&count=4");
    let list = await json<{ id: number; status: string }[]>(
      await call("GET", "/api/attempts?limit=500", { token: friend }),
    );
    expect(list.some((a) => a.id === quiz.attemptId)).toBe(false); // still running
    await env.DB.prepare("UPDATE attempts SET started_at = started_at - 3 * 3600 * 1000 - 1000 WHERE id = ?")
      .bind(quiz.attemptId)
      .run();
    list = await json(await call("GET", "/api/attempts?limit=500", { token: friend }));
    // A timed quiz is abandoned once its timer and the minute of grace have passed.
    const timed = await draw(friend, "subjectId=2&count=2&time=80");
    await env.DB.prepare("UPDATE attempts SET started_at = started_at - 135000 WHERE id = ?")
      .bind(timed.attemptId)
      .run();
    list = await json(await call("GET", "/api/attempts?limit=500", { token: friend }));
    expect(list.some((a) => a.id === timed.attemptId)).toBe(false); // 80 s + 60 s grace not over yet
    await env.DB.prepare("UPDATE attempts SET started_at = started_at - 10000 WHERE id = ?")
      .bind(timed.attemptId)
      .run();
    list = await json(await call("GET", "/api/attempts?limit=500", { token: friend }));
    expect(list.find((a) => a.id === timed.attemptId)?.status).toBe("abandoned");
    const item = list.find((a) => a.id === quiz.attemptId) as Record<string, unknown>;
    expect(item).toMatchObject({ status: "abandoned", subjectId: 1, subjectName: "Biologia", total: 4, score: null });
    expect((item.topics as string[]).length).toBeGreaterThan(0);
    const completed = list.find((a) => a.status === "completed") as Record<string, unknown>;
    expect(Object.keys(completed)).toEqual(
      expect.arrayContaining([
        "id",
        "subjectId",
        "subjectName",
        "date",
        "topics",
        "correct",
        "total",
        "timeSec",
        "status",
      ]),
    );
    const dates = list.map((a) => Date.parse((a as unknown as { date: string }).date));
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
    expect(list.every((a) => ["completed", "abandoned"].includes(a.status))).toBe(true);
    const limited = await json<unknown[]>(await call("GET", "/api/attempts?limit=3", { token: friend }));
    expect(limited).toHaveLength(3);
    expect((await call("GET", "/api/attempts?limit=0", { token: friend })).status).toBe(400);
    expect((await call("GET", "/api/attempts?limit=abc", { token: friend })).status).toBe(400);
    // Nobody else's attempts leak in.
    const mine = await json<{ id: number }[]>(await call("GET", "/api/attempts", { token: student }));
    expect(mine.some((a) => a.id === quiz.attemptId)).toBe(false);
  });
});

describe("reports", () => {
  it("accepts both payload forms, defaults the message, and lists them for the author only", async () => {
    // The admin account has no practice history: no earlier answer reveals the correct one.
    const quiz = await draw(admin, "subjectId=2&count=3");
    const q = quiz.questions[0]!;
    const fromQuiz = await call("POST", "/api/report-question", {
      token: admin,
      json: { questionId: q.id, message: "", userAnswerKey: "C" },
    });
    expect(fromQuiz.status).toBe(200);
    expect(await json(fromQuiz)).toMatchObject({ ok: true });
    let mine = (
      await json<{ reports: Record<string, unknown>[] }>(await call("GET", "/api/my/reports", { token: admin }))
    ).reports;
    expect(mine[0]).toMatchObject({
      questionId: q.id,
      message: "(nessun dettaglio)",
      userAnswer: "C",
      status: "in_review",
      statusLabel: "In revisione",
      correctAnswer: null,
    });

    await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: admin, json: { answers: [], timeTaken: 3 } });
    const fromSummary = await call("POST", "/api/report-question", {
      token: admin,
      json: { attemptId: quiz.attemptId, questionId: q.id, note: "Il testo è ambiguo", userAnswerKey: "" },
    });
    expect(fromSummary.status).toBe(200);
    mine = (await json<{ reports: Record<string, unknown>[] }>(await call("GET", "/api/my/reports", { token: admin })))
      .reports;
    expect(mine[0]).toMatchObject({ message: "Il testo è ambiguo", subject: "Chimica" });
    expect(mine[0]!.correctAnswer).toBeTruthy(); // submitted now: the answer may be shown

    // The seed's resolved report reads 'Risolta' for the demo student; nobody else's shows up.
    const studentReports = (
      await json<{ reports: Record<string, unknown>[] }>(await call("GET", "/api/my/reports", { token: student }))
    ).reports;
    expect(studentReports.find((r) => r.id === 2)).toMatchObject({
      status: "resolved",
      statusLabel: "Risolta",
      adminNotes: "Corretto il testo, grazie!",
    });
    expect(studentReports.some((r) => r.questionId === q.id && r.message === "Il testo è ambiguo")).toBe(false);
  });

  it("rejects bad reports with 400/404 and writes nothing", async () => {
    const before = await count("reports");
    const myAttempt = (await env.DB.prepare(
      "SELECT id FROM attempts WHERE user_id = 1 AND status = 'completed' LIMIT 1",
    ).first<{ id: number }>())!.id;
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /^Domanda mancante$/],
      [{ questionId: "abc" }, 400, /^Domanda (mancante|non valida)$/],
      [{ questionId: 999999, message: "x" }, 404, /Domanda non trovata/],
      [{ questionId: 1001, message: "x".repeat(2001) }, 400, /2000/],
      [{ questionId: 1001, attemptId: myAttempt, note: "x" }, 404, /Tentativo non trovato/],
    ];
    for (const [body, status, message] of cases) {
      const response = await call("POST", "/api/report-question", { token: friend, json: body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((await json(response)).error).toMatch(message);
    }
    expect((await call("POST", "/api/report-question", { json: { questionId: 1001 } })).status).toBe(401);
    expect(await count("reports")).toBe(before);
  });
});

describe("review of mistakes", () => {
  it("lists a wrongly answered question 'in pausa' for exactly 24 hours, and drops it after a correct answer", async () => {
    const token = await login("moderatore@example.com"); // no history: a clean slate
    // The whole topic of 3001 (6 questions): a redo takes only questions answered before.
    const quiz = await draw(token, "subjectId=3&topicId=301&count=31");
    expect(quiz.questions.some((q) => q.id === 3001)).toBe(true);
    const rows = await bank([3001]);
    const row = rows.get(3001)!;
    const wrong =
      row.type === "mc"
        ? { question_id: 3001, option_id: (row.correct_index! + 1) % 5 }
        : { question_id: 3001, answer_text: "sbagliato" };
    await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token, json: { answers: [wrong], timeTaken: 4 } });
    const body = await json<{
      items: { id: number; paused: boolean; lastWrongAt: string; subjectName: string; questionText: string }[];
    }>(await call("GET", "/api/me/wrong-questions", { token }));
    const item = body.items.find((i) => i.id === 3001)!;
    expect(item).toMatchObject({ paused: true, subjectName: "Matematica" });
    expect(item.questionText.length).toBeGreaterThan(5);

    // Controlled clock around the boundary.
    const userId = (await env.DB.prepare("SELECT id FROM users WHERE email = 'moderatore@example.com'").first<{
      id: number;
    }>())!.id;
    const lastWrong = Date.parse(item.lastWrongAt);
    const db = getDb(env.DB);
    expect(
      (await listWrongQuestions(db, userId, lastWrong + REVIEW_COOLDOWN_MS - 1)).find((i) => i.id === 3001)!.paused,
    ).toBe(true);
    expect(
      (await listWrongQuestions(db, userId, lastWrong + REVIEW_COOLDOWN_MS)).find((i) => i.id === 3001)!.paused,
    ).toBe(false);

    const redo = await draw(token, "ids=3001");
    const right =
      row.type === "mc"
        ? { question_id: 3001, option_id: row.correct_index }
        : { question_id: 3001, answer_text: JSON.parse(row.accepted_answers!)[0] };
    await call("POST", `/api/quiz/${redo.quizId}/attempt`, { token, json: { answers: [right], timeTaken: 4 } });
    const after = await json<{ items: { id: number }[] }>(await call("GET", "/api/me/wrong-questions", { token }));
    expect(after.items.some((i) => i.id === 3001)).toBe(false);
    expect((await call("GET", "/api/me/wrong-questions")).status).toBe(401);
  });
});

describe("Quiz Rush integration", () => {
  it("claims the rush slot when the quiz is drawn, refuses a second start, and records the graded score", async () => {
    const now = Date.now();
    const event = await env.DB.prepare(
      "INSERT INTO rush_events (title, starts_at, ends_at, published) VALUES ('Rush di prova', ?, ?, 1) RETURNING id",
    )
      .bind(now - 60_000, now + 3600_000)
      .first<{ id: number }>();
    const quiz = await draw(friend, `subjectId=4&count=5&rushEventId=${event!.id}`);
    expect(
      await count(
        "rush_progress",
        `event_id = ${event!.id} AND user_id = 2 AND subject_id = 4 AND finished_at IS NULL`,
      ),
    ).toBe(1);
    const again = await call("POST", "/api/quiz", {
      token: friend,
      json: { subjectId: 4, count: 5, rushEventId: event!.id },
    });
    expect(again.status).toBe(409);
    expect((await json(again)).error).toBe("Hai già completato il quiz per questa materia nella sessione Rush attiva.");
    const answers = await answerSheet(quiz, 5, 0);
    const { attemptId } = await json<{ attemptId: number }>(
      await call("POST", `/api/quiz/${quiz.quizId}/attempt`, { token: friend, json: { answers, timeTaken: 2 } }),
    );
    const progress = await env.DB.prepare("SELECT * FROM rush_progress WHERE event_id = ? AND user_id = 2")
      .bind(event!.id)
      .first<Record<string, number>>();
    expect(progress).toMatchObject({ attempt_id: attemptId, score: 31 });
    expect(await count("attempts", `id = ${attemptId} AND rush_event_id = ${event!.id}`)).toBe(1);
    const inactive = await call("POST", "/api/quiz", {
      token: friend,
      json: { subjectId: 1, count: 5, rushEventId: 987 },
    });
    expect(inactive.status).toBe(409);
    await env.DB.prepare("UPDATE rush_events SET published = 0 WHERE id = ?").bind(event!.id).run();
  });
});

describe("screens read the same services", () => {
  it("guards every practice screen and serves its data to the signed-in user", async () => {
    for (const path of ["/test/nuovo", "/test", "/test/riepilogo", "/tentativi", "/segnalato", "/ripasso/errori"]) {
      const anonymous = await call("GET", path);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get("Location"), path).toMatch(/^\/login\?next=/);
    }
    const nuovo = (await (await call("GET", "/test/nuovo", { token: student })).json()) as {
      subjects: { name: string; topics: unknown[] }[];
    };
    expect(nuovo.subjects).toHaveLength(5);
    expect(nuovo.subjects[0]!.topics.length).toBeGreaterThan(0);
    const tentativi = (await (await call("GET", "/tentativi", { token: student })).json()) as {
      attempts: { id: number }[];
    };
    const api = await json<{ id: number }[]>(await call("GET", "/api/attempts", { token: student }));
    expect(tentativi.attempts.map((a) => a.id)).toEqual(api.map((a) => a.id));
    const segnalato = (await (await call("GET", "/segnalato", { token: student })).json()) as { reports: unknown[] };
    expect(segnalato.reports.length).toBeGreaterThanOrEqual(2);
    const ripasso = (await (await call("GET", "/ripasso/errori", { token: student })).json()) as {
      items: { paused: boolean }[];
    };
    expect(ripasso.items.length).toBeGreaterThan(0);
    const latest = (await (await call("GET", "/test/riepilogo", { token: student })).json()) as {
      summary: { attemptId: number };
    };
    expect(latest.summary.attemptId).toBeGreaterThan(0);
  });

  it("the runner's loader never carries answer keys either", async () => {
    const quiz = await draw(student, "subjectId=1&count=31");
    const page = await call("GET", `/test?id=${quiz.quizId}`, { token: student });
    const text = await page.text();
    expect(text).toContain(String(quiz.questions[0]!.id));
    expect(text).not.toMatch(/correct|accepted|explanation/i);
    expect((await call("GET", `/test?id=${quiz.quizId}`, { token: friend })).status).toBe(200); // an error text, no data
    expect(await (await call("GET", `/test?id=${quiz.quizId}`, { token: friend })).text()).toContain(
      "Quiz non trovato.",
    );
  });
});
