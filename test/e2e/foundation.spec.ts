import { expect, hydrated, login, test } from "./fixtures";

test.describe("sign-in and app shell", () => {
  test("the demo student signs in from /login and reaches the dashboard with the side navigation", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard/);
    await expect(page).toHaveTitle("Unicum");
    await page.getByRole("button", { name: /Studente\s*studente@example\.com/ }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Ciao, Giulia" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Navigazione principale" });
    await expect(nav).toBeVisible();
    for (const label of ["Dashboard", "Nuovo test", "Tentativi", "Errori", "Impostazioni", "Esci"]) {
      await expect(nav.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
    // Polled: right after a full page load the stylesheet may still be loading (layout unstyled for a moment).
    await expect.poll(async () => Math.round((await nav.boundingBox())!.width)).toBe(260);

    // Collapse: icons only, 84 px, toggle hidden; the logo expands it again.
    await hydrated(page);
    await nav.getByRole("button", { name: "Riduci il menu" }).click();
    await expect(nav.getByRole("button", { name: "Riduci il menu" })).toHaveCount(0);
    await expect.poll(async () => Math.round((await nav.boundingBox())!.width)).toBe(84);
    await nav.getByRole("button", { name: "Espandi il menu" }).click();
    await expect.poll(async () => Math.round((await nav.boundingBox())!.width)).toBe(260);

    // The active entry follows the path prefix.
    await nav.getByRole("link", { name: "Tentativi" }).click();
    await expect(page).toHaveURL(/\/tentativi$/);
    await expect(nav.getByRole("link", { name: "Tentativi" })).toHaveAttribute("aria-current", "page");
  });

  test("at 375 px the Menu button opens the modal menu and the page cannot scroll", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 700 });
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await expect(page.getByRole("navigation", { name: "Navigazione principale" })).toBeHidden();
    // Make the page taller than the viewport so scrolling would be possible.
    await page.evaluate(() => {
      const filler = document.createElement("div");
      filler.style.height = "3000px";
      document.querySelector("main")!.appendChild(filler);
    });
    await page.getByRole("button", { name: "Menu" }).click();
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await expect(dialog).toBeVisible();
    const width = (await dialog.boundingBox())!.width;
    expect(width).toBeLessThanOrEqual(375 * 0.92 + 1);
    // Two columns: the first two entries sit side by side.
    const first = (await dialog.locator("[data-nav=dashboard]").boundingBox())!;
    const second = (await dialog.locator("[data-nav=newtest]").boundingBox())!;
    expect(Math.abs(first.y - second.y)).toBeLessThan(4);
    expect(second.x).toBeGreaterThan(first.x);

    // The lock is in place (the page's own scroller is hidden), then a wheel and End leave it where it is:
    // wait for two rendered frames after the input (a condition, not a clock) before reading the position.
    await expect(page.locator("html")).toHaveCSS("overflow", "hidden");
    await page.mouse.wheel(0, 1500);
    await page.keyboard.press("End");
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.mouse.wheel(0, 800);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  test("logout ends the session and returns to the home page", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await page.evaluate(() => localStorage.setItem("user", JSON.stringify({ id: 1 })));
    await page
      .getByRole("navigation", { name: "Navigazione principale" })
      .getByRole("button", { name: "Esci" })
      .click();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login/);
  });

  test("the suspended account is refused with 'Account sospeso' and its reason", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: /sospeso@example\.com/ }).click();
    await expect(page.getByRole("alert")).toHaveText("Account sospeso: Violazione del regolamento");
    await expect(page).toHaveURL(/\/login/);
  });
});
