// One throttled load per page under the phone profile (bench/phone.ts), printed as a waterfall: when each request
// starts, when its headers and its last byte arrive, its size on the wire and its priority, next to the first
// paint, the largest paint and hydration. What the phone bench's LCP waits on, to see before changing anything.
// Usage: node bench/phone-waterfall.ts [--base http://localhost:PORT] [--runs N] [path ...]
// Without --base it builds and serves the app as the bench does (BENCH_PORT); the quiz path is `quiz`.
import { CHROMIUM_LAUNCH } from "../scripts/chromium.ts";
import { chromium } from "playwright-core";
import { startEdge } from "./lib/edge.ts";
import { devCookie, type LocalServer, startProductionServer } from "./lib/server.ts";
import { phonePage, untilUsable } from "./lib/phone-page.ts";
import { startedQuiz } from "./phone.ts";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const base = option("--base");
const runs = Number(option("--runs") ?? 1);
const paths = args.length ? args : ["/", "/dashboard", "/test/nuovo", "quiz"];

type Row = {
  id: string;
  url: string;
  type: string;
  priority: string;
  start: number;
  headers?: number;
  end?: number;
  bytes?: number;
};

const server: LocalServer = base ? { baseUrl: base, stop: async () => {} } : await startProductionServer();
const edge = await startEdge(server.baseUrl);
const browser = await chromium.launch(CHROMIUM_LAUNCH);
try {
  const cookie = await devCookie(server.baseUrl, "studente@example.com");
  for (const given of paths) {
    const path = given === "quiz" ? `/test?id=${await startedQuiz(server.baseUrl, cookie, 10)}` : given;
    for (let run = 0; run < runs; run++) {
      const [context, page, cdp] = await phonePage(browser, edge.url, cookie);
      const rows = new Map<string, Row>();
      let zero = 0;
      cdp.on("Network.requestWillBeSent", (e) => {
        if (!zero) zero = e.timestamp;
        rows.set(e.requestId, {
          id: e.requestId,
          url: e.request.url.replace(edge.url, "").slice(0, 60),
          type: e.type ?? "",
          priority: e.request.initialPriority,
          start: e.timestamp,
        });
      });
      cdp.on("Network.responseReceived", (e) => {
        const row = rows.get(e.requestId);
        if (row) row.headers = e.timestamp;
      });
      cdp.on("Network.loadingFinished", (e) => {
        const row = rows.get(e.requestId);
        if (row) {
          row.end = e.timestamp;
          row.bytes = e.encodedDataLength;
        }
      });
      const usable = untilUsable(page);
      await page.goto(`${edge.url}${path}`, { waitUntil: "load", timeout: 60_000 });
      await usable;
      const marks = await page.evaluate(() => {
        const p = (window as unknown as { __phone: { lcp: number; lcpElement: string; hydratedAt: number | null } })
          .__phone;
        const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return {
          ttfb: nav.responseStart,
          htmlEnd: nav.responseEnd,
          domInteractive: nav.domInteractive,
          firstPaint: paint["first-paint"],
          fcp: paint["first-contentful-paint"],
          lcp: p.lcp,
          lcpElement: p.lcpElement,
          hydrated: p.hydratedAt,
        };
      });
      await context.close();
      const t = (s?: number) => (s === undefined ? "" : Math.round((s - zero) * 1000));
      console.log(
        `\n${path} (run ${run + 1}):`,
        JSON.stringify(marks, (_k, v) => (typeof v === "number" ? Math.round(v) : v)),
      );
      console.table(
        [...rows.values()].map((r) => ({
          url: r.url,
          type: r.type,
          priority: r.priority,
          start: t(r.start),
          headers: t(r.headers),
          end: t(r.end),
          bytes: r.bytes ?? "",
        })),
      );
    }
  }
} finally {
  await browser.close();
  await edge.stop();
  await server.stop();
}
