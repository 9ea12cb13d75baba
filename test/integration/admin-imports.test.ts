// The Database tab's calls with the example files of docs/examples (docs/imports.md): each good file
// imports, a file with one bad row imports nothing and names the row, and 3,500 questions are timed.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import attemptsCsv from "../../docs/examples/attempts.csv?raw";
import attemptsJson from "../../docs/examples/attempts.json?raw";
import bundleJson from "../../docs/examples/import-bundle.json?raw";
import difficultyCsv from "../../docs/examples/difficulty.csv?raw";
import difficultyJson from "../../docs/examples/difficulty.json?raw";
import questionsCsv from "../../docs/examples/questions.csv?raw";
import taxonomyCsv from "../../docs/examples/taxonomy.csv?raw";
import taxonomyJson from "../../docs/examples/taxonomy.json?raw";
import usersCsv from "../../docs/examples/users.csv?raw";
import usersJson from "../../docs/examples/users.json?raw";
import { call, count, json, login, seed } from "./helpers";

let admin: string;

/** Completamento items typed as the 2025 papers print them, with an article right before the blank. */
const ARTICLE_STEMS = [
  "In una trasformazione ciclica di un gas ideale il lavoro compiuto coincide con il ____ scambiato.",
  "Nel Sistema Internazionale l'unità di misura dell'energia è il ____.",
];

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
});

const TABLES = ["questions", "users", "attempts", "attempt_answers", "reports", "subjects", "topics"];
async function snapshot() {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = await count(t);
  out.difficultySum = (await env.DB.prepare("SELECT sum(difficulty) AS s FROM questions").first<{ s: number }>())!.s;
  return out;
}

function post(path: string, body: string, type: "json" | "csv") {
  return call("POST", path, {
    token: admin,
    body,
    headers: { "Content-Type": type === "csv" ? "text/csv; charset=utf-8" : "application/json" },
  });
}

async function expectRejected(path: string, body: string, type: "json" | "csv", row: number | string, problem: RegExp) {
  const before = await snapshot();
  const response = await post(path, body, type);
  const answer = await json<{ error: string; row: number | string }>(response);
  expect(response.status, answer.error).toBe(400);
  expect(answer.row).toBe(row);
  expect(answer.error).toMatch(
    typeof row === "number" ? new RegExp(`^Riga ${row}: `) : new RegExp(`^Elemento ${row.replace(/[[\]]/g, "\\$&")}: `),
  );
  expect(answer.error).toMatch(problem);
  expect(await snapshot()).toEqual(before);
}

