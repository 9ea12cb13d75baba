// Exam editions on the student's screens (issue 29): /test/nuovo offers a full paper in the default edition's
// split and time, says the 2026/27 format is provisional, and an older edition gives last year's paper.
import { nextSitting, nextSittingText } from "../../app/lib/edition.ts";
import { SEED_EDITIONS } from "../../seed/editions.ts";
import { expect, login, test } from "./fixtures";

test("Prova completa: Fisica in the 2026/27 format is 31 questions (21 + 10) in 50 minutes, 2025/26 is 15 + 16 in 45", async ({
  page,
}) => {
  await login(page, "studente@example.com");
  await page.goto("/test/nuovo");
  const card = page.getByTestId("full-paper");
  await expect(card.getByText("Scegli Chimica, Fisica o Biologia")).toBeVisible();
  await expect(card.getByLabel("Formato dell'esame")).toHaveValue(/\d+/);
  await expect(card.getByTestId("edition-provisional")).toHaveText(
    "Formato 2026/27 da fonti non ufficiali: lo aggiorniamo appena il Ministero pubblica le linee guida",
  );
  await page.getByLabel("Materia").selectOption({ label: "Fisica" });
  await expect(card.getByTestId("full-paper-summary")).toHaveText(
    "Fisica · 31 domande (21 a scelta multipla + 10 di completamento) · 50 minuti",
  );
  await card.getByLabel("Formato dell'esame").selectOption({ label: "Semestre filtro 2025/26" });
  await expect(card.getByTestId("edition-provisional")).toHaveCount(0);
  await expect(card.getByTestId("full-paper-summary")).toHaveText(
    "Fisica · 31 domande (15 a scelta multipla + 16 di completamento) · 45 minuti",
  );
  await card.getByLabel("Formato dell'esame").selectOption({ label: "Semestre filtro 2026/27" });
  await card.getByRole("button", { name: "Avvia la prova completa" }).click();
  await expect(page).toHaveURL(/\/test\?id=\d+$/);
  await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/31");
  await expect(page.getByTestId("countdown")).toHaveText(/^(50:00|49:[0-5]\d)$/);
  const navigator = page.getByRole("navigation", { name: "Naviga" });
  await expect(navigator.getByRole("button", { name: /^Domanda \d+/ })).toHaveCount(31);
});

test("the dashboard tells the days to the next sitting of the default edition, and that its format is provisional", async ({
  page,
}) => {
  const next = nextSitting(SEED_EDITIONS.find((e) => e.isDefault)!, Date.now());
  test.skip(!next, "the default edition's sittings are over");
  await login(page, "studente@example.com");
  await page.goto("/dashboard");
  // The server's clock may cross midnight between this line and the page: either day's text is right.
  const texts = [nextSittingText(next!), nextSittingText({ ...next!, daysLeft: next!.daysLeft - 1 })];
  await expect(page.getByTestId("next-sitting")).toContainText(new RegExp(texts.map(escapeRegExp).join("|")));
  await expect(page.getByTestId("next-sitting")).toContainText("Formato 2026/27 da fonti non ufficiali");
});

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

test("the completamento sheet: the edition's 16 boxes in block capitals, counting down, a key typed in full graded right", async ({
  page,
}) => {
  await login(page, "studente@example.com");
  // Biologia 1094: "fosfatidilserina", the longest kind of key (exactly 16 characters).
  const quiz = (await (await page.request.get("/api/quiz?ids=1094")).json()) as { quizId: number; gapBoxes: number };
  expect(quiz.gapBoxes).toBe(16);
  await page.goto(`/test?id=${quiz.quizId}`);
  await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/1");
  const boxes = page.getByRole("textbox", { name: /^Casella \d+ di 16$/ });
  await expect(boxes).toHaveCount(16);
  const left = page.getByTestId("gap-boxes-left");
  await expect(left).toHaveText("Caselle libere: 16 su 16");
  await page.getByRole("textbox", { name: "Casella 1 di 16" }).click();
  await page.keyboard.type("fosfa");
  await expect(left).toHaveText("Caselle libere: 11 su 16");
  await page.keyboard.type("tidilserina");
  await expect(left).toHaveText("Nessuna casella libera (16 su 16)");
  await expect(page.getByRole("textbox", { name: "Casella 1 di 16" })).toHaveValue("F");
  await expect(page.getByRole("textbox", { name: "Casella 16 di 16" })).toHaveValue("A");
  // Block capitals on screen, not only in the value.
  await expect(page.getByRole("textbox", { name: "Casella 1 di 16" })).toHaveCSS("text-transform", "uppercase");
  // A 17th character has no box to go to.
  await page.keyboard.type("x");
  await expect(page.getByRole("textbox", { name: "Casella 16 di 16" })).toHaveValue("X");
  await page.keyboard.press("Backspace");
  await page.keyboard.type("a");
  await expect(left).toHaveText("Nessuna casella libera (16 su 16)");
  await page.getByRole("button", { name: "Consegna" }).click();
  await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);
  await expect(page.locator("[data-testid=summary-question][data-state=correct]")).toHaveCount(1);
});
