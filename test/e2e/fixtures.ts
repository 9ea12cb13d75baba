import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";

/** Signs in through the development sign-in call (the same one the /login buttons use). */
export async function login(page: Page, email: string) {
  const response = await page.request.post("/api/auth/dev", { data: { email } });
  expect(response.status(), `dev login ${email}`).toBe(200);
  const { user } = await response.json();
  return user as { id: number; name: string; role: string };
}

/** Waits until React has hydrated the page, so clicks reach their handlers. */
export async function hydrated(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "1");
}

/** A decided (all rejected) cookie choice, so the consent banner does not cover the page under test. */
export const DECIDED_CONSENT = encodeURIComponent("v=2025-08-19&p=0&a=0&m=0&id=00000000-0000-4000-8000-000000000000");

/** Forgets the cookie choice, for tests about the consent banner itself. */
export async function forgetConsent(page: Page) {
  await page.context().clearCookies({ name: "unicum_consent" });
}

const BASE_URL = `http://localhost:${process.env.E2E_PORT ?? 4319}`;

/** Adds the decided choice; a plain clearCookies() (switching user) keeps it, forgetConsent() removes it. */
async function withDecidedConsent(context: BrowserContext, url: string) {
  const add = () => context.addCookies([{ name: "unicum_consent", value: DECIDED_CONSENT, url }]);
  const clearCookies = context.clearCookies.bind(context);
  context.clearCookies = async (options?: Parameters<BrowserContext["clearCookies"]>[0]) => {
    await clearCookies(options);
    if (!options) await add();
  };
  await add();
  return context;
}

// Every browser context starts with that choice: the test's own and any a test opens itself
// (several students in one test use browser.newContext()).
export const test = base.extend<object, { consentOnEveryContext: void }>({
  consentOnEveryContext: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        return withDecidedConsent(await newContext(options), options?.baseURL ?? BASE_URL);
      };
      await use();
    },
    { scope: "worker", auto: true },
  ],
  context: async ({ context, baseURL }, use) => {
    await use(await withDecidedConsent(context, baseURL!));
  },
});
export { expect };