describe("POST /api/admin/import", () => {
  it("imports the example bundle and answers the counts; the attempt is graded on the server", async () => {
    const response = await post("/api/admin/import", bundleJson, "json");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({
      importedQuestions: 2,
      importedUsers: 1,
      importedAttempts: 1,
      importedReports: 1,
      warnings: [],
    });
    const q = await env.DB.prepare("SELECT type, options, correct_index FROM questions WHERE id = 1901").first<{
      options: string;
      correct_index: number;
    }>();
    expect(JSON.parse(q!.options)[q!.correct_index]).toBe("La parete cellulare");
    const attempt = await env.DB.prepare(
      "SELECT a.total, a.correct, a.wrong, a.blank, a.score FROM attempts a JOIN users u ON u.id = a.user_id WHERE u.email = 'laura.gialli@example.com'",
    ).first();
    expect(attempt).toMatchObject({ total: 2, correct: 0, wrong: 1, blank: 1, score: -0.1 });
    expect(await count("reports", "message = 'L''opzione B mi sembra ambigua.'")).toBe(1);
    expect(await count("audit_log", "action = 'import'")).toBeGreaterThanOrEqual(1);
  });

  it("imports the questions CSV (accents intact, gap answers split on |) and is idempotent by id", async () => {
    const first = await post("/api/admin/import", questionsCsv, "csv");
    expect(first.status).toBe(200);
    expect(await json(first)).toMatchObject({ importedQuestions: 3 });
    const gap = await env.DB.prepare(
      "SELECT type, accepted_answers, explanation FROM questions WHERE id = 4901",
    ).first<{ type: string; accepted_answers: string; explanation: string }>();
    expect(gap!.type).toBe("gap");
    expect(JSON.parse(gap!.accepted_answers)).toEqual(["newton", "N"]);
    expect(gap!.explanation).toContain("accelerazione di 1 m/s²");
    const before = await count("questions");
    expect((await post("/api/admin/import", questionsCsv, "csv")).status).toBe(200);
    expect(await count("questions")).toBe(before);
  });

  it("refuses a file with one bad row, imports nothing and names the row", async () => {
    const lines = questionsCsv.trim().split("\n");
    const badCsv = [lines[0], lines[1], lines[2]!.replace(",gap,", ",vero-falso,"), lines[3]].join("\n");
    await expectRejected("/api/admin/import", badCsv, "csv", 3, /tipo non valido/);
    const bundle = JSON.parse(bundleJson);
    bundle.questions[1].difficulty = 9;
    await expectRejected("/api/admin/import", JSON.stringify(bundle), "json", "questions[1]", /difficoltà da 1 a 5/);
    const unknownSubject = JSON.parse(bundleJson);
    unknownSubject.questions[0].subjectId = 77;
    await expectRejected(
      "/api/admin/import",
      JSON.stringify(unknownSubject),
      "json",
      "questions[0]",
      /materia 77 inesistente/,
    );
    const unknownUser = JSON.parse(bundleJson);
    unknownUser.reports[0].email = "nessuno@example.com";
    await expectRejected(
      "/api/admin/import",
      JSON.stringify(unknownUser),
      "json",
      "reports[0]",
      /nessun utente con email nessuno@example.com/,
    );
    const bad = await post("/api/admin/import", "{ non è json", "json");
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatch(/JSON non valido/);
  });

  it("refuses questions of Biologia, Chimica, Fisica without a syllabus unit, naming every row, and writes nothing", async () => {
    const rows = [
      {
        id: 1951,
        subjectId: 1,
        topicId: 101,
        type: "mc",
        stem: "Domanda di prova senza unità numero uno: quale è giusta?",
        options: ["A1", "B1", "C1", "D1", "E1"],
        correct: 0,
        explanation: "Perché sì.",
      },
      {
        id: 2951,
        subjectId: 2,
        topicId: 204,
        type: "gap",
        stem: "Domanda di prova senza unità numero due: vale ____.",
        accepted: ["7"],
        explanation: "Perché sì.",
      },
      {
        id: 3951,
        subjectId: 3,
        type: "gap",
        stem: "Matematica non ha unità: 2 + 2 fa ____.",
        accepted: ["4"],
        explanation: "Somma.",
      },
    ];
    const before = await snapshot();
    const response = await post("/api/admin/import", JSON.stringify({ questions: rows }), "json");
    const answer = await json<{ error: string; row: string; errors: { row: string; message: string }[] }>(response);
    expect(response.status).toBe(400);
    expect(answer.error).toMatch(/^Elemento questions\[0\]: domanda 1951: manca l'unità del syllabus/);
    expect(answer.error).toMatch(/Elemento questions\[1\]: domanda 2951: manca l'unità del syllabus/);
    expect(answer.errors.map((e) => e.row)).toEqual(["questions[0]", "questions[1]"]);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses what bank:check refuses: 4 options, a key that is not a number, a unit against its topic, a repeated stem", async () => {
    const existing = await env.DB.prepare("SELECT stem FROM questions WHERE id = 1001").first<{ stem: string }>();
    const topic204 = (await env.DB.prepare("SELECT unit FROM topics WHERE id = 204").first<{ unit: number }>())!.unit;
    const rows = [
      {
        id: 1961,
        subjectId: 1,
        topicId: 101,
        unit: 1,
        type: "mc",
        stem: "Quattro opzioni soltanto: quale è giusta?",
        options: ["A", "B", "C", "D"],
        correct: 0,
        explanation: "Così.",
      },
      {
        id: 2961,
        subjectId: 2,
        topicId: 204,
        unit: topic204,
        type: "gap",
        stem: "La massa vale ____ g.",
        accepted: ["1,2,3"],
        measure: "g",
        explanation: "Così.",
      },
      {
        id: 2962,
        subjectId: 2,
        topicId: 204,
        unit: topic204 === 1 ? 2 : 1,
        type: "gap",
        stem: "Unità sbagliata: vale ____.",
        accepted: ["neutra"],
        explanation: "Così.",
      },
      {
        id: 1962,
        subjectId: 1,
        topicId: 101,
        unit: 1,
        type: "mc",
        stem: existing!.stem.toUpperCase(),
        options: ["V", "W", "X", "Y", "Z"],
        correct: 1,
        explanation: "Così.",
      },
    ];
    const before = await snapshot();
    const response = await post("/api/admin/import", JSON.stringify(rows), "json");
    const answer = await json<{ error: string; errors: { row: string; message: string }[] }>(response);
    expect(response.status).toBe(400);
    const messages = answer.errors.map((e) => `${e.row} ${e.message}`);
    expect(messages).toContainEqual(
      expect.stringMatching(/^questions\[0\] domanda 1961: servono esattamente 5 opzioni/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^questions\[1\] domanda 2961: .*nessuna risposta accettata è un numero/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^questions\[2\] domanda 2962: unità \d diversa da quella del suo argomento 204/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^questions\[3\] domanda 1962: stesso testo della domanda 1001/),
    );
    expect(await snapshot()).toEqual(before);
  });

  it("imports unit, legacy, measure and tolerance, and grades a typed unit with the one grader", async () => {
    const topic = (await env.DB.prepare(
      "SELECT id, unit FROM topics WHERE subject_id = 4 AND unit IS NOT NULL ORDER BY id LIMIT 1",
    ).first<{ id: number; unit: number }>())!;
    const rows = [
      {
        id: 4971,
        subjectId: 4,
        topicId: topic.id,
        unit: topic.unit,
        type: "gap",
        stem: "Un'auto percorre 90 km in un'ora e mezza: la sua velocità media è ____ km/h.",
        accepted: ["60"],
        measure: "km/h",
        tolerance: 0.5,
        explanation: "90 km / 1,5 h = 60 km/h.",
        difficulty: 2,
      },
    ];
    const response = await post("/api/admin/import", JSON.stringify({ questions: rows }), "json");
    expect(response.status, await response.clone().text()).toBe(200);
    const attempts = await post(
      "/api/admin/import",
      JSON.stringify({
        attempts: [
          {
            email: "studente@example.com",
            subjectId: 4,
            startedAt: "2025-10-02T15:30:00Z",
            answers: [{ questionId: 4971, answerText: "60,2 km/h" }],
          },
        ],
      }),
      "json",
    );
    expect(attempts.status, await attempts.clone().text()).toBe(200);
    const q = await env.DB.prepare("SELECT unit, legacy, measure, tolerance FROM questions WHERE id = 4971").first();
    expect(q).toEqual({ unit: topic.unit, legacy: 0, measure: "km/h", tolerance: 0.5 });
    const graded = await env.DB.prepare("SELECT correct FROM attempt_answers WHERE question_id = 4971").first<{
      correct: number;
    }>();
    expect(graded!.correct).toBe(1);
  });

  it("imports an official paper as published: an article before the blank is a warning, not a refusal (issue 44)", async () => {
    const topic = (await env.DB.prepare(
      "SELECT id, unit FROM topics WHERE subject_id = 4 AND unit IS NOT NULL ORDER BY id LIMIT 1",
    ).first<{ id: number; unit: number }>())!;
    const row = (id: number, stem: string, accepted: string[]) => ({
      id,
      subjectId: 4,
      topicId: topic.id,
      unit: topic.unit,
      type: "gap",
      stem,
      accepted,
      explanation: "Come nella prova ufficiale.",
    });
    const rows = [row(4981, ARTICLE_STEMS[0]!, ["calore"]), row(4982, ARTICLE_STEMS[1]!, ["joule", "J"])];
    const response = await post("/api/admin/import", JSON.stringify({ questions: rows }), "json");
    const answer = await json<{ importedQuestions: number; warnings: string[]; error?: string }>(response);
    expect(response.status, answer.error).toBe(200);
    expect(answer.importedQuestions).toBe(2);
    expect(answer.warnings).toEqual([
      expect.stringMatching(/^Elemento questions\[0\]: domanda 4981: un articolo subito prima dello spazio/),
      expect.stringMatching(/^Elemento questions\[1\]: domanda 4982: un articolo subito prima dello spazio/),
    ]);
    const saved = await env.DB.prepare("SELECT id, stem FROM questions WHERE id IN (4981, 4982) ORDER BY id").all();
    expect(saved.results).toEqual([
      { id: 4981, stem: ARTICLE_STEMS[0] },
      { id: 4982, stem: ARTICLE_STEMS[1] },
    ]);
    // Imported again (the same rows, now in the bank), the import warns again and still saves.
    const again = await post("/api/admin/import", JSON.stringify({ questions: rows }), "json");
    expect(again.status).toBe(200);
    expect((await json<{ warnings: string[] }>(again)).warnings).toHaveLength(2);
  });

  it("imports 3,500 questions (a ministerial bank) in under 10 seconds", async () => {
    const rows = Array.from({ length: 3500 }, (_, i) =>
      i % 2
        ? {
            subjectId: 2,
            topicId: 204,
            unit: 3,
            type: "gap",
            stem: `Domanda di completamento numero ${i}: il pH neutro vale ____.`,
            accepted: ["7"],
            explanation: "A 25 °C il pH neutro è 7.",
            difficulty: 1 + (i % 5),
          }
        : {
            subjectId: 1,
            topicId: 101,
            unit: 1,
            type: "mc",
            stem: `Domanda a scelta multipla numero ${i} sulla cellula: quale è corretta?`,
            options: ["Risposta giusta", "Sbagliata uno", "Sbagliata due", "Sbagliata tre", "Sbagliata quattro"],
            correct: i % 5,
            explanation: "Spiegazione di prova con accenti: perché è così.",
            difficulty: 3,
          },
    );
    const before = await count("questions");
    const started = performance.now();
    const response = await post("/api/admin/import", JSON.stringify({ questions: rows }), "json");
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ importedQuestions: 3500 });
    expect(await count("questions")).toBe(before + 3500);
    console.log(`Imported 3,500 questions in ${Math.round(elapsed)} ms`);
    expect(elapsed).toBeLessThan(10_000);
  });
});

