// Starts a fresh `react-router dev` (empty Vite dependency cache, its own seeded D1) and visits every page of the
// side navigation and the admin console once, in Chromium. Fails when a page loads more than once or any request
// answers 504 "Outdated Optimize Dep": the sign that Vite discovered a client dependency late and reloaded the page
// (add it to CLIENT_DEPS in vite.config.ts). Slow (a cold dev server), so it is not part of `npm test`:
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

const PAGES: { email: string; paths: string[] }[] = [
  {
    email: "studente@example.com",
    paths: ["/dashboard", "/test/nuovo", "/tentativi", "/ripasso/errori", "/profilo", "/segnalato", "/rush"],
  },
  {
    email: "admin@example.com",
    paths: ["/admin", "/admin?tab=utenti", "/admin?tab=database", "/admin?tab=simulazioni", "/admin?tab=rush"],
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

const rows: { page: string; loads: number; outdated: number; hydrated: boolean }[] = [];
const isHydrated = () => document.documentElement.dataset.hydrated === "1";
let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
try {
  await serving();
  browser = await chromium.launch(CHROMIUM_LAUNCH);
  for (const { email, paths } of PAGES) {
    const context = await browser.newContext({ baseURL: base });
    await context.addCookies([
      {
        name: "unicum_consent",
        value: encodeURIComponent("v=2025-08-19&p=0&a=0&m=0&id=00000000-0000-4000-8000-000000000000"),
        url: base,
      },
    ]);
    const signIn = await context.request.post("/api/auth/dev", { data: { email } });
    if (signIn.status() !== 200) throw new Error(`dev sign-in ${email}: ${signIn.status()}`);
    const page = await context.newPage();
    let loads = 0;
    let outdated = 0;
    page.on("load", () => loads++);
    page.on("response", (r) => {
      if (r.status() === 504) outdated++;
      if (process.env.FIRST_VISIT_DEBUG && r.status() >= 400) console.log(r.status(), r.url());
    });
    if (process.env.FIRST_VISIT_DEBUG)
      page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 200)));
    for (const path of paths) {
      loads = 0;
      outdated = 0;
      await page.goto(path, { waitUntil: "load", timeout: 120_000 });
      // Settled: hydrated, and no request for a while (a late-discovered dependency reloads the page here).
      const hydrated = () =>
        page.waitForFunction(isHydrated, null, { timeout: 60_000 }).then(
          () => true,
          () => false,
        );
      let ok = await hydrated();
      await page.waitForLoadState("networkidle", { timeout: 120_000 }).catch(() => undefined);
      ok = ok && (await hydrated());
      rows.push({ page: path, loads, outdated, hydrated: ok });
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
const bad = rows.filter((r) => r.loads !== 1 || r.outdated > 0 || !r.hydrated);
if (bad.length) {
  console.error(
    `First visit reloaded or hit 504 on: ${bad.map((r) => r.page).join(", ")}. Add the late client dependency to CLIENT_DEPS in vite.config.ts.`,
  );
  process.exit(1);
}
console.log(`Every page loaded once on a fresh dev server (${rows.length} pages).`);
