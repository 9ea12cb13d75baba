import { readFileSync } from "node:fs";
import { endFriendships, expect, login, test, axe } from "./fixtures";

test.describe("profile", () => {
  test("Save is enabled only after an edit; saving shows 'Profilo aggiornato!'", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/profilo");
    await expect(page.getByRole("heading", { name: "PROFILO" })).toBeVisible();
    await expect(page.getByRole("link", { name: /Torna alla dashboard/ })).toHaveAttribute("href", "/dashboard");
    await expect(page.getByLabel("Nome utente", { exact: true })).toHaveAttribute("readonly", "");
    await expect(page.getByLabel("Nome utente", { exact: true })).toHaveValue("giulia.rossi");
    await expect(page.getByTestId("created-at")).toHaveText(/\d{4}/);
    await expect(page.getByTestId("last-login")).toHaveText(/\d{4}/);
    const save = page.getByRole("button", { name: "Salva" });
    await expect(save).toBeDisabled();

    const goal = page.getByLabel("Obiettivo");
    const original = await goal.inputValue();
    // A different value even on a retry that finds the first attempt's one saved.
    const wanted = original === "Medicina a Pavia" ? "Medicina a Padova" : "Medicina a Pavia";
    await goal.fill(wanted);
    await expect(save).toBeEnabled();
    await goal.fill(original);
    await expect(save).toBeDisabled();

    await goal.fill(wanted);
    await save.click();
    await expect(page.getByText("Profilo aggiornato!")).toBeVisible();
    await expect(save).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel("Obiettivo")).toHaveValue(wanted);
    // Restore the shared demo data.
    await page.getByLabel("Obiettivo").fill(original);
    await page.getByRole("button", { name: "Salva" }).click();
    await expect(page.getByText("Profilo aggiornato!")).toBeVisible();

    const scan = await axe(page).analyze();
    const serious = scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });

  test("the codice fiscale is forced uppercase and checked; a bad CAP blocks saving", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/profilo");
    const cf = page.getByLabel("Codice fiscale");
    await cf.fill("rssmra85t10a562x");
    await expect(cf).toHaveValue("RSSMRA85T10A562X");
    await expect(page.getByText(/Codice fiscale non valido/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Salva" })).toBeDisabled();
    await cf.fill("rssmra85t10a562s");
    await expect(page.getByText(/Codice fiscale non valido/)).toHaveCount(0);
    await page.getByLabel("CAP").fill("201");
    await expect(page.getByText(/CAP non valido/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Salva" })).toBeDisabled();
    await page.getByLabel("CAP").fill("");
    await cf.fill("");

    // The age rule (at least 14) was the server's alone; the form now checks it as you type with the server's
    // own schema and message (issue 19), so the refusal shows before any save.
    await page.getByLabel("Data di nascita").fill("2020-05-01");
    await expect(page.getByText(/almeno 14 anni/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Salva" })).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel("Data di nascita")).not.toHaveValue("2020-05-01");
  });

  test("the export downloads a JSON file with the user's attempts", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/profilo");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: /Esporta i miei dati/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^unicum-dati-giulia\.rossi-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(data.profile.email).toBe("studente@example.com");
    expect(data.attempts.length).toBeGreaterThan(10);
    expect(data.attempts.every((a: { userId: number }) => a.userId === 1)).toBe(true);
  });

  test("two students become friends from the profile, compare on the dashboard, then end it", async ({ page }) => {
    await login(page, "studente01@demo.unicum.it");
    await endFriendships(page); // a retry starts from none, whatever step the failed run reached
    await page.goto("/profilo");
    await page.getByLabel("Nome utente o codice dell'amico").fill("studente02");
    await page.getByRole("button", { name: "Invita" }).click();
    await expect(page.getByRole("heading", { name: "Inviti in attesa" })).toBeVisible();

    await page.context().clearCookies();
    await login(page, "studente02@demo.unicum.it");
    await page.goto("/dashboard");
    await expect(page.getByText(/Vuoi confrontarti con un amico/)).toBeVisible();
    await page.goto("/profilo");
    await page.locator("#amici").getByRole("button", { name: "Accetta" }).click();
    // The accepted friend replaces the invitation: wait for it before leaving the page.
    await expect(page.locator("#amici").getByRole("button", { name: "Termina amicizia" })).toBeVisible();
    await expect(page.locator("#amici li")).toHaveCount(1);
    await page.goto("/dashboard");
    await page.getByLabel(/Confronta con/).check();
    await expect(page.getByTestId("chart-compare").locator("rect[data-bar=friend]")).toHaveCount(1);

    await page.goto("/profilo");
    await page.getByRole("button", { name: "Termina amicizia" }).click();
    await expect(page.getByText("Nessun amico collegato.")).toBeVisible();
  });

  test("'Elimina account' needs the typed confirmation, then signs the user out", async ({ page }) => {
    // A student made for this attempt (a retry cannot delete the same account twice).
    const email = `elimina.e2e.${Date.now()}@example.com`;
    await login(page, "admin@example.com");
    expect((await page.request.post("/api/admin/users", { data: { name: "Elimina Prova", email } })).status()).toBe(
      200,
    );
    await page.context().clearCookies();
    await login(page, email);
    await page.goto("/profilo");
    await page.getByRole("button", { name: "Elimina account" }).click();
    const dialog = page.getByRole("dialog", { name: "Eliminare l'account?" });
    const confirm = dialog.getByRole("button", { name: "Elimina definitivamente" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel("Scrivi ELIMINA per confermare").fill("ELIMINA");
    await confirm.click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login/);
    const again = await page.request.post("/api/auth/dev", { data: { email } });
    expect(again.status()).toBe(404);
  });

  test("'Sessioni attive' lists this device and another; 'Esci da tutti i dispositivi' signs both out", async ({
    page,
    browser,
  }) => {
    // A student made for this attempt, so the list holds only this test's sessions.
    const email = `sessioni.e2e.${Date.now()}@example.com`;
    await login(page, "admin@example.com");
    expect((await page.request.post("/api/admin/users", { data: { name: "Sessioni Prova", email } })).status()).toBe(
      200,
    );
    await page.context().clearCookies();
    await login(page, email);
    const phone = await browser.newContext({
      userAgent:
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    });
    const other = await phone.newPage();
    try {
      await login(other, email);
      await page.goto("/profilo");
      const sessions = page.getByRole("list", { name: "Sessioni attive" }).getByTestId("session");
      await expect(sessions).toHaveCount(2);
      await expect(sessions.filter({ hasText: "(questo dispositivo)" })).toContainText("Chrome su Windows");
      await expect(sessions.filter({ hasText: "Safari su iPhone" })).toContainText("ultimo utilizzo");
      await page.getByRole("button", { name: "Esci da tutti i dispositivi" }).click();
      await expect(page).toHaveURL(/\/$/);
      expect((await other.request.get("/api/me")).status()).toBe(401);
      await page.goto("/profilo");
      await expect(page).toHaveURL(/\/login/);
    } finally {
      await phone.close();
    }
  });
});
