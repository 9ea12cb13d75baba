// A mid-range phone on a mobile network (issue 33, point 2), in Debian's Chromium over the DevTools protocol:
// viewport 412x823, CPU 4x slower (Emulation.setCPUThrottlingRate), 150 ms round trip, 1.6 Mbps down and
// 750 Kbps up (Network.emulateNetworkConditions). Each run is a new browser context: a cold cache. The browser
// goes through a compressing front (bench/lib/edge.ts), as a student goes through Cloudflare's edge.
// - Per page (/, /dashboard, /test/nuovo, a started quiz): Largest Contentful Paint, the time to a usable page
//   (React hydrated: <html data-hydrated>; the landing ships no React, so its DOMContentLoaded), and Cumulative
//   Layout Shift (the largest session window of layout-shift entries without recent input), 7 runs, p50 and p95.
//   Nothing of the bench runs in the page until it is usable: it waits for a console message (bench/lib/phone-page.ts).
// - The same on a repeat visit (issue 47, point 4): in a context that has loaded the page once, unthrottled, and whose
//   service worker is installed and in control (its precache filled), a new tab loads the page again under the phone
//   profile; the service worker's own requests (the page it fetches for the tab) are throttled too, through its
//   DevTools target, as the phone's network would. 7 runs, each in a new context.
// - In the runner, at 4x CPU: answering a question (a key on an option) and moving to another (an arrow), each from
//   the key press to the frame that shows the change, 80 presses (bench/lib/phone-answers.ts).
import { CHROMIUM_LAUNCH } from "../scripts/chromium.ts";
import { chromium, type Browser, type Page } from "playwright-core";
import { startEdge } from "./lib/edge.ts";
import { measureAnswerPaints, RUNNER_QUESTIONS } from "./lib/phone-answers.ts";
import { devCookie, type LocalServer } from "./lib/server.ts";
import { type PageRun, type PhonePage, RUNS, type VisitFigures } from "./lib/phone-goals.ts";
import { phoneContext, phonePage, throttle, throttleServiceWorkers, untilUsable } from "./lib/phone-page.ts";
import { report } from "./lib/phone-report.ts";
import { percentile } from "./lib/stats.ts";

export { GOALS, PHONE, type PhonePage, phoneVerdict } from "./lib/phone-goals.ts";

/** Until React has hydrated (or the page ships none) and every streamed part is in place, then two frames more. */
async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      (document.documentElement.dataset.hydrated === "1" || !document.querySelector('script[type="module"]')) &&
      !document.querySelector('template[id^="B:"], div[hidden][id^="S:"]'),
    undefined,
    { timeout: 60_000, polling: 100 },
  );
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
  );
}

/** A first visit: a new context, a cold cache, no service worker. */
async function loadOnce(browser: Browser, baseUrl: string, cookie: string, path: string): Promise<PageRun> {
  const [context, page] = await phonePage(browser, baseUrl, cookie);
  try {
    return await measureLoad(page, `${baseUrl}${path}`);
  } finally {
    await context.close();
  }
}

/**
 * A repeat visit: the page loaded once at full speed in a new context, until its service worker is installed (its
 * precache filled) and in control; the landing registers none, so it is installed from /dashboard. Then the page again,
 * in a new tab of that context, under the phone profile, its worker's network throttled too.
 */
async function repeatOnce(browser: Browser, baseUrl: string, cookie: string, path: string): Promise<PageRun> {
  const context = await phoneContext(browser, baseUrl, cookie);
  try {
    const first = await context.newPage();
    await first.goto(`${baseUrl}${path}`, { waitUntil: "load", timeout: 60_000 });
    await settled(first);
    const registered = () => first.evaluate(async () => Boolean(await navigator.serviceWorker.getRegistration()));
    if (!(await registered())) await first.waitForTimeout(1000);
    if (!(await registered())) {
      await first.goto(`${baseUrl}/dashboard`, { waitUntil: "load", timeout: 60_000 });
      await settled(first);
    }
    await first.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await first.close();
    const page = await context.newPage();
    await throttle(context, page);
    const detach = await throttleServiceWorkers(browser);
    try {
      return await measureLoad(page, `${baseUrl}${path}`);
    } finally {
      await detach();
    }
  } finally {
    await context.close();
  }
}

/** Loads `url` in `page` until settled, and reads what observeLoad saw (nothing runs in the page before it is usable). */
async function measureLoad(page: Page, url: string): Promise<PageRun> {
  const usable = untilUsable(page);
  await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  await usable;
  await settled(page);
  return await page.evaluate(() => {
    const p = (
      window as unknown as {
        __phone: { lcp: number; lcpElement: string; shifts: { t: number; v: number }[]; hydratedAt: number | null };
      }
    ).__phone;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const usable = p.hydratedAt ?? nav.domContentLoadedEventEnd;
    // CLS: the largest session window (shifts less than 1 s apart, at most 5 s long).
    let cls = 0;
    let windowSum = 0;
    let windowStart = -Infinity;
    let last = -Infinity;
    for (const s of p.shifts) {
      if (s.t - last > 1000 || s.t - windowStart > 5000) {
        windowSum = 0;
        windowStart = s.t;
      }
      windowSum += s.v;
      last = s.t;
      cls = Math.max(cls, windowSum);
    }
    return {
      lcp: p.lcp,
      usable,
      cls,
      lcpBeforeUsable: p.lcp <= usable,
      lcpElement: p.lcpElement,
      controlled: Boolean(navigator.serviceWorker?.controller),
      ttfb: nav.responseStart,
    };
  });
}