describe("POST /api/admin/import-taxonomy", () => {
  it("imports the JSON tree: matches by id or name, creates the rest", async () => {
    const topicsBefore = await count("topics");
    const response = await post("/api/admin/import-taxonomy", taxonomyJson, "json");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ importedSubjects: 2, importedTopics: 3, importedSubtopics: 3 });
    expect(await count("subjects", "name = 'Cultura generale'")).toBe(1);
    expect(await count("topics", "name = 'Organuli' AND parent_id = 101 AND subject_id = 1")).toBe(1);
    expect(await count("topics")).toBe(topicsBefore + 5);
    // Importing again changes nothing (matched by name).
    expect((await post("/api/admin/import-taxonomy", taxonomyJson, "json")).status).toBe(200);
    expect(await count("topics")).toBe(topicsBefore + 5);
  });

  it("imports the CSV, one row per path", async () => {
    const response = await post("/api/admin/import-taxonomy", taxonomyCsv, "csv");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ importedSubjects: 2, importedTopics: 2, importedSubtopics: 3 });
    expect(await count("topics", "name = 'Lenti e specchi' AND subject_id = 4")).toBe(1);
  });

  it("refuses a bad row", async () => {
    await expectRejected(
      "/api/admin/import-taxonomy",
      "subject_id,subject,topic,subtopic\n2,Chimica,Acidi,\n3,,Algebra,\n",
      "csv",
      3,
      /subject/,
    );
    await expectRejected(
      "/api/admin/import-taxonomy",
      JSON.stringify({ subjects: [{ name: "Ok" }, { name: "" }] }),
      "json",
      "subjects[1]",
      /nome mancante/,
    );
  });
});

