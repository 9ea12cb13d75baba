// Findability (issue 34): each role signs in from /login, as a newcomer would, and reaches every feature of that role
// by clicks only (no typed URL after the sign-in). The active entry of the side navigation follows each section.
import type { Page } from "@playwright/test";
import { expect, hydrated, login, test, axe } from "./fixtures";

const STUDENT_ENTRIES = [
  "Dashboard",
  "Nuovo test",
  "Tentativi",
  "Errori",
  "Piano",
  "Compiti",
  "Simulazioni",
  "Quiz Rush",
  "Impostazioni",
  "Esci",
];
const STAFF_ENTRIES = ["Dashboard", "Nuovo test", "Tentativi", "Errori", "Console", "Impostazioni", "Esci"];

/** The /login page's demo account button (development sign-in), then the landing page, hydrated. */
async function signInFromLogin(page: Page, account: RegExp, landing: RegExp) {
  await page.goto("/login");
  await page.getByRole("button", { name: account }).click();
  await expect(page).toHaveURL(landing);
  await hydrated(page);
}

const sideNav = (page: Page) => page.getByRole("navigation", { name: "Navigazione principale" });

/** Clicks a side navigation entry and checks where it led and that it is the active one. */
async function go(page: Page, label: string, url: RegExp) {
  await sideNav(page).getByRole("link", { name: label, exact: true }).click();
  await expect(page).toHaveURL(url);
  await expectActive(page, label);
}

async function expectActive(page: Page, label: string) {
  await expect(sideNav(page).locator("[aria-current=page]")).toHaveText(label);
}

async function expectEntries(page: Page, labels: string[]) {
  await expect(sideNav(page).locator(".nav-item")).toHaveText(labels);
}

