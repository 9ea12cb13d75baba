// Classes (issue 11): the time a teacher takes to create a class and invite 200 pupils by pasting e-mails (POST
// /api/classes + POST /api/classes/:id/members, as the Classi tab does; issue 28: pasting makes invitations), and
// the server time of GET /api/classes/:id/members for a class of 1,000 (filled by its pupils joining with the code),
// next to a static asset; and (issue 32) GET /api/classes/:id/progress for a class of 200 pupils with 60 days of
// practice history: its server time and the D1 round trips it makes one after the other (its Server-Timing).
import { readFileSync } from "node:fs";
import { prng } from "../app/lib/prng.ts";
import { devCookie, type LocalServer } from "./lib/server.ts";
import { latencyAgainstAsset, latencyRows, ms, percentile, timeRequests } from "./lib/stats.ts";

const CLASS_OF = 200;
const BIG_CLASS = 1000;
const CREATE_RUNS = 5;
const REQUESTS = 100;
const PROGRESS_CLASS = 200;
const PROGRESS_REQUESTS = 50;
const HISTORY_DAYS = 60;
const ANSWERS_PER_DAY = 10;
const DAY = 86_400_000;

async function post(baseUrl: string, path: string, cookie: string, body: unknown) {
  let response: Response;
  let text: string;
  // The local preview's hop to workerd sometimes answers 500 "fetch failed" (ENGINEERING.md): try again.
  for (let attempt = 0; ; attempt++) {
    response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { cookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    text = await response.text();
    if (response.status !== 500 || !text.includes("fetch failed") || attempt >= 3) break;
  }
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${path}: ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (!response.ok) throw new Error(`${path}: ${response.status} ${String(answer.error)}`);
  return answer;
}

export async function benchClasses(server: LocalServer) {
  const { baseUrl } = server;
  const stamp = Date.now();
  const admin = await devCookie(baseUrl, "admin@example.com");
  const teacher = await devCookie(baseUrl, "docente@example.com");
  // Issue 32 first: the older figures below stop at the first failed call, and theirs must not hide these.
  const progress = await benchProgress(baseUrl, admin, teacher, stamp);
  try {
    return { ...(await benchMembers(baseUrl, admin, teacher, stamp)), ...progress };
  } catch (error) {
    console.error("classes: the invitation and member-list figures failed:", error);
    return { membersError: String(error), ...progress };
  }
}

async function benchMembers(baseUrl: string, admin: string, teacher: string, stamp: number) {
  // Students with accounts (the big class's pupils sign in to join it), imported in one call.
  const emails = Array.from(
    { length: BIG_CLASS + CLASS_OF * CREATE_RUNS },
    (_, i) => `bench-${stamp}-${i}@bench.unicum.it`,
  );
  const users = emails.map((email, i) => ({ email, name: `Studente Bench ${i}` }));
  for (let i = 0; i < users.length; i += 1000) {
    await post(baseUrl, "/api/admin/import-users", admin, { users: users.slice(i, i + 1000) });
  }

  // A class and 200 invitations by pasted e-mails: create + one paste, timed end to end over loopback.
  const createTimes: number[] = [];
  for (let run = 0; run < CREATE_RUNS; run++) {
    const pasted = emails.slice(BIG_CLASS + run * CLASS_OF, BIG_CLASS + (run + 1) * CLASS_OF).join("\n");
    const start = performance.now();
    const cls = await post(baseUrl, "/api/classes", teacher, { name: `Bench ${stamp} ${run}` });
    const added = await post(baseUrl, `/api/classes/${cls.id}/members`, teacher, { emails: pasted });
    createTimes.push(performance.now() - start);
    if (added.invited !== CLASS_OF) throw new Error(`invited ${String(added.invited)} of ${CLASS_OF}`);
  }
  console.log(
    `\nClass of ${CLASS_OF} invited by pasting e-mails (POST /api/classes + POST …/members), ${CREATE_RUNS} runs: ${createTimes.map(ms).join(", ")}; p50 ${ms(percentile(createTimes, 50))}`,
  );

  // A class of 1,000 (its pupils join with the code, 25 at a time) and its member list.
  const big = await post(baseUrl, "/api/classes", teacher, { name: `Bench ${stamp} grande` });
  const start = performance.now();
  for (let i = 0; i < BIG_CLASS; i += 25) {
    await Promise.all(
      emails.slice(i, Math.min(i + 25, BIG_CLASS)).map(async (email) => {
        await post(baseUrl, "/api/classes/join", await devCookie(baseUrl, email), { code: big.code });
      }),
    );
  }
  const bigPasteMs = performance.now() - start;
  console.log(`Class of ${BIG_CLASS} filled by its pupils joining with the code: ${ms(bigPasteMs)}`);
  const latency = await latencyAgainstAsset(
    baseUrl,
    REQUESTS,
    [
      [`GET /api/classes/:id/members (${BIG_CLASS} members)`, `/api/classes/${big.id}/members`],
      ["GET /api/classes (teacher)", "/api/classes"],
    ],
    teacher,
  );
  console.log("\nClasses, server time over loopback (sequential requests):");
  console.table(latencyRows(latency, REQUESTS));
  return { inviteClassOf200Ms: createTimes, fillClassOf1000Ms: bigPasteMs, latency };
}

/** The bank's multiple-choice questions of the three exam subjects (ids and correct option), from the seed files. */
function examQuestions() {
  return ["chimica", "fisica", "biologia"].map((name) => {
    const bank = JSON.parse(readFileSync(`seed/bank/${name}.json`, "utf8")) as {
      subject: { id: number };
      questions: { id: number; type: string; correct?: number; options?: string[] }[];
    };
    return {
      subjectId: bank.subject.id,
      questions: bank.questions.filter((q) => q.type === "mc" && q.options?.length && q.correct != null),
    };
  });
}

/**
 * A class of 200 pupils, each with one practice attempt of 10 questions a day for 60 days (12,000 attempts, 120,000
 * answers, imported by the admin), then GET /api/classes/:id/progress as its teacher: p50/p95 and the sequential D1
 * round trips its Server-Timing reports (the most seen).
 */
async function benchProgress(baseUrl: string, admin: string, teacher: string, stamp: number) {
  const rand = prng(32);
  const subjects = examQuestions();
  const pupils = Array.from({ length: PROGRESS_CLASS }, (_, i) => ({
    email: `progress-${stamp}-${i}@bench.unicum.it`,
    name: `Studente Progressi ${i}`,
    ability: 0.35 + rand() * 0.5,
  }));
  await post(baseUrl, "/api/admin/import-users", admin, { users: pupils.map(({ email, name }) => ({ email, name })) });
  const now = Date.now();
  const attempts = pupils.flatMap((p) =>
    Array.from({ length: HISTORY_DAYS }, (_, day) => {
      const subject = subjects[Math.floor(rand() * subjects.length)]!;
      const startedAt = now - (day + 1) * DAY + Math.floor(rand() * 8 * 3_600_000);
      return {
        email: p.email,
        subjectId: subject.subjectId,
        startedAt: new Date(startedAt).toISOString(),
        answers: Array.from({ length: ANSWERS_PER_DAY }, () => {
          const q = subject.questions[Math.floor(rand() * subject.questions.length)]!;
          const right = rand() < p.ability;
          return {
            questionId: q.id,
            optionId: right ? q.correct! : (q.correct! + 1) % q.options!.length,
            timeSec: 30,
          };
        }),
      };
    }),
  );
  const importStart = performance.now();
  // Three calls (the admin's imports are limited to 10 a minute).
  for (let i = 0; i < attempts.length; i += 4000) {
    await post(baseUrl, "/api/admin/import-attempts", admin, { attempts: attempts.slice(i, i + 4000) });
  }
  console.log(
    `\nClass progress: ${attempts.length} attempts (${attempts.length * ANSWERS_PER_DAY} answers) of ${PROGRESS_CLASS} pupils over ${HISTORY_DAYS} days imported in ${ms(performance.now() - importStart)}`,
  );
  const cls = await post(baseUrl, "/api/classes", teacher, { name: `Bench progressi ${stamp}` });
  for (let i = 0; i < pupils.length; i += 5) {
    await Promise.all(
      pupils.slice(i, i + 5).map(async (p) => {
        await post(baseUrl, "/api/classes/join", await devCookie(baseUrl, p.email), { code: cls.code });
      }),
    );
  }
  let sequential = 0;
  const path = `/api/classes/${cls.id}/progress`;
  const times = await timeRequests(
    PROGRESS_REQUESTS,
    async () => {
      const response = await fetch(`${baseUrl}${path}`, { headers: { cookie: teacher } });
      const seen = /d1;desc="(\d+) sequential/.exec(response.headers.get("Server-Timing") ?? "");
      if (!seen) throw new Error(`${path}: no D1 round trips in Server-Timing (${response.status})`);
      sequential = Math.max(sequential, Number(seen[1]));
      return response;
    },
    5,
  );
  const body = (await (await fetch(`${baseUrl}${path}`, { headers: { cookie: teacher } })).json()) as {
    pupils: unknown[];
  };
  if (body.pupils.length !== PROGRESS_CLASS) throw new Error(`progress counted ${body.pupils.length} pupils`);
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);
  console.log(
    `GET /api/classes/:id/progress (${PROGRESS_CLASS} pupils, ${HISTORY_DAYS} days), ${PROGRESS_REQUESTS} sequential requests: p50 ${ms(p50)}, p95 ${ms(p95)}; D1 round trips in sequence: ${sequential}`,
  );
  return { progressSequentialD1: sequential, progressP50Ms: p50, progressP95Ms: p95 };
}
