import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";

/**
 * An axe-core scan of the page. Only violations are collected (`resultTypes`): axe still runs every rule on every
 * node, but stops serialising each passing node back to the test (issue 33: the scans were a sixth of the e2e CPU).
 */
export function axe(page: Page) {
  return new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
}

/** Signs in through the development sign-in call (the same one the /login buttons use). */
export async function login(page: Page, email: string) {
  const response = await page.request.post("/api/auth/dev", { data: { email } });
  expect(response.status(), `dev login ${email}`).toBe(200);
  const { user } = await response.json();
  return user as { id: number; name: string; role: string };
}

/**
 * Lets `aheadMs` of a started live simulation pass at once: the room's clock hook (development only) moves its start
 * back in D1 and in every room, and the room tells the candidates. `admin` is a page signed in as an admin.
 */
export async function passSimulationTime(admin: Page, simulationId: string, aheadMs: number) {
  const moved = await admin.request.post(`/api/admin/simulations/${simulationId}/clock`, {
    data: { aheadMs: Math.max(1, Math.round(aheadMs)) },
  });
  expect(moved.status(), `clock hook: ${await moved.text()}`).toBe(200);
  return ((await moved.json()) as { startTime: number }).startTime;
}

/** The end of the current subject for the candidate on `page` (server time, ms), from the exam screen. */
export async function subjectDeadline(page: Page) {
  return Number(await page.getByTestId("sim-exam").getAttribute("data-deadline", { timeout: 10_000 }));
}

/**
 * Streamed Suspense content not yet in place: a boundary still showing its fallback (`<template
 * id="B:0">`) or content arrived but not yet revealed (`<div hidden id="S:0">`).
 */
const STREAMING = 'template[id^="B:"], div[hidden][id^="S:"]';

/** Ends every friendship and invitation of the signed-in user, so a test (and its retry) starts from none. */
export async function endFriendships(page: Page) {
  const overview = await (await page.request.get("/api/friends")).json();
  for (const f of [...overview.friends, ...overview.incoming, ...overview.outgoing]) {
    expect((await page.request.delete(`/api/friends/${f.friendshipId}`)).status()).toBe(200);
  }
}

/**
 * Whether React has hydrated the page and every streamed part is in place (or, with `orStatic`, the
 * page has no React runtime at all: the landing page, a JSON answer). False while the document is
 * being replaced.
 */
function settled(page: Page, orStatic: boolean) {
  return page
    .evaluate(
      ([streaming, orStatic]) =>
        (document.documentElement.dataset.hydrated === "1" && !document.querySelector(streaming)) ||
        (orStatic && !document.querySelector('script[type="module"]')),
      [STREAMING, orStatic] as const,
    )
    .catch(() => false);
}

/** Waits until React has hydrated the page, so clicks reach their handlers (see untilHydrated). */
export async function hydrated(page: Page) {
  await expect.poll(() => settled(page, false), { message: "the page hydrates" }).toBe(true);
}

/**
 * After a full page load (goto, reload, back, forward) waits until React has hydrated, so the test's
 * first click or select reaches its handler instead of racing the hydration (an event fired before
 * hydration is lost: a subject picked on /dashboard would not refresh its sub-topics), and until every
 * streamed part has arrived and been revealed (STREAMING). React (19.2+) batches the reveal of
 * streamed Suspense content: for up to 300 ms a hidden copy (`<div hidden id="S:0">`) can sit in
 * <body> next to the content React already rendered, and a text or label locator would find both (the
 * dashboard's "Confronta con" checkbox twice: a strict-mode failure). Pages without the React runtime
 * do not wait. Never fails by itself: a page that does not settle fails on the test's own assertions.
 */
async function untilHydrated(page: Page) {
  await expect
    .poll(() => settled(page, true), { timeout: 15_000 })
    .toBe(true)
    .catch(() => undefined);
}

/**
 * Collects React's hydration errors (production codes #418, #423, #425: the browser's first render
 * differs from the server's HTML, so React throws the page away and renders it again, losing input
 * and flashing). A date printed in the server's zone (UTC) and again in the browser's (Europe/Rome)
 * did that on every first load of /tentativi.
 */
let hydrationErrors: string[] = []; // of the pages the running test opened (reset by hydrationGuard)
/**
 * And the Content-Security-Policy's refusals (app/server/security.server.ts): Chromium logs "Refused to
 * execute inline script / load … because it violates the following Content Security Policy directive".
 * A page that needs something the policy blocks is broken for real users, so it fails its test.
 */
