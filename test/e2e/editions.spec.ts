// Exam editions on the student's screens (issue 29): /test/nuovo offers a full paper in the default edition's
// split and time, says the 2026/27 format is provisional, and an older edition gives last year's paper.
import { readFileSync } from "node:fs";
import type { BankFile } from "../../app/lib/bank-rules.ts";
import { nextSitting, nextSittingText } from "../../app/lib/edition.ts";
import { sheetFormOf } from "../../app/lib/gap-answer.ts";
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
  // Handed in blank, a full paper is an exam: its grade out of 30 and the edition on the summary.
  await page.getByRole("button", { name: "Consegna" }).click();
  await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);
  await expect(page.getByTestId("summary-grade")).toHaveText("0/30Voto dell'esame (non superato)");
  await expect(page.getByTestId("summary-grade")).toHaveAttribute("data-passed", "false");
  await expect(page.getByTestId("summary-edition")).toContainText("Formato: Semestre filtro 2026/27");
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
  // A Biologia topic with completamento questions (apoptosis: "fosfatidilserina" among them); the key of the first
  // gap drawn, as the real sheet wants it, comes from the bank.
  const quiz = (await (await page.request.get("/api/quiz?subjectId=1&topicId=119&count=31")).json()) as {
    quizId: number;
    gapBoxes: number;
    questions: { id: number; type: "mc" | "gap" }[];
  };
  expect(quiz.gapBoxes).toBe(16);
  const index = quiz.questions.findIndex((q) => q.type === "gap");
  expect(index).toBeGreaterThanOrEqual(0);
  const bank = JSON.parse(readFileSync("seed/bank/biologia.json", "utf8")) as BankFile;
  const key = sheetFormOf(bank.questions.find((q) => q.id === quiz.questions[index]!.id)!.accepted!);
  expect(key.length).toBeLessThanOrEqual(16);

  await page.goto(`/test?id=${quiz.quizId}`);
  await page
    .getByRole("navigation", { name: "Naviga" })
    .getByRole("button", { name: new RegExp(`^Domanda ${index + 1}\\b`) })
    .click();
  await expect(page.getByTestId("question-position")).toHaveText(`Domanda ${index + 1}/${quiz.questions.length}`);
  await expect(page.getByRole("textbox", { name: /^Casella \d+ di 16$/ })).toHaveCount(16);
  const left = page.getByTestId("gap-boxes-left");
  await expect(left).toHaveText("Caselle libere: 16 su 16");
  await page.getByRole("textbox", { name: "Casella 1 di 16" }).click();
  await page.keyboard.type(key.slice(0, 1));
  await expect(left).toHaveText("Caselle libere: 15 su 16");
  await page.keyboard.type(key.slice(1).toLowerCase());
  await expect(left).toHaveText(
    key.length === 16 ? "Nessuna casella libera (16 su 16)" : `Caselle libere: ${16 - key.length} su 16`,
  );
  // Block capitals, one character a box.
  const last = page.getByRole("textbox", { name: `Casella ${key.length} di 16` });
  await expect(last).toHaveValue(key.at(-1)!.toLocaleUpperCase("it-IT"));
  await expect(page.getByRole("textbox", { name: "Casella 1 di 16" })).toHaveValue(key[0]!.toLocaleUpperCase("it-IT"));
  await expect(last).toHaveCSS("text-transform", "uppercase");

  await page.getByRole("button", { name: "Consegna" }).click();
  await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);
  const question = page.locator("[data-testid=summary-question]").nth(index);
  await expect(question).toHaveAttribute("data-state", "correct");
  await expect(page.locator("[data-testid=summary-question][data-state=correct]")).toHaveCount(1);
  // A topic quiz is no full paper: no grade out of 30.
  await expect(page.getByTestId("summary-grade")).toHaveCount(0);
});

test("the Edizioni tab shows the completamento boxes of an edition and refuses 0 before saving anything", async ({
  page,
}) => {
  await login(page, "admin@example.com");
  await page.goto("/admin/edizioni");
  await expect(page.getByTestId("edition-2026/27")).toContainText("16 caselle");
  await page.getByRole("button", { name: "Modifica Semestre filtro 2026/27" }).click();
  const form = page.getByRole("form", { name: "Modifica Semestre filtro 2026/27" });
  const boxes = form.getByLabel("Caselle del completamento");
  await expect(boxes).toHaveValue("16");
  await boxes.fill("0");
  await form.getByRole("button", { name: "Salva edizione" }).click();
  await expect(form.getByRole("alert")).toHaveText("Caselle del completamento: almeno 1.");
  await form.getByRole("button", { name: "Annulla" }).click();
  await expect(page.getByTestId("edition-2026/27")).toContainText("16 caselle");
});