const at = (runs: PageRun[], key: "lcp" | "usable" | "cls" | "ttfb") => runs.map((r) => r[key]);

/** A stored practice quiz of the demo student with `count` questions and no timer (so reloads never expire it). */
export async function startedQuiz(baseUrl: string, cookie: string, count: number): Promise<number> {
  const response = await fetch(`${baseUrl}/api/quiz`, {
    method: "POST",
    headers: { cookie, "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ subjectId: 1, count }),
  });
  if (!response.ok) throw new Error(`quiz draw failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { quizId: number }).quizId;
}

/** The runner of a stored quiz under the phone profile, its key presses timed (bench/lib/phone-answers.ts). */
async function answerPaints(browser: Browser, baseUrl: string, cookie: string, quizId: number) {
  const [context, page] = await phonePage(browser, baseUrl, cookie);
  try {
    await page.goto(`${baseUrl}/test?id=${quizId}`, { waitUntil: "load", timeout: 60_000 });
    await settled(page);
    return await measureAnswerPaints(page, RUNNER_QUESTIONS);
  } finally {
    await context.close();
  }
}

/** The phone profile against one server (bench/pages.ts, the bench's run). */
export async function benchPhone(server: LocalServer) {
  return (await benchPhoneSideBySide([server]))[0]!;
}

/** One visit's runs summed up. */
function visitFigures(runs: PageRun[]): VisitFigures {
  return {
    lcpP50: percentile(at(runs, "lcp"), 50),
    lcpP95: percentile(at(runs, "lcp"), 95),
    usableP50: percentile(at(runs, "usable"), 50),
    usableP95: percentile(at(runs, "usable"), 95),
    usableRuns: at(runs, "usable"),
    cls: Math.max(...at(runs, "cls")),
  };
}

/** A page's runs summed up. */
function summary(label: string, runs: PageRun[], repeats: PageRun[]): PhonePage {
  return {
    page: label,
    ...visitFigures(runs),
    lcpElement: runs[0]!.lcpElement,
    lcpBeforeUsableRuns: runs.filter((r) => r.lcpBeforeUsable).length,
    repeat: {
      ...visitFigures(repeats),
      controlledRuns: repeats.filter((r) => r.controlled).length,
      ttfbP50: percentile(at(repeats, "ttfb"), 50),
    },
  };
}

/**
 * The phone profile against several servers (two builds, to compare them: bench/phone-only.ts), their runs
 * interleaved (a first visit and a repeat visit of each server in turn, run after run), so that a busy minute of this
 * shared machine weighs on every server alike. One result per server, in order.
 */
export async function benchPhoneSideBySide(servers: LocalServer[]) {
  const targets = [];
  for (const server of servers) {
    const origin = server.baseUrl;
    const cookie = await devCookie(origin, "studente@example.com");
    const loadQuiz = await startedQuiz(origin, cookie, 10);
    const runnerQuiz = await startedQuiz(origin, cookie, RUNNER_QUESTIONS);
    const edge = await startEdge(origin);
    const pages: [label: string, path: string][] = [
      ["/", "/"],
      ["/dashboard", "/dashboard"],
      ["/test/nuovo", "/test/nuovo"],
      ["a started quiz (/test?id=)", `/test?id=${loadQuiz}`],
    ];
    targets.push({ cookie, runnerQuiz, edge, pages });
  }
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  const out = [];
  try {
    const results: PhonePage[][] = targets.map(() => []);
    for (let p = 0; p < targets[0]!.pages.length; p++) {
      const runs: PageRun[][] = targets.map(() => []);
      const repeats: PageRun[][] = targets.map(() => []);
      for (let i = 0; i < RUNS; i++) {
        for (const [t, target] of targets.entries()) {
          const path = target.pages[p]![1];
          runs[t]!.push(await loadOnce(browser, target.edge.url, target.cookie, path));
          repeats[t]!.push(await repeatOnce(browser, target.edge.url, target.cookie, path));
        }
      }
      for (const t of targets.keys()) results[t]!.push(summary(targets[t]!.pages[p]![0], runs[t]!, repeats[t]!));
    }
    for (const [t, target] of targets.entries()) {
      const paints = await answerPaints(browser, target.edge.url, target.cookie, target.runnerQuiz);
      out.push(report(results[t]!, paints));
    }
  } finally {
    await browser.close();
    for (const target of targets) await target.edge.stop();
  }
  return out;
}
