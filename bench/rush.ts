// Quiz Rush under load: /rush (SSR) and the rush calls with an active event holding 2,000 students ×
// 5 graded subjects, next to a static asset fetched in the same run; plus the JavaScript /rush loads.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_STATE, devCookie, type LocalServer } from "./lib/server.ts";
import { latencyAgainstAsset, latencyRows } from "./lib/stats.ts";

const REQUESTS = 200;
const STUDENTS = 2000;

function fillEvent(eventId: number) {
  // Rush scores are written only by grading; the benchmark writes its rows straight into its own D1.
  const now = Date.now();
  const lines = ["INSERT OR IGNORE INTO users (id, email, name, role, status) VALUES"];
  const users: string[] = [];
  const rows: string[] = [];
  for (let i = 0; i < STUDENTS; i++) {
    const id = 10_000 + i;
    users.push(`(${id}, 'rush${i}@bench.unicum.it', 'Rush ${i}', 'studente', 'attivo')`);
    for (let subject = 1; subject <= 5; subject++) {
      const score = ((i * 7919 + subject * 104729) % 311) / 10;
      const time = 300 + ((i * 31 + subject * 17) % 1500);
      rows.push(
        `(${eventId}, ${id}, ${subject}, ${score}, ${time}, ${now - 3_600_000}, ${now - ((i + subject) % 3000) * 1000})`,
      );
    }
  }
  // The demo student has three graded subjects.
  for (const subject of [1, 2, 3])
    rows.push(`(${eventId}, 1, ${subject}, ${20 + subject}, 900, ${now - 3_600_000}, ${now - 600_000})`);
  const chunks: string[] = [];
  for (let i = 0; i < users.length; i += 400) chunks.push(`${lines[0]} ${users.slice(i, i + 400).join(", ")};`);
  for (let i = 0; i < rows.length; i += 400) {
    chunks.push(
      `INSERT INTO rush_progress (event_id, user_id, subject_id, score, time_sec, started_at, finished_at) VALUES ${rows.slice(i, i + 400).join(", ")};`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "unicum-rush-bench-"));
  const file = join(dir, "rush.sql");
  writeFileSync(file, chunks.join("\n"));
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", BENCH_STATE, "--file", file],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  rmSync(dir, { recursive: true, force: true });
}

export async function benchRush(server: LocalServer) {
  const { baseUrl } = server;
  const admin = await devCookie(baseUrl, "admin@example.com");
  const created = await fetch(`${baseUrl}/api/admin/rush-events`, {
    method: "POST",
    headers: { cookie: admin, "Content-Type": "application/json" },
    body: JSON.stringify({
      title: "Bench",
      startsAt: new Date(Date.now() - 7_200_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      published: true,
    }),
  });
  if (created.status !== 201) throw new Error(`rush event: ${created.status}`);
  const { id } = (await created.json()) as { id: number };
  fillEvent(id);
  const cookie = await devCookie(baseUrl, "studente@example.com");
  const board = (await (await fetch(`${baseUrl}/api/rush/leaderboard`, { headers: { cookie } })).json()) as {
    overall: number;
    participants: number;
  };
  if (!(board.participants > STUDENTS)) throw new Error(`unexpected leaderboard ${JSON.stringify(board)}`);

  const results = await latencyAgainstAsset(
    baseUrl,
    REQUESTS,
    [
      ["GET /rush (SSR, signed in)", "/rush"],
      ["GET /api/rush/leaderboard", "/api/rush/leaderboard"],
      ["GET /api/rush/progress", "/api/rush/progress"],
      ["GET /api/rush/event", "/api/rush/event"],
    ],
    cookie,
  );
  console.log(
    `\nQuiz Rush with ${board.participants} ranked students × 5 subjects (demo student overall #${board.overall}):`,
  );
  console.table(latencyRows(results, REQUESTS));
  return { participants: board.participants, latency: results };
}
