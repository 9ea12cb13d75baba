// npm run bench: builds the app, serves the production build on loopback with its own seeded state,
// runs every suite and prints figures measured in this one run. Loopback only; bounded request counts.
import { mkdirSync, writeFileSync } from "node:fs";
import { benchDashboard } from "./dashboard.ts";
import { benchPages } from "./pages.ts";
import { startProductionServer } from "./lib/server.ts";

const server = await startProductionServer();
try {
  const pages = await benchPages(server);
  // Last: it restarts the server on a database enlarged to 200,000 attempts.
  const dashboard = await benchDashboard(server);
  const results = { date: new Date().toISOString(), pages, dashboard };
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/latest.json", JSON.stringify(results, null, 2));
  console.log("\nSaved bench/results/latest.json");
} finally {
  await server.stop();
}