describe("POST /api/admin/import-difficulty", () => {
  it("updates difficulties from JSON and CSV", async () => {
    const json1 = await post("/api/admin/import-difficulty", difficultyJson, "json");
    expect(json1.status).toBe(200);
    expect(await json(json1)).toEqual({ updatedQuestions: 2 });
    const csv = await post("/api/admin/import-difficulty", difficultyCsv, "csv");
    expect(await json(csv)).toEqual({ updatedQuestions: 2 });
    const rows = await env.DB.prepare(
      "SELECT id, difficulty FROM questions WHERE id IN (1001, 1002, 2001, 2002) ORDER BY id",
    ).all<{ id: number; difficulty: number }>();
    expect(rows.results.map((r) => r.difficulty)).toEqual([2, 4, 3, 5]);
  });

  it("refuses an unknown question or an out-of-range difficulty", async () => {
    await expectRejected(
      "/api/admin/import-difficulty",
      "question_id,difficulty\n1001,1\n1002,6\n",
      "csv",
      3,
      /difficoltà da 1 a 5/,
    );
    await expectRejected(
      "/api/admin/import-difficulty",
      JSON.stringify([
        { questionId: 1001, difficulty: 1 },
        { questionId: 999999, difficulty: 2 },
      ]),
      "json",
      "items[1]",
      /domanda 999999 inesistente/,
    );
  });
});

