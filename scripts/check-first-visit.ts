// Starts a fresh `react-router dev` (empty Vite dependency cache, its own seeded D1) and walks in as a newcomer does:
// /login with no cookies, the cookie banner answered, a demo account's button, then every page of the side navigation
// and the admin console once, in Chromium. Fails when a page loads more than once, any request answers 504
// "Outdated Optimize Dep" or a page throws: the sign that Vite discovered a client dependency late and reloaded
// the page (add it to CLIENT_DEPS in vite.config.ts; test/unit/client-deps.test.ts catches most such misses without a
// server). Slow (a cold dev server), so it is not part of `npm test`:
//   npm run check:first-visit            (FIRST_VISIT_DEBUG=1 prints failed requests and the console)
import { CHROMIUM_LAUNCH } from "./chromium.ts";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const port = Number(process.env.FIRST_VISIT_PORT ?? 5191);
const base = `http://localhost:${port}`;
const scratch = mkdtempSync(join(tmpdir(), "unicum-first-visit-"));
const state = join(scratch, "state");
const env = {
  ...process.env,
  UNICUM_STATE_DIR: state,
  UNICUM_VITE_CACHE_DIR: join(scratch, "vite-cache"), // a cold dependency cache, as on a fresh clone
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

// Each role starts at /login (the very first page of a fresh dev server) and signs in with its demo button, which
// lands on `landing`; then the other pages, in order.
const PAGES: { email: string; landing: RegExp; paths: string[] }[] = [
  {
    email: "studente@example.com",
    landing: /\/dashboard$/,
    paths: ["/test/nuovo", "/tentativi", "/ripasso/errori", "/simulazioni", "/rush", "/profilo", "/segnalato"],
  },
  {
    email: "admin@example.com",
    landing: /\/dashboard$/,
    paths: [
      "/admin",
      "/admin/analytics",
      "/admin/utenti",
      "/admin/tentativi",
      "/admin/segnalazioni",
      "/admin/database",
      "/admin/classi",
      "/admin/simulazioni",
      "/admin/rush",
      "/admin/edizioni",
    ],
  },
];

execFileSync(process.execPath, ["scripts/db-setup.ts", "--persist-to", state], { stdio: "inherit", env });
const dev = spawn(join("node_modules", ".bin", "react-router"), ["dev", "--port", String(port), "--strictPort"], {
  stdio: ["ignore", "ignore", "inherit"],
  env,
  detached: true,
});

async function serving() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/login`)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the dev server did not start in 120 s");
}

const rows: { page: string; loads: number; outdated: number; hydrated: boolean; errors: number; warnings: number }[] =
  [];
/** What a late-discovered dependency logs: the page broke while Vite re-optimized. */
const BROKEN_LOAD =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Outdated Optimize Dep/i;
/** Other console errors are printed once each (React's development warnings, for one) but do not fail the check. */
const warned = new Set<string>();
const isHydrated = () => document.documentElement.dataset.hydrated === "1";
let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
try {
  await serving();
  browser = await chromium.launch(CHROMIUM_LAUNCH);
  for (const { email, landing, paths } of PAGES) {
    // A newcomer: no cookies at all, not even the cookie choice.
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    let loads = 0;
    let outdated = 0;
    let errors: string[] = [];
    let warnings = 0;
    page.on("load", () => loads++);
    page.on("response", (r) => {
      if (r.status() === 504) outdated++;
      if (process.env.FIRST_VISIT_DEBUG && r.status() >= 400) console.log(r.status(), r.url());
    });
    // An uncaught error, or "Failed to fetch dynamically imported module …" and the like, fails the page.
    page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message.slice(0, 300)}`));
    page.on("console", (m) => {
      if (process.env.FIRST_VISIT_DEBUG) console.log("console:", m.type(), m.text().slice(0, 200));
      if (m.type() !== "error") return;
      if (BROKEN_LOAD.test(m.text())) errors.push(`${page.url()}: ${m.text().slice(0, 300)}`);
      else {
        warnings++;
        const key = m.text().slice(0, 120);
        if (!warned.has(key)) console.warn(`console error (not failing): ${page.url()}: ${m.text().slice(0, 1500)}`);
        warned.add(key);
      }
    });
    /** Settled: hydrated, and no request for a while (a late-discovered dependency reloads the page here). */
    const settle = async () => {
      const hydrated = () =>
        page.waitForFunction(isHydrated, null, { timeout: 60_000 }).then(
          () => true,
          () => false,
        );
      let ok = await hydrated();
      await page.waitForLoadState("networkidle", { timeout: 120_000 }).catch(() => undefined);
      ok = ok && (await hydrated());
      return ok;
    };
    const record = (path: string, hydrated: boolean) => {
      rows.push({ page: path, loads, outdated, hydrated, errors: errors.length, warnings });
      if (errors.length) console.error(errors.join("\n"));
      loads = 0;
      outdated = 0;
      errors = [];
      warnings = 0;
    };

    await page.goto("/login", { waitUntil: "load", timeout: 120_000 });
    let ok = await settle();
    await page.getByRole("button", { name: "Rifiuta" }).click();
    record(`/login (${email})`, ok);
    await page.getByRole("button", { name: email }).click();
    await page.waitForURL(landing, { timeout: 60_000 });
    ok = await settle();
    record(new URL(page.url()).pathname, ok);
    for (const path of paths) {
      await page.goto(path, { waitUntil: "load", timeout: 120_000 });
      record(path, await settle());
    }
    await context.close();
  }
} finally {
  await browser?.close();
  try {
    process.kill(-dev.pid!, "SIGTERM");
  } catch {
    // already gone
  }
  rmSync(scratch, { recursive: true, force: true });
}

console.table(rows);
const bad = rows.filter((r) => r.loads !== 1 || r.outdated > 0 || !r.hydrated || r.errors > 0);
if (bad.length) {
  console.error(
    `First visit reloaded, hit 504 or broke (page error) on: ${bad.map((r) => r.page).join(", ")}. Add the late client dependency to CLIENT_DEPS in vite.config.ts.`,
  );
  process.exit(1);
}
console.log(`Every page loaded once on a fresh dev server (${rows.length} pages).`);
