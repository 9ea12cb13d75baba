import { CHROMIUM_LAUNCH } from "./scripts/chromium.ts";
import { defineConfig, devices } from "@playwright/test";
import { SEED_DIR, SERVERS, SINGLE_SERVER } from "./test/e2e/servers.ts";

// End-to-end tests in Debian's Chromium against the production build served locally
// (test/e2e/serve.ts: build, fresh local D1 with migrations and seed, then `vite preview`).
//
// Two projects run side by side, one worker each, each against its own server and database (test/e2e/servers.ts):
// the spec files are split so that both halves take about as long (issue 33: the run was 12 minutes on one worker).
// A spec file runs whole in one worker, in order, as before. New spec files go to the first half; move one to
// SECOND_HALF when the first gets longer (`npx playwright test --reporter=list` prints each test's time).
const SECOND_HALF = [
  "fault-drill.spec.ts",
  "a11y.spec.ts",
  "simulation.spec.ts",
  "dashboard.spec.ts",
  "editions.spec.ts",
  "learning.spec.ts",
  "sealed.spec.ts",
].map((file) => `**/${file}`);

const browser = { ...devices["Desktop Chrome"], channel: undefined };

export default defineConfig({
  testDir: "./test/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  // One worker per project (TestProject.workers), so each server sees one test at a time.
  workers: SERVERS.length,
  // One retry everywhere (it was CI only): `npm test` runs the browsers beside vitest on two cores, and a test that
  // passes alone can meet the load once (seen this stop: rush.spec's last test logged a thrown Response under the
  // full suite's load only; it passes alone and in its neighbours' company). A retried test is listed as flaky.
  retries: 1,
  // A test waits for conditions, never for time, so its timeout only bounds a stuck test: 60 s leaves room for a machine
  // running vitest and a build beside two browsers (30 s let a slow sign-in time out under load 15, and a Rush test's
  // cleanup with it, which failed the next three).
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  outputDir: "test-results/e2e",
  use: {
    // Recorded only when a failed test is retried (CI retries once): recording every test and discarding the passing
    // ones took a fifth of the run's CPU (issue 33: 168 → 135 CPU-seconds on dashboard, admin and navigation specs).
    // Locally: `npx playwright test --trace on`.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    locale: "it-IT",
    timezoneId: "Europe/Rome",
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: SINGLE_SERVER
    ? [{ name: SERVERS[0]!.project, use: { ...browser, baseURL: SERVERS[0]!.baseURL } }]
    : [
        {
          name: SERVERS[0]!.project,
          testIgnore: SECOND_HALF,
          workers: 1,
          use: { ...browser, baseURL: SERVERS[0]!.baseURL },
        },
        {
          name: SERVERS[1]!.project,
          testMatch: SECOND_HALF,
          workers: 1,
          use: { ...browser, baseURL: SERVERS[1]!.baseURL },
        },
      ],
  // Started one after the other: the first builds and keeps the pristine seed the second copies.
  webServer: SERVERS.map((server, i) => ({
    command: [
      "node test/e2e/serve.ts",
      `--port ${server.port}`,
      `--state ${server.state}`,
      i === 0 ? `--keep-seed ${SEED_DIR}` : `--no-build --seed-from ${SEED_DIR}`,
      ...(i === 0 && process.env.E2E_NO_BUILD === "1" ? ["--no-build"] : []),
    ].join(" "),
    url: `${server.baseURL}/login`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  })),
});
