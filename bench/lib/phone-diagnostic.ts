// The set-up the phone diagnostics share (bench/phone-profile.ts, bench/phone-trace.ts): the command line
// (`http://localhost:PORT [--repeat] [path|quiz]`), the student's cookie, the throttled edge and page of bench/phone.ts,
// on a repeat visit the first load that installs the service worker, then the measured load up to hydration with
// the caller's capture around it; everything closed after.
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { CHROMIUM_LAUNCH } from "../../scripts/chromium.ts";
import { startedQuiz } from "../phone.ts";
import { phonePage, untilUsable } from "./phone-page.ts";
import { startEdge } from "./edge.ts";
import { devCookie } from "./server.ts";

export type Diagnosed = {
  path: string;
  repeat: boolean;
  page: Page;
  cdp: CDPSession;
  context: BrowserContext;
  origin: string;
};

/**
 * Runs `capture` on one phone page: `before` starts the capture (CDP) before the measured load, `after` reads it once
 * the page is hydrated. `script` names the caller in the usage line.
 */
export async function diagnosePhonePage<T>(
  script: string,
  capture: { before: (d: Diagnosed) => Promise<void>; after: (d: Diagnosed) => Promise<T> },
): Promise<T> {
  const args = process.argv.slice(2);
  const repeat = args.includes("--repeat");
  const [base, given = "/dashboard"] = args.filter((a) => !a.startsWith("--"));
  if (!base) throw new Error(`usage: node ${script} http://localhost:PORT [--repeat] [path|quiz]`);
  const cookie = await devCookie(base, "studente@example.com");
  const path = given === "quiz" ? `/test?id=${await startedQuiz(base, cookie, 10)}` : given;
  const edge = await startEdge(base);
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const [context, page, cdp] = await phonePage(browser, edge.url, cookie);
    if (repeat) {
      await page.goto(`${edge.url}${path}`, { waitUntil: "load" });
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "1");
      await page.evaluate(async () => void (await navigator.serviceWorker.ready));
      await page.goto("about:blank");
    }
    const diagnosed = { path, repeat, page, cdp, context, origin: edge.url };
    await capture.before(diagnosed);
    const usable = untilUsable(page);
    await page.goto(`${edge.url}${path}`, { waitUntil: "load" });
    await usable;
    const result = await capture.after(diagnosed);
    await context.close();
    return result;
  } finally {
    await browser.close();
    await edge.stop();
  }
}
