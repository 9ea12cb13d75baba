// Compiti (issue 32), end to end: the demo teacher assigns a practice set to the demo class from the console; Giulia
// sees the reminder on her dashboard, starts it from Compiti with one button and submits it in the practice runner; the
// teacher then closes it ("Chiudi ora": the due date becomes the present moment, a real feature, no test clock); Marco
// submits afterwards and is late. The teacher sees done / late / not done per pupil, the per-question table, and
// downloads the CSV. The assignment is the test's own (a new title each run), so a retry passes.
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "@playwright/test";
import { parseCsv } from "../../app/lib/csv.ts";
import { expect, login, test, axe } from "./fixtures";

const DEMO_CLASS = "5ªB Liceo Volta";
const COUNT = 3;

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, email);
  return page;
}

/** Serious or critical axe-core violations in the page's main content. */
async function seriousViolations(page: Page) {
  const results = await axe(page).include("#contenuto").analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** From Compiti, one button, then every question answered in the practice runner and submitted. */
async function doAssignment(page: Page, title: string, late: boolean) {
  await page.goto("/compiti");
  const item = page.getByRole("listitem").filter({ hasText: title });
  if (late) await expect(item).toContainText("Scaduto: puoi ancora consegnarlo");
  else expect(await seriousViolations(page), "/compiti").toEqual([]);
  await item.getByRole("button", { name: `Inizia: ${title}` }).click();
  await expect(page).toHaveURL(/\/test\?id=\d+$/);
  for (let i = 0; i < COUNT; i++) {
    await expect(page.getByTestId("question-position")).toHaveText(`Domanda ${i + 1}/${COUNT}`);
    const boxes = page.getByRole("textbox", { name: /^Casella 1 di 16$/ });
    if (await boxes.count()) {
      await boxes.click();
      await page.keyboard.type("acqua");
      await expect(page.getByRole("textbox", { name: "Casella 5 di 16" })).toHaveValue("A");
      if (i < COUNT - 1) await page.getByRole("button", { name: "Domanda successiva" }).click();
    } else {
      await page.keyboard.press(late ? "b" : "a");
      await expect(page.locator(".option[aria-pressed=true]")).toHaveCount(1);
      if (i < COUNT - 1) await page.keyboard.press("ArrowRight");
    }
  }
  await page.getByRole("button", { name: "Consegna" }).click();
  // Graded like practice: the summary with its keys, only now that the pupil has submitted.
  await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);
  await expect(page.getByTestId("summary-score")).toBeVisible();
  await page.goto("/compiti");
  await expect(page.getByRole("listitem").filter({ hasText: title })).toContainText(late ? "In ritardo" : "Fatto");
}

