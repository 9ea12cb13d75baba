// Largest Contentful Paint of / and /dashboard in Debian's Chromium, against the local production build.
import { CHROMIUM_LAUNCH } from "../scripts/chromium.ts";
import { chromium } from "playwright-core";
import { devCookie, type LocalServer } from "./lib/server.ts";
import { ms, percentile } from "./lib/stats.ts";

const RUNS = 7;

export async function benchLcp(server: LocalServer) {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const cookie = await devCookie(server.baseUrl, "studente@example.com");
  const [name, value] = cookie.split("=");
  const rows = [];
  const results: Record<string, number> = {};
  try {
    for (const path of ["/", "/dashboard"]) {
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies([
          { name: name!, value: value!, url: server.baseUrl },
          // A decided consent, so the banner is not the largest paint.
          {
            name: "unicum_consent",
            value: encodeURIComponent("v=2025-08-19&p=0&a=0&m=0&id=00000000-0000-4000-8000-000000000000"),
            url: server.baseUrl,
          },
        ]);
        const page = await context.newPage();
        await page.goto(`${server.baseUrl}${path}`, { waitUntil: "load" });
        const lcp = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries();
                resolve(entries[entries.length - 1]!.startTime);
              }).observe({ type: "largest-contentful-paint", buffered: true });
              setTimeout(() => resolve(NaN), 3000);
            }),
        );
        samples.push(lcp);
        await context.close();
      }
      results[path] = percentile(samples, 50);
      rows.push({
        page: path,
        runs: RUNS,
        "LCP p50": ms(percentile(samples, 50)),
        "LCP max": ms(Math.max(...samples)),
      });
    }
  } finally {
    await browser.close();
  }
  console.log("Largest Contentful Paint (Chromium, 1280x800, cold context each run):");
  console.table(rows);
  return results;
}
