// npm run bench: builds the app, serves the production build on loopback with its own seeded state,
// runs every suite and prints figures measured in this one run. Loopback only; bounded request counts.
import { mkdirSync, writeFileSync } from "node:fs";
import { benchAdmin } from "./admin.ts";
import { benchLcp } from "./lcp.ts";
import { benchPages } from "./pages.ts";
import { benchPractice } from "./practice.ts";
import { benchRush } from "./rush.ts";
import { startProductionServer } from "./lib/server.ts";

const server = await startProductionServer();
try {
  const results: Record<string, unknown> = { date: new Date().toISOString() };
  results.pages = await benchPages(server);
  results.lcp = await benchLcp(server);
  results.practice = await benchPractice(server);
  results.admin = await benchAdmin(server);
  results.rush = await benchRush(server);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/latest.json", JSON.stringify(results, null, 2));
  console.log("\nSaved bench/results/latest.json");
} finally {
  await server.stop();
}
