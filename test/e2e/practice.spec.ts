import { summaryScore } from "../../app/lib/scoring.ts";
import matematica from "../../seed/bank/matematica.json" with { type: "json" };
import { allowConsoleError, expect, login, test, axe } from "./fixtures";

type SummaryBody = {
  correct: number;
  wrong: number;
  blank: number;
  total: number;
  score: number;
  questions: { correct: boolean | null }[];
};

test.describe("practice loop", () => {
  test("a 10-question quiz with the Poco timer, from /test/nuovo to the summary, scored by the formula", async ({
    page,
  }) => {
    await login(page, "studente@example.com");
    await page.goto("/test/nuovo");
    await expect(page.getByRole("heading", { name: "Nuovo test" })).toBeVisible();
    await expect(page.getByText("Seleziona tra 1 e 31")).toBeVisible();
    await expect(page.getByRole("button", { name: "Avvia test" })).toBeDisabled();
    await page.getByLabel("Materia").selectOption({ label: "Biologia" });
    await expect(page.getByLabel("Sotto-argomento")).toHaveValue("");
    await page.getByRole("button", { name: "20", exact: true }).click();
    await expect(page.getByLabel("Numero di domande", { exact: true })).toHaveValue("20");
    await page.getByRole("button", { name: "10", exact: true }).click();
    await page.getByRole("radio", { name: /Poco/ }).check();
    await expect(page.getByTestId("summary-line")).toHaveText(
      "Biologia · Tutti i sotto-argomenti · 10 domande · timer 6:40 (40 s a domanda)",
    );
    await page.getByRole("button", { name: "Avvia test" }).click();

    await expect(page).toHaveURL(/\/test\?id=\d+$/);
    await expect(page.getByRole("heading", { name: "QUIZ" })).toBeVisible();
    await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/10");
    await expect(page.getByText("Tempo residuo").first()).toBeVisible();
    await expect(page.getByTestId("countdown")).toHaveText(/^6:[34]\d$/);

    // Answer with the keyboard: option A (or 1) for multiple choice, a word in the boxes for gaps.
    for (let i = 0; i < 10; i++) {
      await expect(page.getByTestId("question-position")).toHaveText(`Domanda ${i + 1}/10`);
      const boxes = page.getByRole("textbox", { name: /^Casella 1 di 16$/ });
      if (await boxes.count()) {
        await boxes.click();
        await page.keyboard.type("acqua");
        await expect(page.getByRole("textbox", { name: "Casella 5 di 16" })).toHaveValue("A");
        if (i < 9) await page.getByRole("button", { name: "Domanda successiva" }).click();
      } else {
        await page.keyboard.press(i % 2 ? "1" : "a");
        await expect(page.locator(".option[aria-pressed=true]")).toHaveCount(1);
        if (i < 9) await page.keyboard.press("ArrowRight");
      }
    }
    const navigator = page.getByRole("navigation", { name: "Naviga" });
    await expect(navigator.getByRole("button", { name: /risposta data/ })).toHaveCount(10);

    await page.getByRole("button", { name: "Consegna" }).click();
    await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);
    const attemptId = Number(page.url().split("/").pop());
    const summary = (await (await page.request.get(`/api/attempts/${attemptId}/summary`)).json()) as SummaryBody;
    expect(summary.total).toBe(10);
    expect(summary.correct + summary.wrong + summary.blank).toBe(10);
    const expected = summaryScore(summary.correct, summary.wrong, summary.total);
    expect(summary.score).toBe(expected);
    await expect(page.getByTestId("summary-score")).toHaveText(
      `${expected.toLocaleString("it-IT", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}/31`,
    );
    await expect(page.getByTestId("summary-percent")).toHaveText(`${Math.round((summary.correct / 10) * 100)}%`);
    await expect(page.locator("[data-testid=summary-question][data-state=correct]")).toHaveCount(summary.correct);
    await expect(page.locator("[data-testid=summary-question][data-state=wrong]")).toHaveCount(summary.wrong);
    await expect(page.getByText("Spiegazione:").first()).toBeVisible();
    await expect(page.getByText("Tempo medio per domanda")).toBeVisible();

    // Report from the summary: optional reason, 'Segnalazione inviata ✓', closes by itself.
    await page.getByRole("button", { name: "Segnala" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Segnala domanda" });
    await dialog.getByRole("button", { name: "Invia segnalazione" }).click();
    await expect(dialog.getByText("Segnalazione inviata ✓")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("già segnalata").first()).toBeVisible();

    // Another user's summary reads 'Tentativo non trovato'.
    await login(page, "amico@example.com");
    await page.goto(`/test/riepilogo/${attemptId}`);
    await expect(page.getByRole("alert")).toHaveText("Tentativo non trovato");
  });

  test("a report sent from the runner shows 'già segnalata' and appears on /segnalato", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/test?subject=2&q=3");
    await expect(page).toHaveURL(/\/test\?id=\d+$/);
    await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/3");
    const stem = await page.locator("#question-text").innerText();
    await page.getByRole("button", { name: "Segnala" }).click();
    const dialog = page.getByRole("dialog", { name: "Segnala domanda all'amministratore" });
    await dialog.getByLabel("Descrivi il problema (facoltativo)").fill("Due opzioni sembrano corrette (prova e2e)");
    await dialog.getByRole("button", { name: "Invia segnalazione" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("Segnalazione inviata. Grazie!")).toBeVisible();
    await expect(page.getByText("già segnalata")).toBeVisible();

    await page.goto("/segnalato");
    await expect(page.getByRole("heading", { name: "Le tue segnalazioni" })).toBeVisible();
    const item = page
      .getByTestId("report-item")
      .filter({ hasText: stem.slice(0, 40) })
      .first();
    await expect(item).toBeVisible();
    await expect(item.getByText("In revisione")).toBeVisible();
    await expect(page.getByTestId("report-item").getByText("Risolta").first()).toBeVisible(); // the seed's resolved one
    await item.getByRole("button", { name: /Dettagli/ }).click();
    const details = page.getByRole("dialog");
    await expect(details.getByText("Due opzioni sembrano corrette (prova e2e)")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(details).toBeHidden();

    await login(page, "amico@example.com");
    await page.goto("/segnalato");
    await expect(page.getByText("Nessuna segnalazione trovata.")).toBeVisible();
  });

  test("past attempts: search, date range, status groups, sort, pages of 10, repeat", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/tentativi");
    await expect(page.getByRole("heading", { name: "Tentativi passati" })).toBeVisible();
    const items = page.getByTestId("attempt-item");
    await expect(items).toHaveCount(10);
    await expect(page.getByText(/^Pagina 1 di \d+$/)).toBeVisible();

    await page.getByLabel("Cerca").fill("CHIMICA");
    const chimica = await items.count();
    expect(chimica).toBeGreaterThan(0);
    for (let i = 0; i < chimica; i++) await expect(items.nth(i)).toContainText("Chimica");
    await page.getByLabel("Cerca").fill("");

    await page.getByLabel("Completati").uncheck();
    const abandoned = await items.count();
    for (let i = 0; i < abandoned; i++) await expect(items.nth(i)).toContainText("Interrotto");
    await page.getByLabel("Interrotti").uncheck();
    await expect(page.getByText("Nessun tentativo trovato con i filtri correnti.")).toBeVisible();
    await page.getByLabel("Completati").check();
    await page.getByLabel("Interrotti").check();

    // 'Al' today includes everything up to the end of today; 'Dal' tomorrow leaves nothing.
    const day = (offset: number) => {
      const d = new Date(Date.now() + offset * 86_400_000);
      return d.toLocaleDateString("sv-SE", { timeZone: "Europe/Rome" });
    };
    await page.getByLabel("Al", { exact: true }).fill(day(0));
    await expect(items).toHaveCount(10);
    await page.getByLabel("Dal", { exact: true }).fill(day(1));
    await expect(page.getByText("Nessun tentativo trovato con i filtri correnti.")).toBeVisible();
    await page.getByLabel("Dal", { exact: true }).fill("");
    await page.getByLabel("Al", { exact: true }).fill("");

    await page.getByLabel("Ordina per").selectOption("score");
    const scores = (await page.getByTestId("attempt-score").allInnerTexts()).map((t) => Number(t.split("/")[0]));
    expect(scores.length).toBeGreaterThan(1);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    await page.getByRole("button", { name: "Successiva" }).click();
    await expect(page.getByText(/^Pagina 2 di \d+$/)).toBeVisible();

    const first = items.first();
    const subject = (await first.getByRole("heading").innerText()).split("· ")[1]!;
    await first.getByRole("button", { name: /^Ripeti/ }).click();
    await expect(page).toHaveURL(/\/test\/nuovo\?subject=\d+.*q=\d+/);
    await expect(page.getByLabel("Materia").locator("option:checked")).toHaveText(subject);
  });

  test("after a wrong answer the review of mistakes shows the question 'in pausa' and cannot start yet", async ({
    page,
  }) => {
    await login(page, "moderatore@example.com");
    const question = matematica.questions[0]!; // 3001, multiple choice
    const wrongOption = question.options!.find((_, i) => i !== question.correct)!;
    // A right answer first: a retry starts, like the first run, with nothing to review.
    // Drawn from 3001's topic (a redo takes only questions answered before).
    const quiz = await (await page.request.get("/api/quiz?subjectId=3&topicId=301&count=31")).json();
    expect(quiz.questions.map((q: { id: number }) => q.id)).toContain(3001);
    const right = { answers: [{ question_id: 3001, option_id: question.correct }], timeTaken: 4 };
    expect((await page.request.post(`/api/quiz/${quiz.quizId}/attempt`, { data: right })).status()).toBe(200);
    await page.goto("/ripasso/errori");
    await expect(page.getByText("Nessuna domanda per il ripasso")).toBeVisible();
    await page.evaluate(() => localStorage.setItem("redo_ids", JSON.stringify([3001])));
    await page.goto("/test?redo=1");
    await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/1");
    await page.getByRole("button", { name: wrongOption }).click();
    await page.getByRole("button", { name: "Consegna" }).click();
    await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);
    await expect(page.locator("[data-testid=summary-question][data-state=wrong]")).toHaveCount(1);

    await page.goto("/ripasso/errori");
    await expect(page.getByRole("heading", { name: "RIPASSO – DOMANDE SBAGLIATE" })).toBeVisible();
    const start = page.getByRole("button", { name: "Avvia ripasso" });
    await expect(start).toBeDisabled(); // no subject chosen
    await page.getByLabel("Materia").selectOption({ label: "Matematica" });
    const item = page.getByTestId("wrong-item").filter({ hasText: question.stem });
    await expect(item.getByText("in pausa")).toBeVisible();
    await expect(page.getByTestId("review-counts")).toHaveText(
      /0 pronte · 1 in pausa · Prossima pronta tra 2[34]h \d+m/,
    );
    await expect(start).toBeDisabled(); // nothing ready yet
    await expect(page.getByLabel("Numero di domande")).toHaveValue("10");
    await page.getByLabel("Stato").selectOption("ready");
    await expect(page.getByText("Nessuna domanda corrisponde ai filtri.")).toBeVisible();
  });

  test("a failed submission shows the server's message and re-enables the controls; at zero the quiz submits itself", async ({
    page,
  }) => {
    await login(page, "studente@example.com");
    // The page's clock stands still while the two failures are tried, then runs past the 8 seconds.
    await page.clock.install();
    await page.goto("/test?subject=5&q=2&time=8");
    await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/2");
    // Paused 2 s ahead of the page's now: far enough that the call lands before that instant.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2_000);
    // The runner posts its attempt to the /test route's action (/test.data). The first call is refused by the
    // server itself (the quiz id changed on the way: someone else's quiz), the second never arrives.
    allowConsoleError(/net::ERR_FAILED/); // the second call, aborted on purpose
    let calls = 0;
    await page.route(/\/test\.data\?id=\d+/, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      calls++;
      if (calls === 1) {
        await route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), quizId: 999_999 }) });
      } else if (calls === 2) {
        await route.abort("failed");
      } else {
        await route.continue();
      }
    });
    const submit = page.getByRole("button", { name: "Consegna" });
    await submit.click();
    await expect(page.getByRole("alert")).toHaveText("Quiz non trovato.");
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByRole("alert")).toHaveText("Errore invio tentativo");
    await expect(page.getByRole("button", { name: "Domanda 2" })).toBeEnabled();
    await expect(page).toHaveURL(/\/test\?/); // still on the quiz: the timer has not run out
    // The 8-second timer runs out: the attempt is submitted without a click.
    await page.clock.runFor(9_000);
    await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/, { timeout: 15_000 });
    expect(calls).toBe(3);
  });

  test("when the attempts call can't reach the server, the last saved copy shows with a notice", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/tentativi");
    await expect(page.getByTestId("attempt-item")).toHaveCount(10);
    await expect(page.getByText(/Sei offline/)).toHaveCount(0);
    const nav = page.getByRole("navigation", { name: "Navigazione principale" });
    await nav.getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    // The screen's own data request fails as it does offline (the shell's request is left alone).
    allowConsoleError(/net::ERR_INTERNET_DISCONNECTED/); // the cut-off call
    await page.route(/\/tentativi\.data\?_routes=routes%2Ftentativi/, (route) => route.abort("internetdisconnected"));
    await nav.getByRole("link", { name: "Tentativi" }).click();
    await expect(page.getByText(/Sei offline o il server non risponde/)).toBeVisible();
    await expect(page.getByTestId("attempt-item")).toHaveCount(10);
  });
});

