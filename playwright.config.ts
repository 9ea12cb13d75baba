import { CHROMIUM_LAUNCH } from "./scripts/chromium.ts";
import { defineConfig, devices } from "@playwright/test";

// End-to-end tests in Debian's Chromium against the production build served locally
// (test/e2e/serve.ts: build, fresh local D1 with migrations and seed, then `vite preview`).
const PORT = Number(process.env.E2E_PORT ?? 4319);
export const BASE_URL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: "./test/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  outputDir: "test-results/e2e",
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    locale: "it-IT",
    timezoneId: "Europe/Rome",
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: `node test/e2e/serve.ts --port ${PORT}`,
    url: `${BASE_URL}/login`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
