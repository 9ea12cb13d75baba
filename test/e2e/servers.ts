// Where the e2e run's servers live, shared by playwright.config.ts, the fixtures and the fault drill (no Playwright
// import here: the config loads it too).
//
// The run serves the production build twice, on two ports with two states, so two Playwright projects (one worker
// each) run side by side and no test shares a database with a test running at the same time (issue 33). The first
// server builds, seeds a pristine copy (SEED_DIR) and serves a copy of it; the second starts after it (Playwright
// starts the web servers one by one) from another copy of the same seed, without building. E2E_SERVERS=1 runs every
// spec on the first server alone (one spec at a time, or a machine too small for two browsers and two servers).
import { join } from "node:path";

/** The first server's port; the second one's is 50 above, each project's fault drill 100 above its own. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4319);
export const SINGLE_SERVER = process.env.E2E_SERVERS === "1";

/** A seeded, never served state: each server (and the fault drill) starts from a copy of it. */
export const SEED_DIR = join(".wrangler", "e2e-seed");

export type E2eServer = { project: string; port: number; state: string; baseURL: string };

export const SERVERS: E2eServer[] = [
  { project: "e2e-1", port: E2E_PORT, state: join(".wrangler", "e2e-state") },
  { project: "e2e-2", port: E2E_PORT + 50, state: join(".wrangler", "e2e-state-2") },
]
  .slice(0, SINGLE_SERVER ? 1 : 2)
  .map((s) => ({ ...s, baseURL: `http://localhost:${s.port}` }));

/** The server (and so the state directory) a project's tests run against. */
export function serverOf(project: string): E2eServer {
  const server = SERVERS.find((s) => s.project === project);
  if (!server) throw new Error(`No e2e server for project ${project} (playwright.config.ts)`);
  return server;
}

/** The fault drill's own server beside a project's (it kills and restarts it): port + 100, a state of its own. */
export function drillServer(projectBaseURL: string, project: string) {
  const port = Number(new URL(projectBaseURL).port) + 100;
  return { port, baseURL: `http://localhost:${port}`, state: join(".wrangler", `drill-state-${project}`) };
}