test.describe("practice screens: prefill, review start, layout, accessibility", () => {
  test("query parameters prefill New test; a review samples ready questions into /test?redo=1", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/test/nuovo?subject=2&topic=mole%20e%20stechiometria&q=31&time=1860");
    await expect(page.getByLabel("Materia")).toHaveValue("2");
    await expect(page.getByLabel("Numero di domande", { exact: true })).toHaveValue("31");
    await expect(page.getByRole("radio", { name: /Giusto/ })).toBeChecked();
    await expect(page.getByLabel("Sotto-argomento").locator("option:checked")).toHaveText("Mole e stechiometria");
    await page.goto("/test/nuovo?subject=1&q=7&time=500");
    await expect(page.getByRole("radio", { name: /Nessuno/ })).toBeChecked(); // 500/7 is no level

    await page.goto("/ripasso/errori");
    await page.getByLabel("Materia").selectOption({ label: "Biologia" });
    // The seed has 13 ready Biologia mistakes; the quiz test before may have paused some of them.
    await expect(page.getByTestId("review-counts")).toHaveText(/^[1-9]\d* pronte/);
    const ready = Number((await page.getByTestId("review-counts").innerText()).match(/^(\d+) pronte/)![1]);
    const n = Math.min(3, ready);
    await page.getByLabel("Numero di domande").fill(String(n));
    await page.getByRole("button", { name: "Avvia ripasso" }).click();
    await expect(page).toHaveURL(/\/test\?id=\d+$/);
    await expect(page.getByTestId("question-position")).toHaveText(`Domanda 1/${n}`);
    const ids = await page.evaluate(() => JSON.parse(localStorage.getItem("redo_ids") ?? "[]") as number[]);
    expect(ids).toHaveLength(n);
    expect(ids.every((id) => id > 1000 && id < 2000)).toBe(true);
  });

  test("the navigator has 6 columns under 640 px and 5 above", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.setViewportSize({ width: 600, height: 900 });
    await page.goto("/test?subject=1&q=12");
    const grid = page.locator(".navigator__grid");
    await expect(grid).toBeVisible();
    const columns = () => grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
    expect(await columns()).toBe(6);
    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(columns).toBe(5);
  });

  test("no serious or critical accessibility violations on the practice screens", async ({ page }) => {
    test.setTimeout(120_000); // six full axe scans on a shared, slow machine
    await login(page, "studente@example.com");
    const check = async (path: string, ready: () => Promise<void>) => {
      await page.goto(path);
      await ready();
      const results = await axe(page).analyze();
      const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(bad.map((v) => `${path}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
    };
    await check("/test/nuovo?subject=1", () => expect(page.getByRole("button", { name: "Avvia test" })).toBeEnabled());
    await check("/test?subject=2&q=31&time=1240", () => expect(page.getByTestId("question-position")).toBeVisible());
    await check("/tentativi", () => expect(page.getByTestId("attempt-item").first()).toBeVisible());
    await check("/test/riepilogo", () => expect(page.getByTestId("summary-score")).toBeVisible());
    await check("/segnalato", () => expect(page.getByTestId("report-item").first()).toBeVisible());
    await check("/ripasso/errori", () => expect(page.getByRole("button", { name: "Avvia ripasso" })).toBeVisible());
  });
});
