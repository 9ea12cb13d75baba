// Sealed questions (app/server/simulation/seal.server.ts): with a live simulation running, a Quiz Rush subject
// claimed and a common-set assignment of their class open and started (issue 44), NO route of app/routes.ts may hand
// the participating student a key (correct option, accepted
// answers, verdict), an explanation or their own answer of those questions; nor a second account outside
// the simulation's audience (issue 28). The guard walks the route table like the authorization matrix: a
// route without an entry in ROUTE_CALLS fails the first test, naming it.
// Then the three attacks of issue 17, and the totals of a past attempt holding a sealed question (issue 28).
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { summaryScore } from "~/lib/scoring";
import { SEALED_TEXT } from "../../app/server/simulation/seal.server";
import type { TestSimulationRoom as SimulationRoom } from "../../workers/room/test-room";
import { provideRequestContext } from "~/server/request-context.server";
import { call, count, json, login, makeContext, seed } from "./helpers";
import { connectRoom } from "./room-socket";

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };
type Req = { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; path: string; json?: unknown; token?: string };
type Quiz = { quizId: number; attemptId: number; questions: { id: number; type: "mc" | "gap" }[] };

const modules = import.meta.glob<Record<string, unknown>>("../../app/routes/*.{ts,tsx}", { eager: true });

const SIM_QUESTIONS = [2001, 2006, 2009, 2014]; // Chimica, mc and gap, over two topics; 2006 and 2014 answered wrong before

// --- The world: a fresh student with history on the sealed questions, a running simulation, a claimed Rush ---

let admin: string;
let student: string;
let studentEmail: string;
let studentId: number;
let simId: string;
let rushEventId: number;
let rushQuiz: Quiz;
/** Drawn before the simulation started and holding one of its questions. */
let heldQuiz: Quiz;
/** A clean practice quiz the student submits during the simulation. */
let cleanQuiz: Quiz;
/** An open "comune" assignment of the student's class (Fisica, where they have history), its set and their quiz of it. */
let assignmentId: number;
let assignmentSet: number[];
let assignmentQuiz: { quizId: number };
let sealed: Set<number>;
let explanations: Map<number, string>;
/** A second account, NOT in the simulation's audience, with history on its questions (issue 28). */
let outsider: string;
let outsiderId: number;
/** The outsider's quiz drawn before the start, holding 2001. */
let outsiderHeld: Quiz;
/** The topic of 2001. */
let topic2001: number;

async function newStudent(label: string): Promise<{ id: number; email: string; token: string }> {
  const email = `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const row = await env.DB.prepare("INSERT INTO users (email, name, created_at) VALUES (?, ?, ?) RETURNING id")
    .bind(email, label, Date.now())
    .first<{ id: number }>();
  return { id: row!.id, email, token: await login(email) };
}

async function draw(token: string, query: string): Promise<Quiz> {
  // A Rush quiz starts only with a POST (issue 28); the same fields as the query.
  const response = query.includes("rushEventId=")
    ? await call("POST", "/api/quiz", { token, json: Object.fromEntries(new URLSearchParams(query)) })
    : await call("GET", `/api/quiz?${query}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return json<Quiz>(response);
}

/**
 * A quiz of `query` that holds `questionId`. A draw is random and 2001's topic has 32 questions since the bank grew
 * (issue 48), one more than a quiz takes: one draw in 32 left it out. Drawn again until it holds it (at most 6 draws,
 * well inside the quiz limit of 30 a minute).
 */
async function drawHolding(token: string, query: string, questionId: number): Promise<Quiz> {
  let quiz = await draw(token, query);
  for (let tries = 1; tries < 6 && !quiz.questions.some((q) => q.id === questionId); tries++)
    quiz = await draw(token, query);
  expect(quiz.questions.map((q) => q.id)).toContain(questionId);
  return quiz;
}

/** History written on the server (like the seed or an admin import): every question of Chimica and Fisica, half right. */
async function serverHistory(userId: number) {
  const now = Date.now() - 86_400_000;
  const attempt = await env.DB.prepare(
    `INSERT INTO attempts (user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score)
     VALUES (?, 2, 'completed', ?, ?, 600, 0, 0, 0, 0, 0) RETURNING id`,
  )
    .bind(userId, now, now + 600_000)
    .first<{ id: number }>();
  await env.DB.prepare(
    `INSERT INTO attempt_answers (attempt_id, position, question_id, option_id, answer_text, correct, time_sec, answered_at)
     SELECT ?, ROW_NUMBER() OVER (ORDER BY id) - 1, id,
       CASE WHEN type = 'mc' THEN CASE WHEN id % 2 = 1 THEN correct_index ELSE (correct_index + 1) % 5 END END,
       CASE WHEN type = 'gap' THEN CASE WHEN id % 2 = 1 THEN json_extract(accepted_answers, '$[0]') ELSE 'zzz' END END,
       id % 2, 5, ?
     FROM questions WHERE subject_id IN (2, 4)`,
  )
    .bind(attempt!.id, now)
    .run();
  await env.DB.prepare(
    `UPDATE attempts SET total = (SELECT count(*) FROM attempt_answers WHERE attempt_id = ?1),
       correct = (SELECT count(*) FROM attempt_answers WHERE attempt_id = ?1 AND correct = 1),
       wrong = (SELECT count(*) FROM attempt_answers WHERE attempt_id = ?1 AND correct = 0) WHERE id = ?1`,
  )
    .bind(attempt!.id)
    .run();
  return attempt!.id;
}

/** FSRS memories due now for these questions, the last answer right for odd ids (as serverHistory). */
async function remember(userId: number, questionIds: number[], lastCorrect = (id: number) => id % 2) {
  const now = Date.now();
  for (const id of questionIds) {
    await env.DB.prepare(
      `INSERT INTO question_memory (user_id, question_id, due, stability, difficulty, last_review, last_correct)
       VALUES (?, ?, ?, 1, 5, ?, ?)`,
    )
      .bind(userId, id, now - 60_000, now - 86_400_000, lastCorrect(id))
      .run();
  }
}

