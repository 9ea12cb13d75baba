import { expect, forgetConsent, login, test, axe } from "./fixtures";

// Every route of the spec's route table, as the roles that can see it. No serious or critical violation.
const PUBLIC = ["/", "/policy", "/terms", "/login"];
const STUDENT = [
  "/dashboard",
  "/profilo",
  "/rush",
  "/simulazioni",
  "/compiti",
  "/test/nuovo",
  "/test?subject=1&q=5",
  "/ripasso/errori",
  "/piano",
  "/giornata",
  "/tentativi",
  "/segnalato",
  "/test/riepilogo",
  "/simulazione",
  "/simulazione?id=non-esiste",
  "/simulazione/riepilogo/non-esiste/1",
];

type Page = import("@playwright/test").Page;

/** What a user sees once an admin tab has settled: its lists loaded, no fade or transition still running. */
async function adminTabSettled(page: Page) {
  await expect(page.getByText("Caricamento…")).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.getAnimations().length)).toBe(0);
}

async function expectNoSeriousViolations(page: Page, path: string, settled?: (page: Page) => Promise<void>) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await settled?.(page);
  const results = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
    );
  expect(serious, `${path}\n${serious.join("\n")}`).toEqual([]);
}

test.describe("accessibility (axe-core)", () => {
  // One axe scan per route and tab (more with each new screen) on a shared, slow machine.
  test.describe.configure({ timeout: 180_000 });
  test("public pages, with and without the consent banner", async ({ page }) => {
    await forgetConsent(page);
    for (const path of PUBLIC) await expectNoSeriousViolations(page, path);
    await page.getByRole("region", { name: "Cookie e privacy" }).getByRole("button", { name: "Rifiuta" }).click();
    // The banner is gone once refused; the pages are checked again without it.
    await expect(page.getByRole("region", { name: "Cookie e privacy" })).toHaveCount(0);
    for (const path of PUBLIC) await expectNoSeriousViolations(page, path);
  });

  test("student pages", async ({ page }) => {
    await login(page, "studente@example.com");
    for (const path of STUDENT) await expectNoSeriousViolations(page, path);
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSeriousViolations(page, "/dashboard");
    await page.getByRole("button", { name: "Menu" }).click();
    const results = await axe(page).include(".menu-modal").analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  });

  // The admin tabs (once in admin.spec.ts too, with its two dialogs: issue 33 left one scan of each tab, here).
  test("admin console as admin (every tab and the two dialogs), as teacher and as moderator", async ({ page }) => {
    await login(page, "admin@example.com");
    for (const tab of [
      "analytics",
      "utenti",
      "tentativi",
      "segnalazioni",
      "database",
      "classi",
      "simulazioni",
      "rush",
      "edizioni",
      "compiti",
    ]) {
      await expectNoSeriousViolations(page, `/admin?tab=${tab}`, adminTabSettled);
    }
    // The dialogs: the user form and the report editor.
    const dialogs: [string, () => Promise<void>][] = [
      ["utenti", () => page.getByRole("button", { name: "Nuovo utente" }).click()],
      ["segnalazioni", () => page.getByRole("button", { name: "Apri la segnalazione 1" }).click()],
    ];
    for (const [tab, open] of dialogs) {
      await page.goto(`/admin?tab=${tab}`);
      await open();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expect(page.getByText("Caricamento…")).toHaveCount(0);
      const results = await axe(page).include('[role="dialog"]').analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${tab} dialog: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
        [],
      );
    }
    await page.context().clearCookies();
    await login(page, "docente@example.com");
    for (const tab of ["classi", "simulazioni", "compiti"]) {
      await expectNoSeriousViolations(page, `/admin?tab=${tab}`);
    }
    await page.context().clearCookies();
    await login(page, "moderatore@example.com");
    await expectNoSeriousViolations(page, "/admin");
  });

  test("keyboard: skip link, visible focus on the first controls", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Vai al contenuto" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Tab");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe("none");
  });

  test("reduced motion: the side navigation collapses without a transition, the charts draw at once", async ({
    page,
  }) => {
    await login(page, "studente@example.com");
    const seconds = (value: string) =>
      Math.max(...value.split(",").map((v) => (v.trim().endsWith("ms") ? parseFloat(v) / 1000 : parseFloat(v))));
    const navTransition = () => page.locator(".side-nav").evaluate((el) => getComputedStyle(el).transitionDuration);
    const lineAnimation = () =>
      page
        .locator(".chart-line")
        .first()
        .evaluate((el) => getComputedStyle(el).animationName);
    await page.goto("/dashboard");
    await expect(page.locator(".chart-line").first()).toBeVisible();
    expect(seconds(await navTransition())).toBeGreaterThan(0.1); // by default the width glides
    expect(await lineAnimation()).toBe("chart-draw");
    // Toggle the side navigation, wait one rendered frame (a condition, not a clock), and count what still
    // moves on the side navigation and the main area (getAnimations lists running transitions and animations).
    const toggleAndCountMotion = (label: string) =>
      page.evaluate(async (name) => {
        document.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)!.click();
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const nav = document.querySelector(".side-nav")!.getAnimations({ subtree: true }).length;
        const main = document.querySelector(".app-main")!.getAnimations().length;
        return nav + main;
      }, label);
    // By default the collapse glides, so the count is not zero (this is what the reduced case must not do).
    expect(await toggleAndCountMotion("Riduci il menu")).toBeGreaterThan(0);
    await expect(page.locator(".app-main")).toHaveCSS("margin-left", "84px");
    await page.getByRole("button", { name: "Espandi il menu" }).click();
    await expect(page.locator(".app-main")).toHaveCSS("margin-left", "260px");

    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(seconds(await navTransition())).toBeLessThan(0.001);
    expect(await lineAnimation()).toBe("none");
    // With reduced motion nothing moves right after the click and the content already sits next to the 84 px bar.
    expect(await toggleAndCountMotion("Riduci il menu")).toBe(0);
    expect(await page.locator(".app-main").evaluate((el) => getComputedStyle(el).marginLeft)).toBe("84px");
  });
});
