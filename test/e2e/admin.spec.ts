import type { Browser, Page } from "@playwright/test";
import { expect, login, test } from "./fixtures";

const STUDENT = "studente@example.com";
const ADMIN = "admin@example.com";
const MODERATOR = "moderatore@example.com";

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, email);
  return page;
}

/** Makes sure the demo student is active again whatever happened in a test (shared database). */
async function reactivateStudent(admin: Page) {
  const users = (await (await admin.request.get("/api/admin/users?status=sospeso")).json()) as {
    id: number;
    email: string;
  }[];
  const student = users.find((u) => u.email === STUDENT);
  if (student) await admin.request.post(`/api/admin/users/${student.id}/ban`, { data: {} });
}

test.describe("admin console", () => {
  test("the admin suspends the student with a reason; the student's next click shows it; Riattiva restores access", async ({
    browser,
  }) => {
    const admin = await signedIn(browser, ADMIN);
    const student = await signedIn(browser, STUDENT);
    const reason = "Condivisione delle domande fuori dalla piattaforma";
    try {
      await student.goto("/dashboard");
      await expect(student.getByRole("navigation", { name: "Navigazione principale" })).toBeVisible();

      await admin.goto("/admin?tab=utenti");
      const row = admin.locator(`tr[data-user-email="${STUDENT}"]`);
      await expect(row).toContainText("Attivo");
      // Cancelling the reason dialog aborts.
      await row.getByRole("button", { name: "Sospendi Giulia Rossi" }).click();
      await admin
        .getByRole("dialog", { name: "Sospendi Giulia Rossi" })
        .getByRole("button", { name: "Annulla" })
        .click();
      await expect(row).toContainText("Attivo");
      await row.getByRole("button", { name: "Sospendi Giulia Rossi" }).click();
      const dialog = admin.getByRole("dialog", { name: "Sospendi Giulia Rossi" });
      await dialog.getByLabel("Motivo della sospensione").fill(reason);
      await dialog.getByRole("button", { name: "Sospendi" }).click();
      await expect(admin.getByRole("status").filter({ hasText: "Utente salvato" })).toBeVisible();
      await expect(row).toContainText("Sospeso");
      await expect(admin.getByRole("table", { name: "Registro attività" })).toContainText(reason);

      // The student's very next click.
      await student
        .getByRole("navigation", { name: "Navigazione principale" })
        .getByRole("link", { name: "Tentativi" })
        .click();
      await expect(student.getByRole("heading", { name: "Account sospeso" })).toBeVisible();
      await expect(student.getByText(reason)).toBeVisible();

      await row.getByRole("button", { name: "Riattiva Giulia Rossi" }).click();
      await expect(row).toContainText("Attivo");
      await login(student, STUDENT);
      await student.goto("/dashboard");
      await expect(student.getByRole("navigation", { name: "Navigazione principale" })).toBeVisible();
      await expect(student.getByRole("heading", { name: "Account sospeso" })).toHaveCount(0);
    } finally {
      await reactivateStudent(admin);
      await admin.context().close();
      await student.context().close();
    }
  });

  test("the moderator sees only Segnalazioni and resolves a report", async ({ browser }) => {
    const moderator = await signedIn(browser, MODERATOR);
    const admin = await signedIn(browser, ADMIN);
    try {
      await moderator.goto("/admin");
      const tabs = moderator.getByRole("tablist", { name: "Sezioni" }).getByRole("tab");
      await expect(tabs).toHaveText(["Segnalazioni"]);
      await expect(moderator.getByRole("searchbox")).toHaveCount(0);
      // The server refuses the admin calls whatever the UI shows.
      expect((await moderator.request.get("/api/admin/users")).status()).toBe(403);

      const row = moderator.locator('tr[data-report-id="1"]');
      await expect(row).toContainText("Aperta");
      await row.getByRole("button", { name: "Segna risolta la segnalazione 1" }).click();
      await expect(moderator.getByRole("status").filter({ hasText: "Segnalazione risolta" })).toBeVisible();
      await expect(row).toContainText("Risolta");
      await moderator.getByLabel("Stato").selectOption("open");
      await expect(moderator.locator('tr[data-report-id="1"]')).toHaveCount(0);

      await moderator.getByLabel("Stato").selectOption("");
      const downloadPromise = moderator.waitForEvent("download");
      await moderator.getByRole("button", { name: "Esporta CSV" }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toBe("segnalazioni.csv");
      const text = (await import("node:fs")).readFileSync((await download.path())!, "utf8");
      expect(text.startsWith("\uFEFFID,Domanda,Testo domanda,Utente,Messaggio,Stato")).toBe(true);
      expect(text).toContain("La spiegazione non mi è chiara.");
    } finally {
      await admin.request.put("/api/admin/reports/1", { data: { status: "open" } });
      await moderator.context().close();
      await admin.context().close();
    }
  });

  test("the student sees the resolved report as 'Risolta' on /segnalato", async ({ browser }) => {
    const moderator = await signedIn(browser, MODERATOR);
    const admin = await signedIn(browser, ADMIN);
    const student = await signedIn(browser, STUDENT);
    try {
      await student.goto("/segnalato");
      expect((await moderator.request.post("/api/admin/reports/1/resolve")).status()).toBe(200);
      await student.reload();
      await expect(student.getByText("Risolta").first()).toBeVisible();
    } finally {
      await admin.request.put("/api/admin/reports/1", { data: { status: "open" } });
      for (const p of [moderator, admin, student]) await p.context().close();
    }
  });

  test("the admin sees every tab and the search; exports utenti.csv; a bad import row is named and nothing is written", async ({
    page,
  }) => {
    await login(page, ADMIN);
    await page.goto("/admin");
    await expect(page.getByRole("tablist", { name: "Sezioni" }).getByRole("tab")).toHaveText([
      "Analytics",
      "Utenti",
      "Tentativi",
      "Segnalazioni",
      "Database",
      "Classi",
      "Simulazioni",
      "Rush",
      "Edizioni",
      "Compiti",
    ]);
    await expect(page.getByRole("heading", { name: "Riepilogo" })).toBeVisible();
    await expect(page.getByRole("img", { name: /Tentativi al giorno/ })).toBeVisible();
    await expect(page.getByText(/Utenti con almeno 5 quiz: \d+/)).toBeVisible();

    await page.getByRole("searchbox").fill("giulia");
    await page
      .getByRole("region", { name: "Risultati della ricerca" })
      .getByRole("button", { name: /Giulia Rossi/ })
      .click();
    await expect(page.getByRole("dialog", { name: "Utente: Giulia Rossi" })).toContainText("Serie migliore");
    await page.keyboard.press("Escape");

    await page.getByRole("tab", { name: "Utenti" }).click();
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Esporta CSV" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe("utenti.csv");
    const path = await download.path();
    const bytes = (await import("node:fs")).readFileSync(path!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString("utf8")).toContain("Città");

    // The list is paginated on the server (50 per page); the export holds every user, not one page.
    const usersTable = page.getByRole("table", { name: "Utenti" });
    await expect(usersTable.locator("tbody tr")).toHaveCount(50);
    const pager = page.getByRole("navigation", { name: "Pagine degli utenti" });
    await expect(pager).toContainText(/· \d+ utenti/);
    const totalUsers = Number((await pager.textContent())!.match(/· (\d+) utenti/)![1]);
    expect(totalUsers).toBeGreaterThan(50);
    expect(bytes.toString("utf8").trim().split("\n")).toHaveLength(totalUsers + 1);
    await expect(pager).toContainText(`Pagina 1 di ${Math.ceil(totalUsers / 50)}`);
    await pager.getByRole("button", { name: "Successiva" }).click();
    await expect(pager).toContainText("Pagina 2 di");
    await expect(usersTable.locator("tbody tr")).toHaveCount(Math.min(50, totalUsers - 50));
    await expect(usersTable).not.toContainText("studente@example.com");
    // Searching asks the server and starts again from page 1.
    await page.getByRole("searchbox", { name: "Nome o email" }).fill("amico@");
    await expect(usersTable.locator("tbody tr")).toHaveCount(1);
    await expect(usersTable).toContainText("amico@example.com");
    await expect(pager).toContainText("Pagina 1 di 1 · 1 utente");

    await page.getByRole("tab", { name: "Tentativi" }).click();
    await expect(
      page
        .getByRole("table", { name: "Tentativi" })
        .getByRole("link", { name: /Riepilogo del tentativo/ })
        .first(),
    ).toHaveAttribute("href", /^\/test\/riepilogo\/\d+$/);

    await page.goto("/admin?tab=tentativi&userId=4");
    await expect(page.getByRole("table", { name: "Tentativi" })).toContainText("Nessun tentativo");

    await page.getByRole("tab", { name: "Database" }).click();
    await page.locator("#adm-file-difficulty").setInputFiles({
      name: "difficolta.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("question_id,difficulty\n1001,2\n1002,9\n"),
    });
    await page.getByRole("region", { name: "Importa difficoltà" }).getByRole("button", { name: "Importa" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Riga 3" })).toContainText("difficoltà da 1 a 5");
    await expect(page.getByRole("status").filter({ hasText: "Errore import difficoltà" })).toBeVisible();
  });

  test("'Nuovo utente' asks for name and email, then saves; 'Apri' edits the report and moves it to In revisione", async ({
    page,
  }) => {
    await login(page, ADMIN);
    await page.goto("/admin?tab=utenti");
    await page.getByRole("button", { name: "Nuovo utente" }).click();
    const form = page.getByRole("dialog", { name: "Nuovo utente" });
    await form.getByLabel("Nome").fill("Ilaria Test E2e");
    await form.getByRole("button", { name: "Salva" }).click();
    await expect(form.getByRole("alert")).toHaveText("Compila nome ed email");
    const email = `ilaria.e2e.${Date.now()}@example.com`;
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Anno").fill("4");
    await form.getByRole("button", { name: "Salva" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Utente salvato" })).toBeVisible();
    // The list pages by id, so the new user is shown by a search for their email.
    await expect(page.getByRole("searchbox", { name: "Nome o email" })).toHaveValue(email);
    const row = page.locator(`tr[data-user-email="${email}"]`);
    await expect(row).toContainText("Ilaria Test E2e");
    // Modifica: the dialog opens with the stored values; a new name and role are saved.
    await row.getByRole("button", { name: "Modifica Ilaria Test E2e" }).click();
    const edit = page.getByRole("dialog", { name: "Modifica utente" });
    await expect(edit.getByLabel("Email")).toHaveValue(email);
    await expect(edit.getByLabel("Anno")).toHaveValue("4");
    await edit.getByLabel("Nome").fill("Ilaria Modificata");
    await edit.getByLabel("Città").fill("Forlì");
    await edit.getByLabel("Ruolo").selectOption({ label: "Moderatore" });
    await edit.getByRole("button", { name: "Salva" }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText("Ilaria Modificata");
    await expect(row).toContainText("Moderatore");
    const roleChange = page
      .getByRole("table", { name: "Registro attività" })
      .getByRole("row")
      .filter({ hasText: email })
      .filter({ hasText: "Ruolo cambiato" });
    await expect(roleChange).toContainText("studente → moderator");
    // Bulk delete of the user this test created (no confirmation).
    await row.getByRole("checkbox").check();
    await page.getByRole("button", { name: /Elimina selezionati/ }).click();
    await expect(page.getByRole("status").filter({ hasText: "Eliminazione completata" })).toBeVisible();
    await expect(row).toHaveCount(0);

    // A report of this test's own, opened and saved without a forced status.
    const admin = page.request;
    const message = `Segnalazione di prova e2e ${Date.now()}`; // its own, even on a retry
    const created = await admin.post("/api/admin/import", {
      data: { reports: [{ email: STUDENT, questionId: 1003, message, userAnswerKey: "A" }] },
    });
    expect(created.status()).toBe(200);
    await page.goto("/admin?tab=segnalazioni");
    const reportRow = page.locator("tr", { hasText: message });
    const id = await reportRow.getAttribute("data-report-id");
    await reportRow.getByRole("button", { name: /^Apri/ }).click();
    const dialog = page.getByRole("dialog", { name: new RegExp(`Segnalazione ${id}`) });
    await expect(dialog.getByLabel("Opzione 1 (corretta)")).not.toHaveValue("");
    // A score the server refuses: the dialog stays open with its reason, the toast says it failed.
    await dialog.getByLabel("Punteggio assegnato (0-31)").fill("40");
    await dialog.getByRole("button", { name: "Salva" }).click();
    await expect(dialog.getByRole("alert")).toContainText("Il punteggio assegnato va da 0 a 31");
    await expect(page.getByRole("status").filter({ hasText: "Errore salvataggio" })).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Salva" })).toBeEnabled();
    await dialog.getByLabel("Punteggio assegnato (0-31)").fill("20");
    await dialog.getByRole("button", { name: "Salva" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Segnalazione aggiornata" })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.locator(`tr[data-report-id="${id}"]`)).toContainText("In revisione");
    await admin.delete(`/api/admin/reports/${id}`);
  });

  test("each tab has its own address: the back button returns to the previous tab", async ({ page }) => {
    await login(page, "admin@example.com");
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/analytics$/);
    // The forecast against the grades the demo's students entered (issue 46, point 4): a Brier score per exam.
    const calibration = page.getByRole("region", { name: "Previsione e voti reali" });
    await expect(calibration.getByRole("heading", { name: /^Fisica: \d+ casi, Brier 0,\d+/ })).toBeVisible();
    await page.getByRole("tab", { name: "Utenti" }).click();
    await expect(page).toHaveURL(/\/admin\/utenti$/);
    await page.getByRole("tab", { name: "Database" }).click();
    await expect(page).toHaveURL(/\/admin\/database$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/utenti$/);
    await expect(page.getByRole("tab", { name: "Utenti" })).toHaveAttribute("aria-selected", "true");
  });
});