beforeAll(async () => {
  await seed();
  admin = await login("admin@example.com");
  const s = await newStudent("sigillo");
  student = s.token;
  studentEmail = s.email;
  studentId = s.id;
  await serverHistory(studentId);
  // A report on a simulation question: /api/my/reports shows the correct answer of answered questions.
  expect(
    (await call("POST", "/api/report-question", { token: student, json: { questionId: 2001, message: "Dubbio" } }))
      .status,
  ).toBe(200);
  // Drawn before the start: 2001's whole topic, so it holds a simulation question.
  const topic = (await env.DB.prepare("SELECT topic_id FROM questions WHERE id = 2001").first<{ topic_id: number }>())!
    .topic_id;
  topic2001 = topic;
  heldQuiz = await drawHolding(student, `subjectId=2&topicId=${topic}&count=31`, 2001);

  // The outsider: the same history, a report and due memories on the simulation's questions, a quiz drawn before.
  const o = await newStudent("estraneo");
  outsider = o.token;
  outsiderId = o.id;
  await serverHistory(outsiderId);
  await remember(outsiderId, SIM_QUESTIONS);
  for (const [questionId, userAnswerKey] of [
    [2001, "B"],
    [2002, "C"],
  ] as const) {
    const reported = await call("POST", "/api/report-question", {
      token: outsider,
      json: { questionId, message: "Dubbio", userAnswerKey },
    });
    expect(reported.status).toBe(200);
  }
  outsiderHeld = await drawHolding(outsider, `subjectId=2&topicId=${topic}&count=31`, 2001);

  // The live simulation, started and running (subject open), with the student on its list.
  simId = `sigillo-${crypto.randomUUID().slice(0, 8)}`;
  const created = await call("POST", "/api/admin/simulations", {
    token: admin,
    json: {
      id: simId,
      title: "Simulazione sigillata",
      subjects: [{ subjectId: 2, timeMin: 60, questions: SIM_QUESTIONS }],
      allowedUsers: [studentId],
    },
  });
  expect(created.status).toBe(201);
  expect((await call("POST", `/api/admin/simulations/${simId}/start`, { token: admin })).status).toBe(200);
  const startTime = Date.now() - 1000;
  await env.DB.prepare(
    "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id = ?2",
  )
    .bind(startTime, simId)
    .run();
  await runInDurableObject(
    env.SIMULATION_ROOM.get(env.SIMULATION_ROOM.idFromName(`${simId}:0`)),
    (room: SimulationRoom) => room.shiftStartForTest(startTime),
  );

  // A teacher's class with the student in it, and an open common set they have started and not submitted (before
  // the Rush draw, which then leaves the set's questions out: they are sealed for the student).
  const now = Date.now();
  const teacher = await login("docente@example.com");
  const made = await call("POST", "/api/classes", { token: teacher, json: { name: "Classe sigillata (compito)" } });
  const { id: classId, code } = await json<{ id: number; code: string }>(made);
  expect((await call("POST", "/api/classes/join", { token: student, json: { code } })).status).toBe(200);
  const assigned = await call("POST", `/api/classes/${classId}/assignments`, {
    token: teacher,
    json: {
      title: "Compito sigillato",
      subjectId: 4,
      count: 5,
      timer: "nessuno",
      opensAt: now - 60_000,
      dueAt: now + 86_400_000,
    },
  });
  expect(assigned.status, await assigned.clone().text()).toBe(201);
  assignmentId = (await json<{ id: number }>(assigned)).id;
  const { results: setRows } = await env.DB.prepare(
    "SELECT question_id FROM assignment_questions WHERE assignment_id = ? ORDER BY position",
  )
    .bind(assignmentId)
    .all<{ question_id: number }>();
  assignmentSet = setRows.map((r) => r.question_id);
  const started = await call("POST", `/api/assignments/${assignmentId}/start`, { token: student, json: {} });
  expect(started.status, await started.clone().text()).toBe(200);
  assignmentQuiz = await json<{ quizId: number }>(started);
  // The Rush subject claimed (Fisica), not submitted.
  const event = await env.DB.prepare(
    "INSERT INTO rush_events (title, starts_at, ends_at, published) VALUES ('Rush sigillato', ?, ?, 1) RETURNING id",
  )
    .bind(now - 30 * 86_400_000, now + 3_600_000)
    .first<{ id: number }>();
  rushEventId = event!.id;
  rushQuiz = await draw(student, `subjectId=4&count=5&rushEventId=${rushEventId}`);
  cleanQuiz = await draw(student, "subjectId=5&count=3");

  sealed = new Set([...SIM_QUESTIONS, ...rushQuiz.questions.map((q) => q.id), ...assignmentSet]);
  const { results } = await env.DB.prepare(
    `SELECT id, explanation FROM questions WHERE id IN (${[...sealed].join(",")})`,
  ).all<{ id: number; explanation: string }>();
  explanations = new Map(results.map((r) => [r.id, r.explanation]));
  expect([...explanations.values()].every((e) => e.length > 20)).toBe(true);
});

// --- Leak detection ---

const ID_FIELDS = ["id", "questionId", "question_id"];
/** The student's own answer and last verdict: withheld too while sealed (with the totals, they give the key). */
const OWN_FIELDS = [
  "selectedIndex",
  "userText",
  "optionId",
  "option_id",
  "answerText",
  "answer_text",
  "userAnswer",
  "userAnswerKey",
  "lastAnswerCorrect",
  "lastCorrect",
  "last_correct",
];
const KEY_FIELDS = [
  "answerIndex",
  "correctIndex",
  "correct_index",
  "correctText",
  "correctAnswer",
  "accepted",
  "acceptedAnswers",
  "accepted_answers",
  "explanation",
];

function emptyValue(v: unknown) {
  return v == null || v === "" || (Array.isArray(v) && v.length === 0);
}

