// npm run bench: builds the app, serves the production build on loopback with its own seeded state,
// runs every suite and prints figures measured in this one run. Loopback only; bounded request counts.
// BENCH_ONLY=pages,lcp runs only the named suites; BENCH_ONLY=national the national sitting (NATIONAL_CLIENTS);
// BENCH_ONLY=room one room as Cloudflare runs it, with a deploy mid-sitting (ROOM_CLIENTS, ROOM_SUBJECT_MIN: bench/room.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { benchAdmin } from "./admin.ts";
import { benchClasses } from "./classes.ts";
import { benchDashboard } from "./dashboard.ts";
import { benchLcp } from "./lcp.ts";
import { benchNational } from "./national.ts";
import { benchPages } from "./pages.ts";
import { benchPractice } from "./practice.ts";
import { benchReconnect } from "./reconnect.ts";
import { benchRoom } from "./room.ts";
import { benchRush } from "./rush.ts";
import { benchSimulation } from "./simulation.ts";
import { startProductionServer, type LocalServer } from "./lib/server.ts";

// One line per suite; the heavy WebSocket load runs late so it cannot disturb the latency figures, and the
// dashboard suite last of all: it stops this server and serves the build on a seed and an enlarged database.
const SUITES: Record<string, (server: LocalServer) => Promise<unknown>> = {
  pages: benchPages,
  lcp: benchLcp,
  practice: benchPractice,
  admin: benchAdmin,
  classes: benchClasses,
  rush: benchRush,
  simulation: benchSimulation,
  national: benchNational,
  reconnect: benchReconnect,
  room: benchRoom,
  dashboard: benchDashboard,
};

/**
 * Suites that run only when named: the national sitting holds 6,000 sockets for minutes; reconnect 1,000; room 1,000
 * for its day, restarts the server mid-sitting and pins it and the bench to a core each.
 */
const OPT_IN = new Set(["national", "reconnect", "room"]);
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
// The national sitting and the room count D1 with the server's own meter: its build carries BENCH_D1_USAGE (vite.config.ts).
if (only?.includes("national") || only?.includes("room")) process.env.UNICUM_BENCH_D1_USAGE = "1";
const server = await startProductionServer();
try {
  const results: Record<string, unknown> = { date: new Date().toISOString() };
  for (const [name, run] of Object.entries(SUITES)) {
    if (only ? !only.includes(name) : OPT_IN.has(name)) continue;
    console.log(`\n=== ${name}`);
    results[name] = await run(server);
  }
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/latest.json", JSON.stringify(results, null, 2));
  console.log("\nSaved bench/results/latest.json");
} finally {
  await server.stop();
}