describe("POST /api/admin/import-users", () => {
  it("imports users with their attempts (JSON) and users from CSV with accents intact", async () => {
    const response = await post("/api/admin/import-users", usersJson, "json");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ importedUsers: 2, importedAttempts: 1 });
    expect(await count("users", "email = 'tutor@example.com' AND role = 'moderator'")).toBe(1);
    const csv = await post("/api/admin/import-users", usersCsv, "csv");
    expect(csv.status).toBe(200);
    expect(await json(csv)).toEqual({ importedUsers: 2, importedAttempts: 0 });
    const niccolo = await env.DB.prepare(
      "SELECT name, city, school FROM users WHERE email = 'niccolo.dalessandro@example.com'",
    ).first();
    expect(niccolo).toEqual({ name: "Niccolò D'Alessandro", city: "Forlì", school: 'Liceo "Morgagni"' });
    expect(
      await count(
        "users",
        "email = 'zoe.lazzari@example.com' AND status = 'sospeso' AND suspension_reason = 'Account condiviso con altre persone'",
      ),
    ).toBe(1);
  });

  it("refuses a bad email, a repeated email or a taken username", async () => {
    await expectRejected(
      "/api/admin/import-users",
      "email,name\nok1@example.com,Ok\nnon-email,Ko\n",
      "csv",
      3,
      /email non valida/,
    );
    await expectRejected(
      "/api/admin/import-users",
      "email,name\nok2@example.com,Ok\nok2@example.com,Ko\n",
      "csv",
      3,
      /ripetuta/,
    );
    await expectRejected(
      "/api/admin/import-users",
      "email,name,username\nok3@example.com,Ok,giulia.rossi\n",
      "csv",
      2,
      /già in uso/,
    );
  });
});

