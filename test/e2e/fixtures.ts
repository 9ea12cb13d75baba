import { test as base, expect, type Page } from "@playwright/test";

/** Signs in through the development sign-in call (the same one the /login buttons use). */
export async function login(page: Page, email: string) {
  const response = await page.request.post("/api/auth/dev", { data: { email } });
  expect(response.status(), `dev login ${email}`).toBe(200);
  const { user } = await response.json();
  return user as { id: number; name: string; role: string };
}

/** A decided (all rejected) cookie choice, so the consent banner does not cover the page under test. */
export const DECIDED_CONSENT = encodeURIComponent("v=2025-08-19&p=0&a=0&m=0&id=00000000-0000-4000-8000-000000000000");

/** Forgets the cookie choice, for tests about the consent banner itself. */
export async function forgetConsent(page: Page) {
  await page.context().clearCookies({ name: "unicum_consent" });
}

export const test = base.extend({
  context: async ({ context, baseURL }, use) => {
    await context.addCookies([{ name: "unicum_consent", value: DECIDED_CONSENT, url: baseURL! }]);
    await use(context);
  },
});
export { expect };
