// A page as bench/phone.ts sees it: a new browser context with a mid-range phone's viewport, CPU and network
// (PHONE, bench/lib/phone-goals.ts), the student's cookies, and observers installed before the first byte (the largest
// paint, layout shifts, when React marks the page hydrated), which tell the bench when the page is usable without
// running anything of the bench's in the page. Shared with the waterfall and the diagnostics (bench/phone-*.ts).
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { PHONE } from "./phone-goals.ts";

/** A decided cookie choice, so the banner is neither the largest paint nor a shift. */
export const CONSENT = encodeURIComponent("v=2025-08-19&p=0&a=0&m=0&id=00000000-0000-4000-8000-000000000000");

/**
 * What the page logs (console.debug) once it is usable: React has hydrated, or the page ships no React and its HTML is
 * parsed. The bench waits for this message, which Chromium sends over the DevTools protocol, rather than asking the page:
 * Playwright's waitForFunction injects its own script into the page and polls it, which at 4x CPU took 35-45 ms of the
 * main thread in the middle of hydration, and 85 ms of "usable" in the median on /test/nuovo (8 alternated runs).
 */
export const USABLE_MARK = "unicum-bench:usable";

/** Observers installed before the page's first byte: LCP, layout shifts, and when React marks the page hydrated. */
function observeLoad(usableMark: string) {
  const w = window as unknown as {
    __phone: { lcp: number; lcpElement: string; shifts: { t: number; v: number }[]; hydratedAt: number | null };
  };
  w.__phone = { lcp: Number.NaN, lcpElement: "", shifts: [], hydratedAt: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
      w.__phone.lcp = e.startTime;
      const el = e.element;
      w.__phone.lcpElement = el ? `${el.tagName.toLowerCase()}: ${(el.textContent ?? "").trim().slice(0, 40)}` : "";
    }
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
      if (!e.hadRecentInput) w.__phone.shifts.push({ t: e.startTime, v: e.value });
  }).observe({ type: "layout-shift", buffered: true });
  // The document, not its <html>: an init script runs before the parser has made that element (observing
  // document.documentElement threw here, so every "usable" figure was DOMContentLoaded until issue 47).
  new MutationObserver(() => {
    if (w.__phone.hydratedAt == null && document.documentElement?.dataset.hydrated) {
      w.__phone.hydratedAt = performance.now();
      console.debug(usableMark);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-hydrated"] });
  document.addEventListener("DOMContentLoaded", () => {
    if (!document.querySelector('script[type="module"]')) console.debug(usableMark);
  });
}

/** Resolves when `page` logs USABLE_MARK: call it before the navigation, await it after. */
export function untilUsable(page: Page): Promise<unknown> {
  return page.waitForEvent("console", { predicate: (m) => m.text() === USABLE_MARK, timeout: 60_000 });
}

/** A new context (cold cache) with the phone's viewport, the cookies, and CPU and network throttled. */
export async function phonePage(
  browser: Browser,
  baseUrl: string,
  cookie: string,
): Promise<[BrowserContext, Page, CDPSession]> {
  const context = await phoneContext(browser, baseUrl, cookie);
  const page = await context.newPage();
  return [context, page, await throttle(context, page)];
}

/** The phone's network conditions, as Network.emulateNetworkConditions takes them. */
const NETWORK = {
  offline: false,
  latency: PHONE.latencyMs,
  downloadThroughput: PHONE.downloadBytesPerSec,
  uploadThroughput: PHONE.uploadBytesPerSec,
};

/** The phone's CPU and network on a page. */
export async function throttle(context: BrowserContext, page: Page): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpuSlowdown });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  return cdp;
}

/**
 * The phone's network on every running service worker of the browser (a page's throttling does not reach the
 * requests its worker makes). Playwright gives no session on a worker: the browser's session attaches to its target
 * and speaks to it through Target.sendMessageToTarget. Returns how to detach.
 */
export async function throttleServiceWorkers(browser: Browser): Promise<() => Promise<void>> {
  const session = await browser.newBrowserCDPSession();
  const { targetInfos } = await session.send("Target.getTargets");
  let id = 0;
  for (const target of targetInfos.filter((t) => t.type === "service_worker")) {
    const { sessionId } = await session.send("Target.attachToTarget", { targetId: target.targetId, flatten: false });
    for (const [method, params] of [
      ["Network.enable", {}],
      ["Network.emulateNetworkConditions", NETWORK],
    ] as const)
      await session.send("Target.sendMessageToTarget", {
        sessionId,
        message: JSON.stringify({ id: ++id, method, params }),
      });
  }
  return () => session.detach();
}

export async function phoneContext(browser: Browser, baseUrl: string, cookie: string): Promise<BrowserContext> {
  const [name, value] = cookie.split("=");
  const context = await browser.newContext({
    viewport: PHONE.viewport,
    deviceScaleFactor: 2.625,
    isMobile: true,
    hasTouch: true,
    locale: "it-IT",
    timezoneId: "Europe/Rome",
  });
  await context.addCookies([
    { name: name!, value: value!, url: baseUrl },
    { name: "unicum_consent", value: CONSENT, url: baseUrl },
  ]);
  await context.addInitScript(observeLoad, USABLE_MARK);
  return context;
}