/** Every place in a response where a sealed question's key, verdict, score, explanation or own answer shows. */
function leaks(label: string, text: string, ids: ReadonlySet<number> = sealed): string[] {
  const found: string[] = [];
  for (const [id, explanation] of explanations) {
    if (!ids.has(id)) continue;
    if (text.includes(explanation) || text.includes(JSON.stringify(explanation).slice(1, -1)))
      found.push(`${label}: explanation of question ${id}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return found;
  }
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, `${path}[${i}]`);
      return;
    }
    if (!node || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const sealedId = ID_FIELDS.map((f) => record[f]).find((v) => typeof v === "number" && ids.has(v)) as
      | number
      | undefined;
    if (sealedId !== undefined) {
      for (const field of KEY_FIELDS) {
        if (field in record && !emptyValue(record[field]))
          found.push(`${label}: ${path}.${field} of question ${sealedId} = ${JSON.stringify(record[field])}`);
      }
      // A verdict next to the student's own answer gives the key away too.
      if (typeof record.correct === "boolean")
        found.push(`${label}: ${path}.correct of question ${sealedId} = ${record.correct}`);
      for (const field of OWN_FIELDS) {
        if (field in record && !emptyValue(record[field]))
          found.push(`${label}: ${path}.${field} of question ${sealedId} = ${JSON.stringify(record[field])}`);
      }
      // A question's own score in a summary (+1 / −0.1 / 0) is its verdict.
      if ("text" in record && typeof record.score === "number")
        found.push(`${label}: ${path}.score of question ${sealedId} = ${record.score}`);
    }
    for (const [key, value] of Object.entries(record)) walk(value, `${path}.${key}`);
  };
  walk(body, "$");
  return found;
}

// --- The route table: what the guard calls for each route, as the participating student ---

/** `soloId`: the walking student's day alone, whose routes are then called instead of the admin's simulation's. */
type Ctx = { attempts: () => Promise<number[]>; soloId?: string };

/** Admin and staff routes: the student is refused (403) on every method the route serves. */
function staffOnly(route: TableRoute): Req[] {
  const mod = modules[`../../app/${route.file}`] ?? {};
  const path = concrete(route.key);
  const action = mod.action as { methods?: Record<string, unknown> } | undefined;
  const methods = [
    ...(mod.loader ? ["GET"] : []),
    ...(action ? Object.keys(action.methods ?? { POST: 1 }) : []),
  ] as Req["method"][];
  return methods.map((method) => ({ method, path, json: method === "GET" ? undefined : {} }));
}

const get = (path: string): Req => ({ method: "GET", path });

/** A plan to the default edition's next sitting (none once every sitting has started). */
async function planToNextSitting(): Promise<Req[]> {
  const edition = await env.DB.prepare("SELECT id, format FROM exam_editions WHERE is_default = 1").first<{
    id: number;
    format: string;
  }>();
  const sittings = (JSON.parse(edition!.format) as { sittings: { date: string }[] }).sittings;
  const next = sittings.find((s) => s.date > new Date().toISOString().slice(0, 10));
  if (!next) return [];
  return [
    {
      method: "PUT",
      path: "/api/me/plan",
      json: { editionId: edition!.id, sittingDate: next.date, minutesPerDay: 90 },
    },
  ];
}

const ROUTE_CALLS: Record<string, "static" | ((ctx: Ctx) => Promise<Req[]> | Req[])> = {
  "(index)": () => [get("/")],
  policy: "static",
  terms: "static",
  login: () => [get("/login")],
  // Sign-out answers a redirect home, never a question (called with another account's session, to keep the student's).
  esci: async () => [{ method: "POST", path: "/esci", token: await login("moderatore@example.com") }],
  "layout:routes/app-layout.tsx": () => [get("/dashboard")],
  dashboard: () => [get("/dashboard")],
  profilo: () => [get("/profilo")],
  rush: () => [get("/rush")],
  // A student's simulations (issue 34): titles, times and results, never a question.
  simulazioni: () => [get("/simulazioni")],
  "quiz-rush/start": () => [get("/quiz-rush/start?subject=4"), get("/quiz-rush/start?subject=2")],
  admin: () => [get("/admin")],
  // The console's tabs (issue 19): a student is sent away from each before any data is read.
  "admin/(index)": () => [get("/admin?index&tab=utenti")],
  ...Object.fromEntries(
    [
      "analytics",
      "utenti",
      "tentativi",
      "segnalazioni",
      "database",
      "classi",
      "simulazioni",
      "rush",
      "edizioni",
      "compiti",
    ].map((tab) => [`admin/${tab}`, () => [get(`/admin/${tab}`)]]),
  ),
  // The console's lookups through fetchers: a student is sent away; a question's editor is staff-only.
  "admin/cerca": () => [get("/admin/cerca?q=2001")],
  "admin/domanda/:id": () => SIM_QUESTIONS.map((id) => get(`/admin/domanda/${id}`)),
  "admin/utente/:id": () => [get("/admin/utente/1")],
  "admin/utenti/esporta": () => [get("/admin/utenti/esporta")],
  // A friend's statistics: the participating student's own friend list (none here) answers an error, never a key.
  "dashboard/amico/:id": () => [get("/dashboard/amico/1")],
  "test/nuovo": () => [get("/test/nuovo")],
  // The downloaded quizzes (issue 47): no loader, the page reads the device only; downloads are POST /api/quiz.
  "test/offline/:quizId?": "static",
  test: () => [
    get(`/test?id=${rushQuiz.quizId}`),
    get(`/test?id=${heldQuiz.quizId}`),
    get(`/test?id=${cleanQuiz.quizId}`),
    get(`/test?id=${assignmentQuiz.quizId}`),
    // The runner's submission through the screen's action: a quiz holding a sealed question is refused.
    { method: "POST", path: "/test", json: { quizId: heldQuiz.quizId, answers: [], timeTaken: 5 } },
  ],
  "ripasso/errori": () => [get("/ripasso/errori")],
  piano: async () => [...(await planToNextSitting()), get("/piano")],
  tentativi: () => [get("/tentativi")],
  segnalato: () => [get("/segnalato")],
  "test/riepilogo/:attemptId?": async (ctx) => [
    get("/test/riepilogo"),
    ...(await ctx.attempts()).map((id) => get(`/test/riepilogo/${id}`)),
  ],
  simulazione: (ctx) => [
    get(`/simulazione?id=${ctx.soloId ?? simId}`),
    // The runner's autosave / attempt through the screen's action, while the room is running: no key comes back.
    { method: "POST", path: `/simulazione?id=${ctx.soloId ?? simId}`, json: { answers: {}, timeTaken: 0 } },
  ],
  "simulazione/riepilogo/:simulationId/:attemptId": (ctx) => [
    get(`/simulazione/riepilogo/${ctx.soloId ?? simId}/999999`),
  ],
  // The exam day alone (issue 46): the day's plan, the running day's id, past days' sections; never a question.
  giornata: () => [get("/giornata")],
  "api/me/exam-days": () => [get("/api/me/exam-days")],
  "api/simulations/:id/skip-break": (ctx) => [
    { method: "POST", path: `/api/simulations/${ctx.soloId ?? simId}/skip-break`, json: {} },
  ],

  "api/auth/google": () => [get("/api/auth/google")],
  "api/auth/dev": () => [{ method: "POST", path: "/api/auth/dev", json: { email: studentEmail } }],
  "api/auth/logout": async () => [{ method: "POST", path: "/api/auth/logout", token: await login(studentEmail) }],
  "api/me": () => [get("/api/me")],
  "api/exam-editions": () => [get("/api/exam-editions")],
  "api/subjects": () => [get("/api/subjects")],
  "api/subjects/:id/topics": () => [get("/api/subjects/2/topics")],
  "api/quiz": () => [
    get(`/api/quiz?ids=${SIM_QUESTIONS.join(",")}`),
    get(`/api/quiz?ids=${rushQuiz.questions.map((q) => q.id).join(",")}`),
    get("/api/quiz?subjectId=2&count=31"),
    get("/api/quiz?subjectId=4&count=31"),
  ],
  "api/quiz/:id": () => [
    get(`/api/quiz/${rushQuiz.quizId}`),
    get(`/api/quiz/${heldQuiz.quizId}`),
    get(`/api/quiz/${cleanQuiz.quizId}`),
    get(`/api/quiz/${assignmentQuiz.quizId}`),
  ],
  "api/quiz/:id/attempt": () => [
    {
      method: "POST",
      path: `/api/quiz/${heldQuiz.quizId}/attempt`,
      json: { answers: [{ question_id: 2001, option_id: 0 }], timeTaken: 5 },
    },
    { method: "POST", path: `/api/quiz/${cleanQuiz.quizId}/attempt`, json: { answers: [], timeTaken: 5 } },
  ],
  "api/grade": () => [
    {
      method: "POST",
      path: "/api/grade",
      json: { answers: SIM_QUESTIONS.map((id) => ({ question_id: id })), timeTaken: 5 },
    },
    { method: "POST", path: "/api/grade", json: { answers: [{ question_id: 2001, option_id: 1 }], timeTaken: 5 } },
  ],
  "api/report-question": () => [
    { method: "POST", path: "/api/report-question", json: { questionId: 2006, message: "Ancora" } },
  ],
  "api/attempts": () => [get("/api/attempts?limit=500")],
  "api/attempts/:id/summary": async (ctx) => (await ctx.attempts()).map((id) => get(`/api/attempts/${id}/summary`)),
  "api/me/wrong-questions": () => [get("/api/me/wrong-questions")],
  "api/my/reports": () => [get("/api/my/reports")],
  "api/me/analytics": () => [get("/api/me/analytics")],
  "api/friend/analytics": () => [get("/api/friend/analytics")],
  "api/friends": () => [get("/api/friends")],
  "api/friends/:id": () => [{ method: "DELETE", path: "/api/friends/999999" }],
  "api/friends/:id/accept": () => [{ method: "POST", path: "/api/friends/999999/accept", json: {} }],
  "api/profile": () => [get("/api/profile")],
  "api/profile/export": () => [get("/api/profile/export")],
  "api/profile/sessions": () => [get("/api/profile/sessions")],
  "api/simulations/:id": (ctx) => [get(`/api/simulations/${ctx.soloId ?? simId}`)],
  "api/simulations/:id/attempt": (ctx) => [
    {
      method: "POST",
      path: `/api/simulations/${ctx.soloId ?? simId}/attempt`,
      json: { answers: { "2": { "2006": "x" } }, timeTaken: 5 },
    },
  ],
  "api/simulations/:id/ranking": (ctx) => [get(`/api/simulations/${ctx.soloId ?? simId}/ranking`)],
  "api/rush/event": () => [get("/api/rush/event")],
  "api/rush/progress": () => [get("/api/rush/progress")],
  "api/rush/leaderboard": () => [get("/api/rush/leaderboard")],
  "classi/unisciti/:code": () => [get("/classi/unisciti/ABCDEF")],
  "api/classes": () => [get("/api/classes")],
  "api/classes/join": () => [{ method: "POST", path: "/api/classes/join", json: { code: "ZZZZZZ" } }],
  "api/classes/:id": () => [{ method: "DELETE", path: "/api/classes/999999" }],
  "api/classes/:id/members": () => [get("/api/classes/999999/members")],
  "api/classes/:id/members/:userId": () => [{ method: "DELETE", path: `/api/classes/999999/members/${studentId}` }],
  "api/classes/:id/code": () => [{ method: "POST", path: "/api/classes/999999/code", json: {} }],
  "api/classes/:id/invitations": () => [get("/api/classes/999999/invitations")],
  // Class progress (issue 32): accuracy per unit and forecasts, never a question; the live view: counts and scores.
  "api/classes/:id/progress": () => [get("/api/classes/999999/progress")],
  "admin/classi/:id/progressi": () => [get("/admin/classi/999999/progressi")],
  "admin/simulazioni/:id/diretta": () => [get(`/admin/simulazioni/${simId}/diretta`)],
  "api/classes/invitations": () => [get("/api/classes/invitations")],
  "api/classes/invitations/:id": () => [{ method: "DELETE", path: "/api/classes/invitations/999999" }],
  "api/classes/invitations/:id/accept": () => [{ method: "POST", path: "/api/classes/invitations/999999/accept" }],
  // Compiti (issue 32): the pupil's list and start answer titles and a quiz id; the quiz itself is /api/quiz/:id's.
  compiti: () => [get("/compiti")],
  "api/classes/:id/assignments": () => [get("/api/classes/999999/assignments")],
  "api/assignments": () => [get("/api/assignments")],
  "api/assignments/:id": () => [get("/api/assignments/999999"), get(`/api/assignments/${assignmentId}`)],
  "api/assignments/:id/start": () => [
    { method: "POST", path: "/api/assignments/999999/start", json: {} },
    { method: "POST", path: `/api/assignments/${assignmentId}/start`, json: {} },
  ],
  "api/review/due": () => [get("/api/review/due?horizon=30d")],
  "api/me/forecast": () => [get("/api/me/forecast")],
  // The plan (issue 46): counts per subject and unit, never a question; set first on an upcoming sitting if any.
  "api/me/plan": async () => [...(await planToNextSitting()), get("/api/me/plan")],
  "api/me/sitting-grades": () => [get("/api/me/sitting-grades")],
  "api/consent": () => [{ method: "POST", path: "/api/consent", json: {} }],
  "api/page-view": () => [{ method: "POST", path: "/api/page-view", json: {} }],
  "api/*": () => [get("/api/sigillo-inesistente")],
};

type TableRoute = { key: string; file: string };

function tableRoutes(entries: RouteEntry[], out: TableRoute[] = [], parent = ""): TableRoute[] {
  for (const entry of entries) {
    const own = entry.index ? "(index)" : (entry.path ?? `layout:${entry.file}`);
    const key = parent && (entry.index || entry.path) ? `${parent}/${own}` : own;
    out.push({ key, file: entry.file });
    if (entry.children)
      tableRoutes(entry.children, out, entry.path ? (parent ? `${parent}/${entry.path}` : entry.path) : parent);
  }
  return out;
}

const ROUTES = tableRoutes(routeConfig as RouteEntry[]);
const isStaffPath = (key: string) => key.startsWith("api/admin");
const concrete = (key: string) => "/" + key.replace(/:[a-zA-Z]+\??/g, "2001").replace("*", "sigillo");

/** Answers of one request: a route (loader or action) as the Worker serves it, or a layout's loader. */
async function answer(route: TableRoute, req: Req, token = student): Promise<Response> {
  if (route.key.startsWith("layout:")) {
    const loader = modules[`../../app/${route.file}`]!.loader as (args: unknown) => Promise<unknown>;
    const request = new Request(`http://localhost${req.path}`, { headers: { Authorization: `Bearer ${token}` } });
    const context = makeContext();
    provideRequestContext(request, context);
    return Response.json(await loader({ request, params: {}, context }));
  }
  return call(req.method, req.path, { token: req.token ?? token, json: req.json });
}

const attemptsOf = (userId: number) => async () =>
  (
    await env.DB.prepare("SELECT id FROM attempts WHERE user_id = ? ORDER BY id").bind(userId).all<{ id: number }>()
  ).results.map((r) => r.id);

/** Every route of the table called as one account: the leaks of `ids` found, and how many calls were made. */
async function walkRoutes(token: string, ctx: Ctx, ids: ReadonlySet<number>) {
  const found: string[] = [];
  let calls = 0;
  for (const route of ROUTES) {
    const entry = isStaffPath(route.key) ? () => staffOnly(route) : ROUTE_CALLS[route.key]!;
    if (entry === "static") continue;
    for (const req of await entry(ctx)) {
      const response = await answer(route, req, token);
      const label = `${req.method} ${req.path} (${route.key})`;
      expect(response.status, label).toBeLessThan(500);
      if (isStaffPath(route.key)) expect(response.status, label).toBe(403);
      found.push(...leaks(label, await response.text(), ids));
      calls++;
    }
  }
  return { found, calls };
}

describe("sealed questions: the guard over every route", () => {
  it("has an entry for every route of app/routes.ts (a route that serves data is called)", () => {
    const problems: string[] = [];
    for (const route of ROUTES) {
      const mod = modules[`../../app/${route.file}`] ?? {};
      if (isStaffPath(route.key)) continue;
      const entry = ROUTE_CALLS[route.key];
      if (!entry)
        problems.push(
          `Route "${route.key}" (app/${route.file}) has no entry in ROUTE_CALLS (test/integration/sealed-questions.test.ts)`,
        );
      else if (entry === "static" && (mod.loader || mod.action))
        problems.push(`Route "${route.key}" is listed as static but has a loader or an action`);
    }
    for (const key of Object.keys(ROUTE_CALLS)) {
      if (!ROUTES.some((r) => r.key === key))
        problems.push(`ROUTE_CALLS has an entry for "${key}", which is not in app/routes.ts`);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("with a simulation running, a Rush subject claimed and a common-set assignment open, no response carries a key, verdict or explanation of their questions", async () => {
    const { found, calls } = await walkRoutes(student, { attempts: attemptsOf(studentId) }, sealed);
    // The student did submit something during the seal; its summary (and every older one) was read above.
    expect(await count("attempts", `id = ${cleanQuiz.attemptId} AND status = 'completed'`)).toBe(1);
    expect(calls).toBeGreaterThan(80);
    expect(found, found.join("\n")).toEqual([]);
  });

  it("a day alone running: no route gives its student a key, verdict, explanation or their own answer of its questions before its end", async () => {
    // A student with history on every Chimica and Fisica question and due reviews of them, in their first break.
    const s = await newStudent("giornata-sigillata");
    await serverHistory(s.id);
    const started = await call("POST", "/api/me/exam-days", { token: s.token, json: {} });
    expect(started.status, await started.clone().text()).toBe(201);
    const soloId = (await json<{ id: string }>(started)).id;
    const { results } = await env.DB.prepare(
      "SELECT question_id AS id FROM simulation_questions WHERE simulation_id = ?",
    )
      .bind(soloId)
      .all<{ id: number }>();
    const dayQuestions = new Set(results.map((r) => r.id));
    await remember(s.id, [...dayQuestions]);
    const more = await env.DB.prepare(
      `SELECT id, explanation FROM questions WHERE id IN (${[...dayQuestions].join(",")})`,
    ).all<{
      id: number;
      explanation: string;
    }>();
    for (const r of more.results) explanations.set(r.id, r.explanation);
    // Into the first break (the clock hook), a few answers given and acknowledged before it.
    const moveTo = async (at: number) => {
      const row = await env.DB.prepare("SELECT start_time AS t FROM simulations WHERE id = ?")
        .bind(soloId)
        .first<{ t: number }>();
      const aheadMs = Math.max(1, Math.round(at - (Date.now() - row!.t)));
      expect(
        (await call("POST", `/api/admin/simulations/${soloId}/clock`, { token: admin, json: { aheadMs } })).status,
      ).toBe(200);
    };
    await moveTo(1000);
    const socket = await connectRoom(soloId, s.token);
    await socket.next("hello");
    const view = await json<{
      flow: { id: number; timeMin: number; questions: { id: number; type: string; options?: string[] }[] }[];
    }>(await call("GET", `/api/simulations/${soloId}`, { token: s.token }));
    for (const q of view.flow[0]!.questions.slice(0, 4)) {
      socket.send({
        type: "answer",
        seq: q.id,
        subjectId: view.flow[0]!.id,
        questionId: q.id,
        value: q.options?.[0] ?? "3",
      });
      await socket.next("ack", (m) => m.questionId === q.id);
    }
    await moveTo(view.flow[0]!.timeMin * 60_000 + 5000);
    await socket.next("subject-closed");
    socket.ws.close();

    const { found, calls } = await walkRoutes(s.token, { attempts: attemptsOf(s.id), soloId }, dayQuestions);
    expect(calls).toBeGreaterThan(80);
    expect(found, found.join("\n")).toEqual([]);
    // The walk saw the history: its summary holds the day's questions, counted out (partial, by the simulation).
    const past = (await env.DB.prepare("SELECT id FROM attempts WHERE user_id = ? AND quiz_id IS NULL")
      .bind(s.id)
      .first<{ id: number }>())!.id;
    const summary = await json<{ partial: string | null; hidden: number }>(
      await call("GET", `/api/attempts/${past}/summary`, { token: s.token }),
    );
    expect(summary.partial).toBe("simulation");
    expect(summary.hidden).toBeGreaterThan(0);
  });

  it("a second account outside the simulation's audience draws none of its questions and reads no key of them on any route", async () => {
    const simulation = new Set(SIM_QUESTIONS);
    const held = (quiz: Quiz) => quiz.questions.map((q) => q.id).filter((id) => simulation.has(id));
    // New quizzes: a whole subject, 2001's own topic, a targeted draw.
    for (const query of [
      "subjectId=2&count=31",
      `subjectId=2&topicId=${topic2001}&count=31`,
      "subjectId=2&count=31&mode=mirato",
    ]) {
      expect(held(await draw(outsider, query)), query).toEqual([]);
    }
    // A redo of questions answered before, and the quiz drawn before the start: refused while sealed.
    const redo = await call("GET", `/api/quiz?ids=${SIM_QUESTIONS.join(",")}`, { token: outsider });
    expect(redo.status).toBe(409);
    expect((await json(redo)).error).toBe(SEALED_TEXT.redoSealed);
    const submitted = await call("POST", `/api/quiz/${outsiderHeld.quizId}/attempt`, {
      token: outsider,
      json: { answers: [{ question_id: 2001, option_id: 0 }], timeTaken: 5 },
    });
    expect(submitted.status).toBe(409);
    expect((await json(submitted)).error).toBe(SEALED_TEXT.submitSealed);
    // The review lists leave them out (their due date and last verdict would tell how they were answered).
    const due = await json<{ due: { questionId: number }[] }>(
      await call("GET", "/api/review/due?horizon=30d", { token: outsider }),
    );
    expect(due.due.filter((d) => simulation.has(d.questionId))).toEqual([]);

    // An assignment seals its set for its class's pupils only: the outsider may redo those questions.
    expect((await call("GET", `/api/quiz?ids=${assignmentSet.join(",")}`, { token: outsider })).status).toBe(200);

    // Every route, as the outsider: nothing of the simulation's questions (their Rush-free world seals only those).
    const { found, calls } = await walkRoutes(outsider, { attempts: attemptsOf(outsiderId) }, simulation);
    expect(calls).toBeGreaterThan(80);
    expect(found, found.join("\n")).toEqual([]);

    // Their past attempt says its result is partial, and counts without the four.
    const past = (await env.DB.prepare("SELECT id, total FROM attempts WHERE user_id = ? AND quiz_id IS NULL")
      .bind(outsiderId)
      .first<{ id: number; total: number }>())!;
    const summary = await json<{ partial: string | null; hidden: number; total: number }>(
      await call("GET", `/api/attempts/${past.id}/summary`, { token: outsider }),
    );
    expect(summary).toMatchObject({ partial: "simulation", hidden: SIM_QUESTIONS.length, total: past.total - 4 });
  });

  it("the profile export and the reports follow the same rule: no answer, verdict or key of a sealed question, totals without it", async () => {
    const past = (await env.DB.prepare("SELECT id FROM attempts WHERE user_id = ? AND quiz_id IS NULL")
      .bind(outsiderId)
      .first<{ id: number }>())!.id;
    type Totals = { correct: number; wrong: number; blank: number; total: number; hidden: number; partial: string };
    const summary = await json<Totals & { score: number }>(
      await call("GET", `/api/attempts/${past}/summary`, { token: outsider }),
    );
    const exported = await json<{
      attempts: (Totals & {
        id: number;
        score: number;
        answers: { questionId: number; optionId: number | null; answerText: string | null; correct: boolean | null }[];
      })[];
      reports: { questionId: number; userAnswerKey: string | null }[];
    }>(await call("GET", "/api/profile/export", { token: outsider }));
    const attempt = exported.attempts.find((a) => a.id === past)!;
    const pick = ({ correct, wrong, blank, total, hidden, partial, score }: Totals & { score: number }) => ({
      correct,
      wrong,
      blank,
      total,
      hidden,
      partial,
      score,
    });
    expect(pick(attempt)).toEqual(pick(summary));
    for (const a of attempt.answers) {
      if (SIM_QUESTIONS.includes(a.questionId))
        expect(a, `question ${a.questionId}`).toMatchObject({ optionId: null, answerText: null, correct: null });
      else expect(typeof a.correct, `question ${a.questionId}`).toBe("boolean");
    }
    // (The walk above reported 2006 too, without an answer.)
    expect(exported.reports.map((r) => [r.questionId, r.userAnswerKey]).slice(0, 2)).toEqual([
      [2001, null],
      [2002, "C"],
    ]);

    const { reports } = await json<{
      reports: { questionId: number; userAnswer: string | null; correctAnswer: string | null }[];
    }>(await call("GET", "/api/my/reports", { token: outsider }));
    const byQuestion = new Map(reports.map((r) => [r.questionId, r]));
    expect(byQuestion.get(2001)).toMatchObject({ userAnswer: null, correctAnswer: null });
    expect(byQuestion.get(2002)!.userAnswer).toBe("C");
    expect(byQuestion.get(2002)!.correctAnswer).toBeTruthy();
  });

  it("the past summary withholds exactly the sealed questions, and shows their keys again once the seal is lifted", async () => {
    const past = (await env.DB.prepare("SELECT id FROM attempts WHERE user_id = ? AND quiz_id IS NULL")
      .bind(studentId)
      .first<{ id: number }>())!.id;
    type Summary = {
      questions: {
        id: number;
        sealed: boolean;
        answerIndex: number | null;
        correctText: string;
        explanation: string;
        correct: boolean | null;
      }[];
    };
    const during = await json<Summary>(await call("GET", `/api/attempts/${past}/summary`, { token: student }));
    const hidden = during.questions.filter((q) => q.sealed).map((q) => q.id);
    expect(new Set(hidden)).toEqual(sealed);
    const open = during.questions.find((q) => !q.sealed)!;
    expect(open.explanation.length).toBeGreaterThan(5);
    expect(open.correctText.length).toBeGreaterThan(0);

    // The simulation graded, the Rush quiz and the assignment submitted: nothing is sealed any more.
    await env.DB.prepare("UPDATE simulations SET graded_at = ? WHERE id = ?").bind(Date.now(), simId).run();
    for (const quiz of [rushQuiz, assignmentQuiz]) {
      const submitted = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
        token: student,
        json: { answers: [], timeTaken: 5 },
      });
      expect(submitted.status, await submitted.clone().text()).toBe(200);
    }
    const after = await json<Summary>(await call("GET", `/api/attempts/${past}/summary`, { token: student }));
    expect(after.questions.every((q) => !q.sealed)).toBe(true);
    const q2001 = after.questions.find((q) => q.id === 2001)!;
    expect(q2001.explanation).toBe(explanations.get(2001));
    expect(q2001.answerIndex).not.toBeNull();
    expect(leaks("after", JSON.stringify(after)).length).toBeGreaterThan(0); // the detector does see keys
  });
});

// --- The three attacks of issue 17, each against its own fresh student ---

async function runningSimulation(userId: number, questions: number[]) {
  const id = `attacco-${crypto.randomUUID().slice(0, 8)}`;
  await call("POST", "/api/admin/simulations", {
    token: admin,
    json: {
      id,
      title: "Simulazione in corso",
      subjects: [{ subjectId: 2, timeMin: 60, questions }],
      allowedUsers: [userId],
    },
  });
  expect((await call("POST", `/api/admin/simulations/${id}/start`, { token: admin })).status).toBe(200);
  const startTime = Date.now() - 1000;
  await env.DB.prepare(
    "UPDATE simulations SET ends_at = ends_at + (?1 - start_time), seal_until = seal_until + (?1 - start_time), start_time = ?1 WHERE id = ?2",
  )
    .bind(startTime, id)
    .run();
  await runInDurableObject(env.SIMULATION_ROOM.get(env.SIMULATION_ROOM.idFromName(`${id}:0`)), (room: SimulationRoom) =>
    room.shiftStartForTest(startTime),
  );
  return id;
}

const written = async (userId: number) => ({
  quizzes: await count("quizzes", `user_id = ${userId}`),
  attempts: await count("attempts", `user_id = ${userId}`),
  answers: await count("attempt_answers", `attempt_id IN (SELECT id FROM attempts WHERE user_id = ${userId})`),
  completed: await count("attempts", `user_id = ${userId} AND status = 'completed'`),
});

describe("the attacks of issue 17 fail", () => {
  it("1. live simulation: its question ids sent to POST /api/grade or to a redo are refused (409), nothing is written", async () => {
    const a = await newStudent("attacco-sim");
    await serverHistory(a.id); // every question answered before: a redo would otherwise be allowed
    const topic = (await env.DB.prepare("SELECT topic_id FROM questions WHERE id = 2001").first<{
      topic_id: number;
    }>())!.topic_id;
    const held = await draw(a.token, `subjectId=2&topicId=${topic}&count=31`); // drawn before the start
    const id = await runningSimulation(a.id, SIM_QUESTIONS);
    const view = await json<{ flow: { questions: { id: number }[] }[] }>(
      await call("GET", `/api/simulations/${id}`, { token: a.token }),
    );
    const ids = view.flow[0]!.questions.map((q) => q.id);
    expect(ids.sort()).toEqual([...SIM_QUESTIONS].sort()); // the open subject's ids are visible, as designed
    const before = await written(a.id);

    const graded = await call("POST", "/api/grade", {
      token: a.token,
      json: { answers: ids.map((q) => ({ question_id: q })), timeTaken: 3 },
    });
    expect(graded.status).toBe(409);
    expect((await json(graded)).error).toBe(SEALED_TEXT.gradeNotServed);

    const redo = await call("GET", `/api/quiz?ids=${ids.join(",")}`, { token: a.token });
    expect(redo.status).toBe(409);
    expect((await json(redo)).error).toBe(SEALED_TEXT.redoSealed);
    const one = await call("GET", "/api/quiz?ids=2006", { token: a.token }); // answered before, still sealed
    expect(one.status).toBe(409);

    // A practice quiz drawn before the start that holds a simulation question cannot be submitted now, by either door.
    const sheet = { answers: [{ question_id: 2001, option_id: 0 }], timeTaken: 3 };
    const direct = await call("POST", `/api/quiz/${held.quizId}/attempt`, { token: a.token, json: sheet });
    expect(direct.status).toBe(409);
    expect((await json(direct)).error).toBe(SEALED_TEXT.submitSealed);
    expect((await call("POST", "/api/grade", { token: a.token, json: sheet })).status).toBe(409);
    // The review of mistakes leaves them out while sealed (its start would be refused).
    const wrong = await json<{ items: { id: number }[] }>(
      await call("GET", "/api/me/wrong-questions", { token: a.token }),
    );
    expect(wrong.items.length).toBeGreaterThan(0);
    expect(wrong.items.some((i) => SIM_QUESTIONS.includes(i.id))).toBe(false);
    // Nor does a new random draw serve a simulation question.
    const random = await draw(a.token, "subjectId=2&count=31");
    expect(random.questions.some((q) => SIM_QUESTIONS.includes(q.id))).toBe(false);

    const after = await written(a.id);
    expect({ ...after, quizzes: after.quizzes - 1, attempts: after.attempts - 1 }).toEqual(before); // only the random draw
    expect(after.completed).toBe(before.completed);
  });

  it("1b. a pupil let in through a class (not by id) is sealed the same way", async () => {
    const a = await newStudent("attacco-classe");
    await serverHistory(a.id);
    const made = await call("POST", "/api/classes", {
      token: admin,
      json: { name: `Classe sigillata ${crypto.randomUUID().slice(0, 6)}` },
    });
    expect(made.status).toBe(201);
    const { id: classId, code } = await json<{ id: number; code: string }>(made);
    expect((await call("POST", "/api/classes/join", { token: a.token, json: { code } })).status).toBe(200);
    const id = `attacco-classe-${crypto.randomUUID().slice(0, 8)}`;
    const created = await call("POST", "/api/admin/simulations", {
      token: admin,
      json: {
        id,
        title: "Simulazione di classe",
        subjects: [{ subjectId: 2, timeMin: 60, questions: SIM_QUESTIONS }],
        allowedUsers: [],
        allowedClasses: [classId],
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await call("POST", `/api/admin/simulations/${id}/start`, { token: admin })).status).toBe(200);
    const before = await written(a.id);
    const graded = await call("POST", "/api/grade", {
      token: a.token,
      json: { answers: SIM_QUESTIONS.map((q) => ({ question_id: q })), timeTaken: 3 },
    });
    expect(graded.status).toBe(409);
    const redo = await call("GET", `/api/quiz?ids=${SIM_QUESTIONS.join(",")}`, { token: a.token });
    expect(redo.status).toBe(409);
    expect((await json(redo)).error).toBe(SEALED_TEXT.redoSealed);
    expect(await written(a.id)).toEqual(before);
  });

  it("2. claimed Rush subject: a redo of its questions is refused; POST /api/grade is the Rush submission itself, so no second, perfect try", async () => {
    const b = await newStudent("attacco-rush");
    await serverHistory(b.id);
    const quiz = await draw(b.token, `subjectId=4&count=5&rushEventId=${rushEventId}`);
    const ids = quiz.questions.map((q) => q.id);
    const before = await written(b.id);
    const redo = await call("GET", `/api/quiz?ids=${ids.join(",")}`, { token: b.token });
    expect(redo.status).toBe(409);
    expect((await json(redo)).error).toBe(SEALED_TEXT.redoSealed);
    expect(await written(b.id)).toEqual(before);
    const random = await draw(b.token, "subjectId=4&count=31");
    expect(random.questions.some((q) => ids.includes(q.id))).toBe(false);

    // Blank answers through /api/grade: that is the Rush quiz's own submission, scored 0.
    const blank = await call("POST", "/api/grade", {
      token: b.token,
      json: { answers: ids.map((q) => ({ question_id: q })), timeTaken: 3 },
    });
    expect(await json(blank)).toEqual({ attemptId: quiz.attemptId, alreadySubmitted: false });
    const progress = () =>
      env.DB.prepare("SELECT score, attempt_id FROM rush_progress WHERE event_id = ? AND user_id = ?")
        .bind(rushEventId, b.id)
        .first();
    expect(await progress()).toEqual({ score: 0, attempt_id: quiz.attemptId });
    // The keys are visible now (submitted), and the perfect answers change nothing.
    const { results } = await env.DB.prepare(
      `SELECT id, type, correct_index, accepted_answers FROM questions WHERE id IN (${ids.join(",")})`,
    ).all<{
      id: number;
      type: string;
      correct_index: number;
      accepted_answers: string;
    }>();
    const perfect = results.map((r) =>
      r.type === "mc"
        ? { question_id: r.id, option_id: r.correct_index }
        : { question_id: r.id, answer_text: JSON.parse(r.accepted_answers)[0] },
    );
    const second = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: b.token,
      json: { answers: perfect, timeTaken: 4 },
    });
    expect(await json(second)).toEqual({ attemptId: quiz.attemptId, alreadySubmitted: true });
    const again = await call("POST", "/api/grade", { token: b.token, json: { answers: perfect, timeTaken: 4 } });
    expect(again.status).toBe(409); // no open quiz served them any more
    expect(await progress()).toEqual({ score: 0, attempt_id: quiz.attemptId });
  });

  it("3. a brand-new account cannot read the bank's keys: a redo of unanswered ids is a 403, grading unserved ids a 409, nothing written", async () => {
    const n = await newStudent("attacco-nuovo");
    const redo = await call("GET", "/api/quiz?ids=1001,1002,1003", { token: n.token });
    expect(redo.status).toBe(403);
    expect((await json(redo)).error).toBe("Puoi ripetere solo domande a cui hai già risposto.");
    const graded = await call("POST", "/api/grade", {
      token: n.token,
      json: { answers: [{ question_id: 1001 }, { question_id: 1002 }], timeTaken: 3 },
    });
    expect(graded.status).toBe(409);
    expect((await json(graded)).error).toMatch(/quiz in corso/);
    expect(await written(n.id)).toEqual({ quizzes: 0, attempts: 0, answers: 0, completed: 0 });

    // An open practice quiz: /api/grade on its ids is its one submission; the blank-then-perfect trick gets nothing.
    const quiz = await draw(n.token, "subjectId=1&count=3");
    const ids = quiz.questions.map((q) => q.id);
    const blank = await json(
      await call("POST", "/api/grade", {
        token: n.token,
        json: { answers: ids.map((q) => ({ question_id: q })), timeTaken: 3 },
      }),
    );
    expect(blank).toEqual({ attemptId: quiz.attemptId, alreadySubmitted: false });
    const retry = await call("POST", `/api/quiz/${quiz.quizId}/attempt`, {
      token: n.token,
      json: { answers: [{ question_id: ids[0], option_id: 0 }], timeTaken: 3 },
    });
    expect(await json(retry)).toEqual({ attemptId: quiz.attemptId, alreadySubmitted: true });
    expect(
      await env.DB.prepare("SELECT correct, blank FROM attempts WHERE id = ?").bind(quiz.attemptId).first(),
    ).toEqual({ correct: 0, blank: 3 });
    // Now answered: a redo of them is allowed.
    expect((await call("GET", `/api/quiz?ids=${ids.join(",")}`, { token: n.token })).status).toBe(200);
  });
});

// --- Issue 28: a past attempt holding a sealed question shows totals that reveal nothing ---

type Outcome = "right" | "wrong" | "blank";

/** A submitted attempt written on the server (served: no quiz, no idempotency key), answers and totals as graded. */
async function writeAttempt(userId: number, questionIds: number[], outcome: (id: number) => Outcome, at: number) {
  const { results: qs } = await env.DB.prepare(
    `SELECT id, type, correct_index, accepted_answers FROM questions WHERE id IN (${questionIds.join(",")}) ORDER BY id`,
  ).all<{ id: number; type: "mc" | "gap"; correct_index: number | null; accepted_answers: string | null }>();
  const rows = qs.map((q) => {
    const o = outcome(q.id);
    const right = q.type === "mc" ? q.correct_index! : (JSON.parse(q.accepted_answers!) as string[])[0]!;
    const wrong = q.type === "mc" ? (q.correct_index! + 1) % 5 : "zzz";
    const given = o === "blank" ? null : o === "right" ? right : wrong;
    return { q, given, correct: o === "blank" ? null : o === "right" ? 1 : 0 };
  });
  const correct = rows.filter((r) => r.correct === 1).length;
  const wrong = rows.filter((r) => r.correct === 0).length;
  const attempt = await env.DB.prepare(
    `INSERT INTO attempts (user_id, subject_id, status, started_at, finished_at, time_taken, total, correct, wrong, blank, score)
     VALUES (?, 2, 'completed', ?, ?, 300, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      userId,
      at,
      at + 300_000,
      rows.length,
      correct,
      wrong,
      rows.length - correct - wrong,
      summaryScore(correct, wrong, rows.length),
    )
    .first<{ id: number }>();
  for (const [position, r] of rows.entries()) {
    await env.DB.prepare(
      `INSERT INTO attempt_answers (attempt_id, position, question_id, option_id, answer_text, correct, time_sec, answered_at)
       VALUES (?, ?, ?, ?, ?, ?, 20, ?)`,
    )
      .bind(
        attempt!.id,
        position,
        r.q.id,
        r.q.type === "mc" ? r.given : null,
        r.q.type === "gap" ? r.given : null,
        r.correct,
        at + 300_000,
      )
      .run();
  }
  return attempt!.id;
}

type Summary = {
  attemptId: number;
  partial: string | null;
  hidden: number;
  total: number;
  correct: number;
  wrong: number;
  blank: number;
  score: number;
  listScore: number;
  percentCorrect: number;
  questions: Record<string, unknown>[];
};

/** Everything the account sees of its past attempt and of its history, with the ids that differ between accounts dropped. */
async function visibleHistory(token: string, attemptId: number) {
  const { attemptId: _id, ...summary } = await json<Summary>(
    await call("GET", `/api/attempts/${attemptId}/summary`, { token }),
  );
  const list = (await json<{ id: number }[]>(await call("GET", "/api/attempts", { token }))).map(
    ({ id: _i, ...item }) => item,
  );
  const analytics = await json<{
    improvementLastMonthPct: number | null;
    subjects: { studentAttempts: { id: number }[]; studentTopicAccuracy: unknown }[];
  }>(await call("GET", "/api/me/analytics", { token }));
  const exported = await json<{
    attempts: { id: number; userId: number; answers: unknown[] }[];
    reports: { questionId: number; userAnswerKey: string | null }[];
  }>(await call("GET", "/api/profile/export", { token }));
  const { reports } = await json<{ reports: { questionId: number; userAnswer: unknown; correctAnswer: unknown }[] }>(
    await call("GET", "/api/my/reports", { token }),
  );
  const due = await json<{ due: unknown[] }>(await call("GET", "/api/review/due?horizon=30d", { token }));
  return {
    summary,
    list,
    analytics: {
      improvement: analytics.improvementLastMonthPct,
      subjects: analytics.subjects.map((s) => ({
        attempts: s.studentAttempts.map(({ id: _i, ...a }) => a),
        topics: s.studentTopicAccuracy,
      })),
    },
    forecast: await json(await call("GET", "/api/me/forecast", { token })),
    exported: {
      attempts: exported.attempts.map(({ id: _i, userId: _u, ...a }) => a),
      reports: exported.reports.map((r) => [r.questionId, r.userAnswerKey]),
    },
    reports: reports.map((r) => [r.questionId, r.userAnswer, r.correctAnswer]),
    due: due.due,
  };
}

describe("issue 28: a past attempt holding a sealed question", () => {
  it("shows no verdict, own answer or key of it, and totals that do not depend on how it was answered", async () => {
    // A clean slate: the simulations of the tests above are over.
    await env.DB.prepare("UPDATE simulations SET graded_at = ? WHERE graded_at IS NULL").bind(Date.now()).run();
    const { results: bank } = await env.DB.prepare(
      "SELECT id, type FROM questions WHERE subject_id = 2 AND active = 1 ORDER BY id LIMIT 10",
    ).all<{ id: number; type: "mc" | "gap" }>();
    const sealedMc = bank.find((q) => q.type === "mc")!.id;
    const sealedGap = bank.find((q) => q.type === "gap")!.id;
    const hiddenIds = [sealedMc, sealedGap];
    const ids = bank.map((q) => q.id);
    const others = ids.filter((id) => !hiddenIds.includes(id));
    const at = Date.now() - 2 * 86_400_000;
    // Three members of the audience, alike in everything but their answers to the two sealed questions.
    const students = await Promise.all(
      ["giusto", "sbagliato", "vuoto"].map((label) => newStudent(`parziale-${label}`)),
    );
    const outcomes: Outcome[] = ["right", "wrong", "blank"];
    const attemptIds: number[] = [];
    for (const [i, s] of students.entries()) {
      attemptIds.push(
        await writeAttempt(
          s.id,
          ids,
          (id) => (hiddenIds.includes(id) ? outcomes[i]! : id % 3 === 0 ? "wrong" : "right"),
          at,
        ),
      );
      await remember(s.id, hiddenIds, () => (outcomes[i] === "right" ? 1 : 0));
      const report = { questionId: sealedMc, attemptId: attemptIds[i], note: "Dubbio", userAnswerKey: outcomes[i] };
      expect((await call("POST", "/api/report-question", { token: s.token, json: report })).status).toBe(200);
    }
    // A fourth, whose attempt never had the two questions: what the others' totals must equal.
    const without = await newStudent("parziale-senza");
    const withoutId = await writeAttempt(without.id, others, (id) => (id % 3 === 0 ? "wrong" : "right"), at);

    const simulation = `parziale-${crypto.randomUUID().slice(0, 8)}`;
    expect(
      (
        await call("POST", "/api/admin/simulations", {
          token: admin,
          json: {
            id: simulation,
            title: "Simulazione in corso",
            subjects: [{ subjectId: 2, timeMin: 60, questions: hiddenIds }],
            allowedUsers: students.map((s) => s.id),
          },
        })
      ).status,
    ).toBe(201);
    expect((await call("POST", `/api/admin/simulations/${simulation}/start`, { token: admin })).status).toBe(200);

    const seen = await Promise.all(students.map((s, i) => visibleHistory(s.token, attemptIds[i]!)));
    // Identical, whatever the answer: nothing to subtract.
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    const { summary } = seen[0]!;
    for (const id of hiddenIds) {
      expect(summary.questions.find((q) => q.id === id)).toMatchObject({
        sealed: true,
        correct: null,
        score: null,
        selectedIndex: null,
        userText: null,
        answerIndex: null,
        correctText: "",
        explanation: "",
      });
    }
    expect(summary).toMatchObject({ partial: "simulation", hidden: 2 });
    const reference = await json<Summary>(
      await call("GET", `/api/attempts/${withoutId}/summary`, { token: without.token }),
    );
    const totals = (s: Omit<Summary, "attemptId">) => [
      s.total,
      s.correct,
      s.wrong,
      s.blank,
      s.score,
      s.listScore,
      s.percentCorrect,
    ];
    expect(totals(summary)).toEqual(totals(reference));
    expect(reference).toMatchObject({ partial: null, hidden: 0 });
    expect(seen[0]!.list[0]).toMatchObject({
      total: reference.total,
      correct: reference.correct,
      partial: "simulation",
      hidden: 2,
    });
    expect(seen[0]!.reports).toEqual([[sealedMc, null, null]]);

    // The simulation graded: each sees their own answers, verdicts and full totals again.
    await env.DB.prepare("UPDATE simulations SET graded_at = ? WHERE id = ?").bind(Date.now(), simulation).run();
    const after = await Promise.all(students.map((s, i) => visibleHistory(s.token, attemptIds[i]!)));
    expect(after[0]!.summary).not.toEqual(after[1]!.summary);
    expect(after[0]!.summary).toMatchObject({ partial: null, hidden: 0, total: ids.length });
    expect(after[0]!.summary.questions.find((q) => q.id === sealedMc)).toMatchObject({ sealed: false, correct: true });
    expect(after[1]!.summary.questions.find((q) => q.id === sealedMc)).toMatchObject({ sealed: false, correct: false });
    expect(after[0]!.reports).toEqual([[sealedMc, "right", expect.any(String)]]);
  });
});
