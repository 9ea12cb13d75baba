import matematica from "../../seed/bank/matematica.json" with { type: "json" };
import { expect, login, test } from "./fixtures";

const DAY = 24 * 60 * 60 * 1000;

test.describe("learning engine", () => {
  test("a wrong answer shows up in 'Ripasso del giorno' and the review test starts", async ({ page, browser }) => {
    // A student of our own (a retry makes another), whose only answer, two days ago, was wrong.
    const email = `ripasso${Date.now()}@example.com`;
    const question = matematica.questions[0]!; // 3001, multiple choice
    const wrongOption = question.options!.findIndex((_, i) => i !== question.correct);
    const admin = await browser.newContext();
    const adminPage = await admin.newPage();
    await login(adminPage, "admin@example.com");
    const imported = await adminPage.request.post("/api/admin/import", {
      data: {
        users: [{ email, name: "Ripasso Prova" }],
        attempts: [
          {
            email,
            subjectId: 3,
            startedAt: Date.now() - 2 * DAY,
            answers: [{ questionId: 3001, optionId: wrongOption, timeSec: 20 }],
          },
        ],
      },
    });
    expect(imported.status(), await imported.text()).toBe(200);
    // Imported history reaches the memories through the rebuild (recalc-stats).
    expect((await adminPage.request.post("/api/admin/recalc-stats")).status()).toBe(200);
    await admin.close();

    await login(page, email);
    await page.goto("/dashboard");
    await expect(page.getByTestId("review-of-the-day")).toHaveText("1 domanda");
    const forecast = page.getByTestId("forecast");
    await expect(forecast.getByRole("heading", { name: "Previsione punteggio" })).toBeVisible();
    for (const subject of ["Chimica", "Fisica", "Biologia"])
      await expect(forecast.getByText(subject, { exact: true })).toBeVisible();
    await expect(forecast.getByText("Servono almeno 30 risposte (finora 0)")).toHaveCount(3);

    await page.goto("/ripasso/errori");
    await expect(page.getByRole("heading", { name: "Ripasso del giorno: 1 domanda" })).toBeVisible();
    // The spec's list is still there: the question, ready after its 24 h pause.
    await expect(page.getByTestId("wrong-item").filter({ hasText: question.stem }).getByText("pronta")).toBeVisible();
    await page.getByRole("button", { name: "Avvia il ripasso (1 domanda)" }).click();
    await expect(page).toHaveURL(/\/test\?id=\d+/);
    await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/1");
    await expect(page.getByText(question.stem)).toBeVisible();
    await page.getByRole("button", { name: question.options![question.correct!]! }).click();
    await page.getByRole("button", { name: "Consegna" }).click();
    await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);

    // Answered right: nothing left for today.
    await page.goto("/ripasso/errori");
    await expect(page.getByRole("heading", { name: "Ripasso del giorno: 0 domande" })).toBeVisible();
  });

  test("/test/nuovo offers a 'Mirato' mode next to the random one, with the same runner", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/test/nuovo");
    await expect(page.getByRole("radio", { name: "Casuale" })).toBeChecked();
    await page.getByLabel("Materia").selectOption({ label: "Fisica" });
    await page.getByRole("radio", { name: "Mirato" }).check();
    await expect(page.getByTestId("summary-line")).toHaveText(/^Fisica · .* · mirato$/);
    await page.getByRole("button", { name: "Avvia test" }).click();
    await expect(page).toHaveURL(/\/test\?id=\d+/);
    await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/10");
  });
});