let cspViolations: string[] = [];
/**
 * And every other error the page logs (console.error, an uncaught exception): a page that logs an error is
 * broken somewhere, even if the test's own checks pass. The only errors let through are the browser's own
 * network log of a refusal the product answers on purpose (a 4xx the screen shows as a message), and what a
 * test declares with allowConsoleError() (a fault it provokes: a dropped socket, a server shut down).
 */
let consoleErrors: string[] = [];
const EXPECTED_ERRORS: readonly RegExp[] = [/^Failed to load resource: the server responded with a status of 4\d\d\b/];
let allowedErrors: RegExp[] = [];

/** Lets the running test's pages log errors matching `pattern` (a fault the test provokes on purpose). */
export function allowConsoleError(pattern: RegExp) {
  allowedErrors.push(pattern);
}

function watchHydration(page: Page) {
  const check = (text: string) => {
    if (/Minified React error #(418|423|425)\b|hydrat/i.test(text))
      hydrationErrors.push(`${page.url()}: ${text.slice(0, 300)}`);
    else if (/Content Security Policy/i.test(text)) cspViolations.push(`${page.url()}: ${text.slice(0, 400)}`);
    else if (![...EXPECTED_ERRORS, ...allowedErrors].some((re) => re.test(text)))
      consoleErrors.push(`${page.url()}: ${text.slice(0, 900)}`);
  };
  // Where it came from, after the text (the patterns above match its start): a flaky "Response" logged under load on
  // /compiti, /rush and /test gave no clue of its origin.
  page.on("pageerror", (error) => check(`${error.message} (stack: ${(error.stack ?? "").slice(0, 600)})`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const { url, lineNumber, columnNumber } = message.location();
    check(`${message.text()}${url ? ` (at ${url}:${lineNumber}:${columnNumber})` : ""}`);
  });
}

const patched = new WeakSet<Page>();
function waitForHydrationOnLoad(page: Page) {
  if (patched.has(page)) return page;
  patched.add(page);
  for (const name of ["goto", "reload", "goBack", "goForward"] as const) {
    const original = (page[name] as (...args: unknown[]) => Promise<unknown>).bind(page);
    (page as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const response = await original(...args);
      await untilHydrated(page);
      return response;
    };
  }
  return page;
}

/** A decided (all rejected) cookie choice, so the consent banner does not cover the page under test. */
export const DECIDED_CONSENT = encodeURIComponent("v=2025-08-19&p=0&a=0&m=0&id=00000000-0000-4000-8000-000000000000");

/** Forgets the cookie choice, for tests about the consent banner itself. */
export async function forgetConsent(page: Page) {
  await page.context().clearCookies({ name: "unicum_consent" });
}

/** Adds the decided choice; a plain clearCookies() (switching user) keeps it, forgetConsent() removes it. */
async function withDecidedConsent(context: BrowserContext, url: string) {
  const add = () => context.addCookies([{ name: "unicum_consent", value: DECIDED_CONSENT, url }]);
  const clearCookies = context.clearCookies.bind(context);
  context.clearCookies = async (options?: Parameters<BrowserContext["clearCookies"]>[0]) => {
    await clearCookies(options);
    if (!options) await add();
  };
  await add();
  context.on("page", (page) => {
    watchHydration(page);
    waitForHydrationOnLoad(page);
  });
  return context;
}

// Every browser context starts with that choice: the test's own and any a test opens itself
// (several students in one test use browser.newContext()).
export const test = base.extend<{ hydrationGuard: void }, { consentOnEveryContext: void }>({
  consentOnEveryContext: [
    async ({ browser }, use, workerInfo) => {
      // The worker's project's server (playwright.config.ts: each project has its own).
      const baseURL = workerInfo.project.use.baseURL!;
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        return withDecidedConsent(await newContext(options), options?.baseURL ?? baseURL);
      };
      await use();
    },
    { scope: "worker", auto: true },
  ],
  context: async ({ context, baseURL }, use) => {
    await use(await withDecidedConsent(context, baseURL!));
  },
  // Every page of every context the test opened: a hydration error, a CSP violation or a logged error fails the test.
  hydrationGuard: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      hydrationErrors = [];
      cspViolations = [];
      consoleErrors = [];
      allowedErrors = [];
      await use();
      expect(hydrationErrors, "the server-rendered page and the browser's first render differ").toEqual([]);
      expect(cspViolations, "the page needs something its Content-Security-Policy blocks").toEqual([]);
      expect(consoleErrors, "the page logged an error (console.error or an uncaught exception)").toEqual([]);
    },
    { auto: true },
  ],
  page: async ({ page }, use) => {
    await use(waitForHydrationOnLoad(page));
  },
});
export { expect };
