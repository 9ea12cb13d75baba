// Practice loop: server time of grading a 31-question attempt (p50/p99), and attempts submitted per
// second at 20 concurrent clients next to GET /api/me measured the same way in the same run.
import { devCookie, type LocalServer } from "./lib/server.ts";
import { ms, percentile } from "./lib/stats.ts";

const SEQUENTIAL = 150;
const CONCURRENT_CLIENTS = 20;
const CONCURRENT_ATTEMPTS = 300;

type Quiz = { quizId: number; questions: { id: number; type: "mc" | "gap" }[] };

/**
 * Drawing a quiz is limited to 30 a minute per user (QUIZ_LIMITER, wrangler.jsonc): the run draws its 455 quizzes
 * as the 50 synthetic students in turn (about 9 each), so it measures grading, not the limiter.
 */
const DRAWERS = 50;

async function drawerCookies(baseUrl: string): Promise<string[]> {
  const emails = Array.from({ length: DRAWERS }, (_, i) => `studente${String(i + 1).padStart(2, "0")}@demo.unicum.it`);
  return Promise.all(emails.map((email) => devCookie(baseUrl, email)));
}

async function drawQuiz(baseUrl: string, cookie: string): Promise<Quiz> {
  const response = await fetch(`${baseUrl}/api/quiz?subjectId=1&count=31`, { headers: { cookie } });
  if (!response.ok) throw new Error(`draw failed: ${response.status}`);
  return (await response.json()) as Quiz;
}

function answerSheet(quiz: Quiz) {
  return JSON.stringify({
    answers: quiz.questions.map((q, i) =>
      q.type === "mc"
        ? { question_id: q.id, option_id: i % 5, answer_text: null, time_sec: 20 }
        : { question_id: q.id, option_id: null, answer_text: i % 3 ? "mitocondrio" : null, time_sec: 30 },
    ),
    timeTaken: 600,
  });
}

async function submit(baseUrl: string, cookie: string, quiz: Quiz, body: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${baseUrl}/api/quiz/${quiz.quizId}/attempt`, {
    method: "POST",
    headers: { cookie, "Content-Type": "application/json" },
    body,
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`submit failed: ${response.status}`);
  return performance.now() - start;
}

/** Runs `total` jobs with `clients` in flight at once; returns each duration and the wall time. */
async function concurrently(total: number, clients: number, job: (i: number) => Promise<number>) {
  const times: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        const i = next++;
        times.push(await job(i));
      }
    }),
  );
  return { times, wallMs: performance.now() - start };
}

export async function benchPractice(server: LocalServer) {
  const { baseUrl } = server;
  const cookie = await devCookie(baseUrl, "studente@example.com");
  const drawers = await drawerCookies(baseUrl);
  let draws = 0;
  const nextDrawer = () => drawers[draws++ % drawers.length]!;

  // Warm-up, then sequential grading of fresh 31-question quizzes (only the submission is timed).
  for (let i = 0; i < 5; i++) {
    const who = nextDrawer();
    const quiz = await drawQuiz(baseUrl, who);
    await submit(baseUrl, who, quiz, answerSheet(quiz));
  }
  const sequential: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const who = nextDrawer();
    const quiz = await drawQuiz(baseUrl, who);
    sequential.push(await submit(baseUrl, who, quiz, answerSheet(quiz)));
  }

  // Throughput: quizzes drawn beforehand, then submitted by 20 clients at once.
  const quizzes: { quiz: Quiz; who: string }[] = [];
  for (let i = 0; i < CONCURRENT_ATTEMPTS; i++) {
    const who = nextDrawer();
    quizzes.push({ quiz: await drawQuiz(baseUrl, who), who });
  }
  const bodies = quizzes.map(({ quiz }) => answerSheet(quiz));
  const attemptsRun = await concurrently(CONCURRENT_ATTEMPTS, CONCURRENT_CLIENTS, (i) =>
    submit(baseUrl, quizzes[i]!.who, quizzes[i]!.quiz, bodies[i]!),
  );
  const meRun = await concurrently(CONCURRENT_ATTEMPTS, CONCURRENT_CLIENTS, async () => {
    const start = performance.now();
    const response = await fetch(`${baseUrl}/api/me`, { headers: { cookie } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET /api/me failed: ${response.status}`);
    return performance.now() - start;
  });

  const grading = { requests: SEQUENTIAL, p50: percentile(sequential, 50), p99: percentile(sequential, 99) };
  const perSecond = (run: { times: number[]; wallMs: number }) => (run.times.length / run.wallMs) * 1000;
  const throughput = [
    { what: "POST /api/quiz/{id}/attempt (31 questions)", run: attemptsRun },
    { what: "GET /api/me", run: meRun },
  ].map(({ what, run }) => ({
    what,
    requests: run.times.length,
    clients: CONCURRENT_CLIENTS,
    "per second": perSecond(run).toFixed(1),
    p50: ms(percentile(run.times, 50)),
    p99: ms(percentile(run.times, 99)),
  }));
  console.log("\nGrading a 31-question attempt (sequential, fresh quiz each time, after 5 warm-up):");
  console.table([
    { what: "POST /api/quiz/{id}/attempt", requests: grading.requests, p50: ms(grading.p50), p99: ms(grading.p99) },
  ]);
  console.log(`Throughput at ${CONCURRENT_CLIENTS} concurrent clients (same run):`);
  console.table(throughput);
  console.log(`Attempts/s ÷ GET /api/me per second: ${(perSecond(attemptsRun) / perSecond(meRun)).toFixed(2)}`);
  return {
    grading,
    throughput: {
      clients: CONCURRENT_CLIENTS,
      attemptsPerSecond: perSecond(attemptsRun),
      mePerSecond: perSecond(meRun),
      attemptsP50: percentile(attemptsRun.times, 50),
      attemptsP99: percentile(attemptsRun.times, 99),
      meP50: percentile(meRun.times, 50),
      meP99: percentile(meRun.times, 99),
    },
  };
}