test.describe("compiti", () => {
  test("a teacher assigns work to the demo class, two pupils do it (one late), the teacher reads the results and the CSV", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const title = `Compito e2e ${Date.now()}${Math.floor(Math.random() * 1000)}`;

    // The teacher assigns it from the console's Compiti tab (opening now, due in a week: the form's defaults).
    const teacher = await signedIn(browser, "docente@example.com");
    await teacher.goto("/admin/compiti");
    const classes = teacher.getByLabel("Classe", { exact: true });
    const demo = (await classes.locator("option", { hasText: DEMO_CLASS }).getAttribute("value"))!;
    if ((await classes.inputValue()) !== demo) {
      await classes.selectOption(demo);
      await expect(teacher).toHaveURL(new RegExp(`[?&]classe=${demo}`));
    }
    await teacher.getByLabel("Titolo").fill(title);
    await teacher.getByLabel("Materia", { exact: true }).selectOption({ label: "Chimica" });
    await teacher.getByLabel("Numero di domande").fill(String(COUNT));
    await teacher.getByRole("button", { name: "Assegna" }).click();
    const report = teacher.getByTestId("assignment-report");
    await expect(report.getByRole("heading", { name: `Compito: ${title}` })).toBeVisible();
    await expect(report.getByTestId("assignment-counts")).toHaveText(/^Fatto: 0 · In ritardo: 0 · Non fatto: \d+$/);

    // Giulia: the reminder on her dashboard, then Compiti in the side navigation, one button, the runner.
    const giulia = await signedIn(browser, "studente@example.com");
    await giulia.goto("/dashboard");
    const reminder = giulia.getByTestId("assignments-due");
    await expect(reminder).toContainText("Compiti da consegnare");
    await expect(reminder).toContainText(title);
    await giulia
      .getByRole("navigation", { name: "Navigazione principale" })
      .getByRole("link", { name: "Compiti" })
      .click();
    await expect(giulia).toHaveURL(/\/compiti$/);
    await doAssignment(giulia, title, false);
    await giulia.goto("/dashboard");
    await expect(giulia.getByRole("heading", { name: /^Ciao, / })).toBeVisible();
    await expect(giulia.getByTestId("assignments-due").filter({ hasText: title })).toHaveCount(0);
    await giulia.context().close();

    // The teacher closes it now: from this moment a submission is late.
    await report.getByRole("button", { name: "Chiudi ora (scadenza adesso)" }).click();
    await expect(teacher.getByText("Scadenza spostata ad adesso")).toBeVisible();

    // Marco does it after the due date: still accepted, marked late.
    const marco = await signedIn(browser, "amico@example.com");
    await doAssignment(marco, title, true);
    await marco.context().close();

    // The teacher's report: per pupil, per question.
    await teacher.reload();
    await expect(report.getByTestId("assignment-counts")).toHaveText(/^Fatto: 1 · In ritardo: 1 · Non fatto: \d+$/);
    const pupils = report.getByTestId("assignment-pupils");
    await expect(pupils.getByRole("row").filter({ hasText: "Giulia Rossi" })).toContainText("Fatto");
    await expect(pupils.getByRole("row").filter({ hasText: "Giulia Rossi" })).toContainText(`/${COUNT})`);
    await expect(pupils.getByRole("row").filter({ hasText: "Marco Bianchi" })).toContainText("In ritardo");
    await expect(pupils.getByRole("row").filter({ hasText: "Non fatto" }).first()).toBeVisible();
    expect(await seriousViolations(teacher), "/admin/compiti with a report").toEqual([]);
    const questions = report.getByTestId("assignment-questions");
    await expect(questions.locator("tbody tr")).toHaveCount(COUNT);
    for (const row of await questions.locator("tbody tr").all()) {
      // Both pupils answered every question of the common set: 2 answers, a share right, a wrong answer or a dash.
      await expect(row.getByRole("cell").nth(2)).toHaveText("2");
      await expect(row.getByRole("cell").nth(3)).toHaveText(/^(0|50|100)%$/);
    }

    // The CSV: one row per pupil of the class, with the same statuses.
    const download = teacher.waitForEvent("download");
    await report.getByRole("button", { name: "Esporta CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^compito-Compito-e2e-\d+\.csv$/);
    const csv = await readFile((await file.path())!, "utf8");
    const { rows, errors } = parseCsv(csv);
    expect(errors).toEqual([]);
    expect(Object.keys(rows[0]!)).toEqual([
      "Studente",
      "Email",
      "Stato",
      "Punteggio (0-31)",
      "Corrette",
      "Domande",
      "Tempo (s)",
      "Consegnato il (ora di Roma)",
    ]);
    const byEmail = new Map(rows.map((r) => [r.Email, r]));
    expect(byEmail.get("studente@example.com")).toMatchObject({
      Studente: "Giulia Rossi",
      Stato: "Fatto",
      Domande: "3",
    });
    expect(byEmail.get("amico@example.com")).toMatchObject({
      Studente: "Marco Bianchi",
      Stato: "In ritardo",
      Domande: "3",
    });
    for (const email of ["studente@example.com", "amico@example.com"]) {
      const row = byEmail.get(email)!;
      expect(row["Punteggio (0-31)"], email).toMatch(/^-?\d+(\.\d)?$/);
      expect(row["Consegnato il (ora di Roma)"], email).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
    }
    const others = rows.filter((r) => r.Email !== "studente@example.com" && r.Email !== "amico@example.com");
    expect(others.length).toBeGreaterThan(0);
    for (const r of others) expect(r).toMatchObject({ Stato: "Non fatto", "Punteggio (0-31)": "" });
  });
});