describe("POST /api/admin/import-attempts", () => {
  it("imports attempts from JSON (answers graded) and CSV (totals), and rebuilds the aggregates", async () => {
    const histogramBefore = (await env.DB.prepare("SELECT sum(count) AS n FROM stat_score_histogram").first<{
      n: number;
    }>())!.n;
    const response = await post("/api/admin/import-attempts", attemptsJson, "json");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ importedAttempts: 2 });
    const graded = await env.DB.prepare(
      "SELECT total, correct, wrong, blank, time_taken, score FROM attempts WHERE user_id = 1 AND started_at = ?",
    )
      .bind(Date.parse("2025-10-10T18:00:00Z"))
      .first();
    expect(graded).toEqual({ total: 3, correct: 1, wrong: 1, blank: 1, time_taken: 85, score: 10.2 });
    const csv = await post("/api/admin/import-attempts", attemptsCsv, "csv");
    expect(await json(csv)).toEqual({ importedAttempts: 2 });
    expect(
      await count(
        "attempts",
        "user_id = 2 AND status = 'abandoned' AND score IS NULL AND started_at = " + Date.parse("2025-10-12T08:30:00Z"),
      ),
    ).toBe(1);
    const histogramAfter = (await env.DB.prepare("SELECT sum(count) AS n FROM stat_score_histogram").first<{
      n: number;
    }>())!.n;
    expect(histogramAfter).toBe(histogramBefore + 3);
  });

  it("refuses an unknown user, an unknown question, a bad date or inconsistent totals", async () => {
    await expectRejected(
      "/api/admin/import-attempts",
      "email,subject_id,started_at,total,correct\nstudente@example.com,1,2025-10-01T10:00:00Z,10,5\nnessuno@example.com,1,2025-10-01T10:00:00Z,10,5\n",
      "csv",
      3,
      /nessun utente/,
    );
    await expectRejected(
      "/api/admin/import-attempts",
      "email,subject_id,started_at,total,correct\nstudente@example.com,1,ieri,10,5\n",
      "csv",
      2,
      /data non valida/,
    );
    await expectRejected(
      "/api/admin/import-attempts",
      "email,subject_id,started_at,total,correct,wrong\nstudente@example.com,1,2025-10-01T10:00:00Z,10,8,5\n",
      "csv",
      2,
      /supera total/,
    );
    await expectRejected(
      "/api/admin/import-attempts",
      JSON.stringify([
        { userId: 1, subjectId: 1, startedAt: "2025-10-01T10:00:00Z", answers: [{ questionId: 999999, optionId: 0 }] },
      ]),
      "json",
      "attempts[0]",
      /domanda 999999, inesistente/,
    );
  });
});

describe("maintenance", () => {
  it("reprocess-attempt-answers regrades stored answers after a key changes", async () => {
    // Make option 1 the correct one of question 1001: answers choosing 1 become correct.
    const affected = await env.DB.prepare(
      "SELECT count(DISTINCT attempt_id) AS n FROM attempt_answers WHERE question_id = 1001 AND option_id IN (0, 1)",
    ).first<{ n: number }>();
    await env.DB.prepare("UPDATE questions SET correct_index = 1 WHERE id = 1001").run();
    const response = await call("POST", "/api/admin/reprocess-attempt-answers", { token: admin });
    expect(response.status).toBe(200);
    expect((await json<{ updatedAttempts: number }>(response)).updatedAttempts).toBe(affected!.n);
    expect(await count("attempt_answers", "question_id = 1001 AND option_id = 1 AND correct = 1")).toBeGreaterThan(0);
    expect(await count("attempt_answers", "question_id = 1001 AND option_id = 0 AND correct = 1")).toBe(0);
    const again = await call("POST", "/api/admin/reprocess-attempt-answers", { token: admin });
    expect(await json(again)).toEqual({ updatedAttempts: 0 });
    await env.DB.prepare("UPDATE questions SET correct_index = 0 WHERE id = 1001").run();
    await call("POST", "/api/admin/reprocess-attempt-answers", { token: admin });
  });

  it("recalc-stats rebuilds the aggregates", async () => {
    await env.DB.prepare("DELETE FROM stat_score_histogram").run();
    const response = await call("POST", "/api/admin/recalc-stats", { token: admin });
    expect(response.status).toBe(200);
    const completed = await count("attempts", "status = 'completed' AND total > 0");
    expect(await json(response)).toEqual({ recalculated: await count("attempts", "status = 'completed'") });
    expect((await env.DB.prepare("SELECT sum(count) AS n FROM stat_score_histogram").first<{ n: number }>())!.n).toBe(
      completed,
    );
  });

  it("reset-db is refused without the server's opt-in, and without the confirmation", async () => {
    const users = await count("users");
    const refused = await call("POST", "/api/admin/reset-db", { token: admin, json: { confirm: "RESET" } });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error).toMatch(/ALLOW_DB_RESET/);
    const unconfirmed = await call("POST", "/api/admin/reset-db", {
      token: admin,
      json: {},
      env: { ALLOW_DB_RESET: "1" } as never,
    });
    expect(unconfirmed.status).toBe(400);
    expect(await count("users")).toBe(users);
  });
});
