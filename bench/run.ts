// npm run bench: builds the app, serves the production build on loopback with its own seeded state,
// runs every suite and prints figures measured in this one run. Loopback only; bounded request counts.
import { mkdirSync, writeFileSync } from "node:fs";
import { benchPages } from "./pages.ts";
import { benchRush } from "./rush.ts";
import { startProductionServer } from "./lib/server.ts";

const server = await startProductionServer();
try {
  const results = { date: new Date().toISOString(), pages: await benchPages(server), rush: await benchRush(server) };
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/latest.json", JSON.stringify(results, null, 2));
  console.log("\nSaved bench/results/latest.json");
} finally {
  await server.stop();
}
