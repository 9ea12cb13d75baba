// The exam day alone (issue 46, point 2, "Done when") in Chromium: a new student opens it from /simulazioni, starts
// the default edition's day on /giornata, answers in the first paper, reloads in the first break and finds the break
// where it was, cuts it short ("Salta la pausa") and is in the second paper at once, then finishes and sees the three
// exams on /30 and the section, with the comparison with other students' days held back under 30 of them. The
// minutes pass through the room's clock hook (development only), as in the other simulation specs. Axe clean on the
// new screens, usable at 375 px.
import type { Page } from "@playwright/test";
import { axe, expect, hydrated, login, passSimulationTime, test } from "./fixtures";

async function noSeriousViolations(page: Page) {
  const scan = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

/** No horizontal scrolling at the phone's width. */
async function fitsPhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

type Edition = { isDefault: boolean; format: { breakMin: number; subjects: { subjectId: number; minutes: number }[] } };

test("a student starts a day alone, reloads in the first break, skips it, finishes and sees three grades and the section", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const email = `giornata-${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await login(admin, "admin@example.com");
  const imported = await admin.request.post("/api/admin/import-users", {
    data: { users: [{ email, name: "Studente Giornata", firstName: "Gina" }] },
  });
  expect(imported.status(), await imported.text()).toBe(200);
  const { editions } = (await (await admin.request.get("/api/exam-editions")).json()) as { editions: Edition[] };
  const format = editions.find((e) => e.isDefault)!.format;
  const MIN = 60_000;
  const [m1, m2, m3] = format.subjects.map((s) => s.minutes * MIN) as [number, number, number];

  await page.setViewportSize({ width: 375, height: 800 });
  await login(page, email);
  await page.goto("/simulazioni");
  await hydrated(page);
  await page.getByTestId("solo-day-link").click();
  await expect(page).toHaveURL(/\/giornata$/);
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "La giornata d'esame, da solo", level: 1 })).toBeVisible();
  // The edition's papers in order, each with its minutes, and the breaks.
  await expect(page.getByTestId("solo-day-flow").locator("li")).toHaveCount(format.subjects.length);
  await expect(page.getByTestId("solo-day-flow")).toContainText(`Pausa: ${format.breakMin} min`);
  await noSeriousViolations(page);
  await fitsPhone(page);

  await page.getByRole("button", { name: "Inizia la giornata d'esame" }).click();
  await expect(page).toHaveURL(/\/simulazione\?id=solo-/);
  const simId = new URL(page.url()).searchParams.get("id")!;
  await expect(page.getByTestId("sim-exam")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", "0");
  await fitsPhone(page);

  /** Moves the clock so that `at` ms of the day (from its current start) have passed. */
  const passTo = async (at: number) => {
    const { startTime } = (await (await page.request.get(`/api/simulations/${simId}`)).json()) as {
      startTime: number;
    };
    await passSimulationTime(admin, simId, at - (Date.now() - startTime));
  };

  // One answer in the first paper, saved.
  const option = page.getByRole("radiogroup").locator("label").first();
  if (await option.count()) {
    await option.click();
    await expect(page.getByTestId("sim-save-state")).toHaveText("Salvata");
  }

  // The first break: reloaded, it is still the break.
  await passTo(m1 + 1000);
  await expect(page.getByTestId("sim-break")).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("sim-break")).toBeVisible({ timeout: 20_000 });
  const skip = page.getByRole("button", { name: "Salta la pausa" });
  await expect(skip).toBeVisible();
  await noSeriousViolations(page);
  await fitsPhone(page);

  // Cut short: the second paper opens at once.
  await skip.click();
  await expect(page.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", "1", { timeout: 20_000 });
  await expect(page.locator("#sim-question-text")).toBeVisible({ timeout: 20_000 });

  // To the end of the day (the second break and the third paper pass too).
  await passTo(m1 + m2 + m3 + 2 * format.breakMin * MIN + 3000);
  await expect(page.getByRole("heading", { name: "Risultato simulazione" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("sim-grade")).toHaveCount(3);
  for (const grade of await page.getByTestId("sim-grade").allTextContents()) expect(grade).toMatch(/\/30|e lode/);
  await expect(page.getByTestId("sim-section")).toHaveText(/^Sezione \d+$/);
  await expect(page.getByTestId("sim-solo-standing")).toContainText("Il confronto compare con almeno 30 giornate");
  await noSeriousViolations(page);
  await fitsPhone(page);

  // /giornata lists it with its section; another day may start.
  await page.goto("/giornata");
  await hydrated(page);
  await expect(page.getByTestId("solo-days")).toContainText(/Sezione \d+/);
  await expect(page.getByRole("button", { name: "Inizia la giornata d'esame" })).toBeVisible();
  await adminContext.close();
});
