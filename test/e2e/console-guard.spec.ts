// The e2e run's own guard (fixtures.ts): a page that logs an error fails its test. These tests are marked as
// expected to fail, so they pass only while the guard does fail them; allowConsoleError lets one through.
import { allowConsoleError, expect, test } from "./fixtures";

test.describe("the console guard", () => {
  test("a console.error on a page fails the test", async ({ page }) => {
    test.fail();
    await page.goto("/policy");
    await page.evaluate(() => console.error("guasto di prova"));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("an uncaught exception on a page fails the test", async ({ page }) => {
    test.fail();
    await page.goto("/policy");
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error("eccezione di prova");
      }),
    );
    await expect.poll(() => page.evaluate(() => document.readyState)).toBe("complete");
    await page.waitForFunction(() => new Promise((resolve) => setTimeout(() => resolve(true), 0)));
  });

  test("an error the test declares is let through", async ({ page }) => {
    allowConsoleError(/^guasto atteso/);
    await page.goto("/policy");
    await page.evaluate(() => console.error("guasto atteso dal test"));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});
