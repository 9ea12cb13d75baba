// Classes (issue 11): the time a teacher takes to create a class and invite 200 pupils by pasting e-mails (POST
// /api/classes + POST /api/classes/:id/members, as the Classi tab does; issue 28: pasting makes invitations), and
// the server time of GET /api/classes/:id/members for a class of 1,000 (filled by its pupils joining with the code),
// next to a static asset.
import { devCookie, type LocalServer } from "./lib/server.ts";
import { latencyAgainstAsset, latencyRows, ms, percentile } from "./lib/stats.ts";

const CLASS_OF = 200;
const BIG_CLASS = 1000;
const CREATE_RUNS = 5;
const REQUESTS = 100;

async function post(baseUrl: string, path: string, cookie: string, body: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${String(answer.error)}`);
  return answer;
}

export async function benchClasses(server: LocalServer) {
  const { baseUrl } = server;
  const stamp = Date.now();
  const admin = await devCookie(baseUrl, "admin@example.com");
  const teacher = await devCookie(baseUrl, "docente@example.com");

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
