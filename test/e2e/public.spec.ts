import { mkdirSync } from "node:fs";
import { expect, forgetConsent, login, test } from "./fixtures";

const acceptNothing = async (page: import("@playwright/test").Page) => {
  // Hide the consent banner for tests that are not about it (a real choice, made like a visitor would).
  const banner = page.locator("#consent-banner");
  if (await banner.isVisible()) await banner.getByRole("button", { name: "Rifiuta" }).click();
};

test.describe("landing page", () => {
  test("anchor links scroll each section just under the sticky header", async ({ page }) => {
    await page.goto("/");
    await acceptNothing(page);
    const header = page.locator(".landing-header");
    for (const [label, id] of [
      ["Cos'è", "cos-e"],
      ["La promessa", "promessa"],
      ["Community", "community"],
      ["Team", "team"],
      ["Manifesto", "manifesto"],
    ] as const) {
      await page.getByRole("navigation", { name: "Sezioni della pagina" }).getByRole("link", { name: label }).click();
      await expect(page).toHaveURL(new RegExp(`#${id}$`));
      await expect.poll(async () => Math.round((await page.locator(`#${id}`).boundingBox())!.y)).toBe(80);
      const headerBox = (await header.boundingBox())!;
      expect(headerBox.y).toBe(0); // sticky: still on screen
      expect(headerBox.height).toBeLessThanOrEqual(80);
    }
  });

  test("the hero buttons lead to the start and the what-it-is sections", async ({ page }) => {
    await page.goto("/");
    await acceptNothing(page);
    await page.getByRole("link", { name: "Inizia ora" }).click();
    await expect(page).toHaveURL(/#inizia$/);
    await expect(page.getByRole("heading", { name: "Inizia in tre passi" })).toBeInViewport();
    await page.goto("/");
    await page.getByRole("link", { name: "Scopri cos'è" }).click();
    await expect(page.getByRole("heading", { name: /^Cos'è/ })).toBeInViewport();
  });

  test("the manifesto opens in a modal, jumps between its three parts and closes on Escape", async ({ page }) => {
    await page.goto("/");
    await acceptNothing(page);
    await page.getByRole("button", { name: "Leggi il manifesto" }).click();
    const dialog = page.getByRole("dialog", { name: /Manifesto di Unicum/ });
    await expect(dialog).toBeVisible();
    expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(900);
    for (const [link, heading] of [
      ["La promessa", "La promessa"],
      ["Cosa facciamo insieme", "Cosa facciamo insieme"],
      ["La filosofia", "La filosofia"],
    ]) {
      await dialog.getByRole("navigation").getByRole("link", { name: link }).click();
      await expect(dialog.getByRole("heading", { name: heading, level: 3 })).toBeInViewport();
    }
    await dialog.getByRole("link", { name: "Torna su" }).click();
    await expect(dialog.getByRole("heading", { name: /Manifesto di Unicum/ })).toBeInViewport();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });

  test("under 768 px the page is a single column, and the footer shows the current year", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    const cards = page.locator("#cos-e .card");
    const boxes = await Promise.all([0, 1, 2].map(async (i) => (await cards.nth(i).boundingBox())!));
    expect(new Set(boxes.map((b) => Math.round(b.x))).size).toBe(1);
    expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expect(page.locator("footer")).toContainText(`© ${new Date().getFullYear()}`);
  });

  test("ships no React runtime: only the two small first-party scripts", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname));
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(scripts.sort()).toEqual(["/consent.js", "/landing.js"]);
  });

  test("a signed-in visitor's sign-in button goes straight to the dashboard", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Vai alla dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("without Google configured, the sign-in button leads to the development sign-in", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Accedi" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Accesso di sviluppo" })).toBeVisible();
  });
});