test.describe("every feature by clicks, for every role", () => {
  test("student: new test, attempts and a summary, review, the plan, Quiz Rush, profile and reports, simulations (joins a live one), the mobile menu", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    // An admin opens a live simulation to the demo student (setup through the API, in its own browser).
    const simId = `nav-${Date.now()}`;
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await login(admin, "admin@example.com");
    const created = await admin.request.post("/api/admin/simulations", {
      data: {
        id: simId,
        title: "Simulazione di navigazione",
        subjects: [{ subjectId: 2, timeMin: 5, questions: [2001, 2005] }],
        allowedUsers: [1],
      },
    });
    expect(created.status()).toBe(201);
    expect((await admin.request.post(`/api/admin/simulations/${simId}/start`)).status()).toBe(200);
    await adminContext.close();

    await signInFromLogin(page, /Studente\s*studente@example\.com/, /\/dashboard$/);
    await expectEntries(page, STUDENT_ENTRIES);
    await expectActive(page, "Dashboard");
    // The dashboard says what is happening: the live (or about to start) simulation, with Entra.
    const card = page.getByTestId("happening-simulation");
    await expect(card).toBeVisible();
    await expect(card.getByRole("link", { name: "Entra" })).toBeVisible();

    await go(page, "Nuovo test", /\/test\/nuovo$/);
    await expect(page.getByRole("heading", { name: "Nuovo test", level: 1 })).toBeVisible();
    await page.getByLabel("Materia").selectOption({ label: "Biologia" });
    await page.getByRole("button", { name: "Avvia test" }).click();
    await expect(page.getByRole("heading", { name: "QUIZ" })).toBeVisible();
    await expectActive(page, "Nuovo test");

    await go(page, "Tentativi", /\/tentativi$/);
    await expect(page.getByRole("heading", { name: "Tentativi passati" })).toBeVisible();
    await page
      .getByRole("link", { name: /^Riepilogo del tentativo/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);
    await expect(page.getByRole("heading", { name: "Riepilogo tentativo" })).toBeVisible();

    await go(page, "Errori", /\/ripasso\/errori$/);
    await expect(page.getByRole("heading", { name: "RIPASSO – DOMANDE SBAGLIATE" })).toBeVisible();

    await go(page, "Piano", /\/piano$/);
    await expect(page.getByRole("heading", { name: "Il piano fino alla prova", level: 1 })).toBeVisible();

    await go(page, "Quiz Rush", /\/rush$/);
    await expect(page.getByRole("heading", { name: "Quiz Rush", level: 1 })).toBeVisible();

    await go(page, "Impostazioni", /\/profilo$/);
    await expect(page.getByRole("heading", { name: "PROFILO" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Le mie classi" })).toBeVisible();
    await page.getByRole("link", { name: "Le tue segnalazioni" }).click();
    await expect(page.getByRole("heading", { name: "Le tue segnalazioni" })).toBeVisible();
    await expectActive(page, "Impostazioni");

    await go(page, "Simulazioni", /\/simulazioni$/);
    await expect(page.getByRole("heading", { name: "Simulazioni", level: 1 })).toBeVisible();
    // The demo class's simulation waits for its teacher; the new one is live (or starts within seconds).
    await expect(page.getByTestId("my-sim-demo-5b-volta")).toContainText("In attesa dell'avvio del docente");
    const mine = page.getByTestId(`my-sim-${simId}`);
    await expect(mine).toContainText("Simulazione di navigazione");
    // axe on the page with a live (or starting) simulation in it, not only the empty lists a11y.spec.ts sees.
    const scan = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
      [],
    );
    await mine.getByRole("link", { name: "Entra" }).click();
    await expect(page).toHaveURL(new RegExp(`/simulazione\\?id=${simId}$`));
    await expect(page.getByTestId("sim-exam")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("sim-subject")).toHaveText("Chimica");

    // The mobile menu carries the same entries: back to the dashboard through it, then to Quiz Rush.
    await page.goBack();
    await expect(page).toHaveURL(/\/simulazioni$/);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole("button", { name: "Menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu.locator(".nav-item")).toHaveText(STUDENT_ENTRIES);
    await expect(menu.locator("[aria-current=page]")).toHaveText("Simulazioni");
    await menu.getByRole("link", { name: "Quiz Rush" }).click();
    await expect(page).toHaveURL(/\/rush$/);
    await expect(menu).toBeHidden();
  });

  test("teacher: lands on the console, Classi and Simulazioni, the dashboard, and back through Console", async ({
    page,
  }) => {
    await signInFromLogin(page, /Docente\s*docente@example\.com/, /\/admin\/classi$/);
    await expectEntries(page, STAFF_ENTRIES);
    await expectActive(page, "Console");
    const tabs = page.getByRole("tablist", { name: "Sezioni" });
    await tabs.getByRole("tab", { name: "Simulazioni" }).click();
    await expect(page).toHaveURL(/\/admin\/simulazioni$/);
    await expect(tabs.getByRole("tab", { name: "Simulazioni" })).toHaveAttribute("aria-selected", "true");
    await tabs.getByRole("tab", { name: "Classi" }).click();
    await expect(page).toHaveURL(/\/admin\/classi$/);
    await expectActive(page, "Console");

    await go(page, "Dashboard", /\/dashboard$/);
    await expect(page.getByRole("heading", { name: /^Ciao, / })).toBeVisible();
    await go(page, "Console", /\/admin\/classi$/);
    await expect(tabs.getByRole("tab")).toHaveText(["Classi", "Simulazioni", "Compiti"]);
  });

  test("moderator: from the dashboard to the console's Segnalazioni", async ({ page }) => {
    await signInFromLogin(page, /Moderatore\s*moderatore@example\.com/, /\/dashboard$/);
    await expectEntries(page, STAFF_ENTRIES);
    await go(page, "Console", /\/admin\/segnalazioni$/);
    const tabs = page.getByRole("tablist", { name: "Sezioni" });
    await expect(tabs.getByRole("tab")).toHaveText(["Segnalazioni"]);
    await tabs.getByRole("tab", { name: "Segnalazioni" }).click();
    await expect(page).toHaveURL(/\/admin\/segnalazioni$/);
    await expect(tabs.getByRole("tab", { name: "Segnalazioni" })).toHaveAttribute("aria-selected", "true");
  });

  test("admin: the dashboard links to the console, and every tab opens by a click with Console active", async ({
    page,
  }) => {
    await signInFromLogin(page, /Admin\s*admin@example\.com/, /\/dashboard$/);
    await expectEntries(page, STAFF_ENTRIES);
    await expect(sideNav(page).getByRole("link", { name: "Console" })).toHaveAttribute("href", "/admin");
    await go(page, "Console", /\/admin\/analytics$/);
    const tabs = page.getByRole("tablist", { name: "Sezioni" });
    for (const [label, key] of [
      ["Utenti", "utenti"],
      ["Tentativi", "tentativi"],
      ["Segnalazioni", "segnalazioni"],
      ["Database", "database"],
      ["Classi", "classi"],
      ["Simulazioni", "simulazioni"],
      ["Rush", "rush"],
      ["Analytics", "analytics"],
    ] as const) {
      await tabs.getByRole("tab", { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/${key}$`));
      await expect(tabs.getByRole("tab", { name: label, exact: true })).toHaveAttribute("aria-selected", "true");
      await expectActive(page, "Console");
    }
  });
});

test.describe("the side navigation as the student left it (issue 33)", () => {
  test("collapsed, then reloaded: the server draws it collapsed and nothing on the page shifts", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/tentativi");
    const nav = sideNav(page);
    await nav.getByRole("button", { name: "Riduci il menu" }).click();
    await expect.poll(async () => Math.round((await nav.boundingBox())!.width)).toBe(84);

    // The server's HTML for this browser (its cookies): the column is already collapsed before any JavaScript.
    const html = await (await page.request.get("/tentativi")).text();
    expect(html).toContain('class="side-nav side-nav--collapsed"');
    expect(html).toContain('class="app-shell sidebar-collapsed"');

    // Reload with every layout shift recorded from the first paint (a PerformanceObserver, installed before the page).
    await page.addInitScript(() => {
      const w = window as unknown as { __shift: number };
      w.__shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!e.hadRecentInput) w.__shift += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.reload();
    await expect(page.locator(".app-main")).toHaveCSS("margin-left", "84px");
    await expect(nav.getByRole("button", { name: "Espandi il menu" })).toBeVisible();
    // Two rendered frames after hydration, so a shift caused by it would have been reported.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
    expect(shift, "cumulative layout shift of the reload").toBeLessThanOrEqual(0.05);

    // Expanded again: the next page from the server is expanded too.
    await nav.getByRole("button", { name: "Espandi il menu" }).click();
    await expect.poll(async () => Math.round((await nav.boundingBox())!.width)).toBe(260);
    const expanded = await (await page.request.get("/tentativi")).text();
    expect(expanded).toContain('class="side-nav"');
    // (The class names alone also appear in the page's inline stylesheet: look for the elements.)
    expect(expanded).toContain('class="app-shell"');
    expect(expanded).not.toContain('class="app-shell sidebar-collapsed"');
  });
});
