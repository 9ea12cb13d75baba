// Admin console: server time of the analytics and reports calls next to a static asset, and the time
// to import a 3,500-question bank (a ministerial bank's size) through POST /api/admin/import.
import { devCookie, type LocalServer } from "./lib/server.ts";
import { latencyAgainstAsset, latencyRows, ms } from "./lib/stats.ts";

const REQUESTS = 100;
const BANK_SIZE = 3500;

function bank(size: number, offset: number) {
  return Array.from({ length: size }, (_, i) =>
    i % 2
      ? {
          subjectId: 2,
          topicId: 204,
          type: "gap",
          stem: `Bench ${offset + i}: il pH neutro a 25 °C vale ____.`,
          accepted: ["7", "sette"],
          explanation: "A 25 °C il pH neutro è 7.",
          difficulty: 1 + (i % 5),
        }
      : {
          subjectId: 1,
          topicId: 101,
          type: "mc",
          stem: `Bench ${offset + i}: quale organulo produce ATP?`,
          options: ["Il mitocondrio", "Il ribosoma", "Il lisosoma", "Il nucleolo", "Il centriolo"],
          correct: 0,
          explanation: "La fosforilazione ossidativa avviene nei mitocondri.",
          difficulty: 3,
        },
  );
}

export async function benchAdmin(server: LocalServer) {
  const { baseUrl } = server;
  const cookie = await devCookie(baseUrl, "admin@example.com");
  const results = await latencyAgainstAsset(
    baseUrl,
    REQUESTS,
    [
      ["GET /api/admin/analytics", "/api/admin/analytics"],
      ["GET /api/admin/reports", "/api/admin/reports"],
      ["GET /api/admin/attempts?page=1", "/api/admin/attempts?page=1"],
      ["GET /api/admin/users?page=1", "/api/admin/users?page=1"],
      ["GET /admin (SSR)", "/admin"],
    ],
    cookie,
  );
  console.log("\nAdmin console, server time over loopback (sequential requests):");
  console.table(latencyRows(results, REQUESTS));

  const imports: number[] = [];
  for (let run = 0; run < 3; run++) {
    const body = JSON.stringify({ questions: bank(BANK_SIZE, run * BANK_SIZE) });
    const start = performance.now();
    const response = await fetch(`${baseUrl}/api/admin/import`, {
      method: "POST",
      headers: { cookie, "Content-Type": "application/json" },
      body,
    });
    const answer = (await response.json()) as { importedQuestions?: number; error?: string };
    if (!response.ok || answer.importedQuestions !== BANK_SIZE)
      throw new Error(`import failed: ${response.status} ${answer.error}`);
    imports.push(performance.now() - start);
  }
  console.log(
    `Import of ${BANK_SIZE} questions (JSON, all-or-nothing), 3 runs: ${imports.map((t) => ms(t)).join(", ")} (limit 10 s)`,
  );
  return { latency: results, importMs: imports };
}