test.describe("cookie consent and page views", () => {
  test("the banner appears once; a page view is stored only after accepting analytics", async ({ page }) => {
    const pageViews: { path: string; stored: boolean }[] = [];
    page.on("response", async (r) => {
      if (r.url().endsWith("/api/page-view")) {
        const { path, stored } = await r.json();
        pageViews.push({ path, stored });
      }
    });
    await forgetConsent(page);
    await page.goto("/policy");
    const banner = page.getByRole("region", { name: "Cookie e privacy" });
    await expect(banner).toBeVisible();
    // Accept and reject weigh the same.
    const accept = (await banner.getByRole("button", { name: "Accetta" }).boundingBox())!;
    const reject = (await banner.getByRole("button", { name: "Rifiuta" }).boundingBox())!;
    expect(Math.abs(accept.width - reject.width)).toBeLessThan(2);
    expect(accept.height).toBe(reject.height);

    await page.goto("/terms");
    expect(pageViews).toEqual([]); // no choice yet: nothing is sent
    await page.getByRole("button", { name: "Accetta" }).click();
    await expect(banner).toBeHidden();
    await expect.poll(() => pageViews).toEqual([{ path: "/terms", stored: true }]);

    await page.goto("/");
    await expect(page.getByRole("region", { name: "Cookie e privacy" })).toBeHidden(); // once only
    await expect.poll(() => pageViews.length).toBe(2);
    expect(pageViews[1]).toEqual({ path: "/", stored: true });

    // Client-side navigations count too.
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await expect.poll(() => pageViews.length).toBe(3);
    await page
      .getByRole("navigation", { name: "Navigazione principale" })
      .getByRole("link", { name: "Tentativi" })
      .click();
    await expect.poll(() => pageViews.map((v) => v.path)).toContain("/tentativi");
  });

  test("rejecting sends nothing, and the choice can be changed from the policy page", async ({ page }) => {
    const sent: string[] = [];
    page.on("request", (r) => r.url().endsWith("/api/page-view") && sent.push(r.url()));
    await forgetConsent(page);
    await page.goto("/policy");
    await page.getByRole("region", { name: "Cookie e privacy" }).getByRole("button", { name: "Rifiuta" }).click();
    await page.goto("/terms");
    await page.goto("/policy");
    expect(sent).toEqual([]);

    await page.getByRole("main").getByRole("button", { name: "Preferenze cookie" }).click();
    const dialog = page.getByRole("dialog", { name: "Preferenze cookie" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("checkbox", { name: /Necessari/ })).toBeChecked();
    await expect(dialog.getByRole("checkbox", { name: /Necessari/ })).toBeDisabled();
    await expect(dialog.getByRole("checkbox", { name: /Statistiche/ })).not.toBeChecked();
    await dialog.getByRole("checkbox", { name: /Statistiche/ }).check();
    await dialog.getByRole("button", { name: "Salva preferenze" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => sent.length).toBe(1);
    const cookie = (await page.context().cookies()).find((c) => c.name === "unicum_consent");
    expect(decodeURIComponent(cookie!.value)).toContain("a=1");
    expect(decodeURIComponent(cookie!.value)).toContain("m=0");
  });

  test("the preferences dialog closes on Escape, from the footer of the landing page", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("button", { name: "Preferenze cookie" }).click();
    const dialog = page.getByRole("dialog", { name: "Preferenze cookie" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });
});

test.describe("policy and terms", () => {
  test("/policy states every privacy fact, links home and to the terms", async ({ page }) => {
    await page.goto("/policy");
    const main = page.getByRole("main");
    await expect(main.getByRole("navigation", { name: "Indice" })).toBeVisible();
    for (const fact of [
      "24 mesi dopo la chiusura",
      "da 6 a 12 mesi",
      "fino a 10 anni",
      "entro 30 giorni",
      "19 agosto 2025",
      "almeno 14 anni",
    ]) {
      await expect(main).toContainText(fact);
    }
    await main.getByRole("link", { name: "Termini d'uso" }).first().click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole("heading", { name: "Termini d'uso", level: 1 })).toBeVisible();
  });
});

// The screenshots stay in test-results/ for review (not committed); what the test asserts is what a phone user
// notices first: nothing wider than the screen (no sideways scrolling) and the page's heading in view.
test("/ and /dashboard fit 375, 768 and 1280 px without sideways scrolling (screenshots for review)", async ({
  page,
}) => {
  mkdirSync("test-results/screenshots", { recursive: true });
  // Without motion: a full-page capture resizes the viewport, and the side navigation's width
  // transition would be caught half-way.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await login(page, "studente@example.com");
  for (const width of [375, 768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of [
      ["home", "/"],
      ["dashboard", "/dashboard"],
    ]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeInViewport();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
    }
  }
});
