import { test as base, expect, type Page } from "@playwright/test";

/** Signs in through the development sign-in call (the same one the /login buttons use). */
export async function login(page: Page, email: string) {
  const response = await page.request.post("/api/auth/dev", { data: { email } });
  expect(response.status(), `dev login ${email}`).toBe(200);
  const { user } = await response.json();
  return user as { id: number; name: string; role: string };
}

export const test = base;
export { expect };
