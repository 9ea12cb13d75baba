import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, login, test, axe } from "./fixtures";
import { serverOf } from "./servers";

const HOUR = 3_600_000;
const DUPLICATE = "Hai già completato il quiz per questa materia nella sessione Rush attiva.";

/**
 * Writes straight into the local D1 of the server the running test's project uses (test/e2e/servers.ts).
 * Used only to stand in for the quiz grading of the practice runner, which records rush results
 * on the server; no HTTP call can set a rush score.
 */
function e2eSql(command: string) {
  execFileSync(
    join("node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", serverOf(test.info().project.name).state, "--command", command],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
}

async function asAdmin<T>(page: Page, run: (request: APIRequestContext) => Promise<T>): Promise<T> {
  await login(page, "admin@example.com");
  return run(page.request);
}

async function createActiveEvent(page: Page, title: string) {
  return asAdmin(page, async (request) => {
    const response = await request.post("/api/admin/rush-events", {
      data: {
        title,
        startsAt: new Date(Date.now() - HOUR).toISOString(),
        endsAt: new Date(Date.now() + 51 * HOUR).toISOString(),
        published: true,
      },
    });
    expect(response.status()).toBe(201);
    return (await response.json()) as { id: number };
  });
}

async function deleteEvent(page: Page, id: number) {
  await asAdmin(page, async (request) => {
    expect((await request.delete(`/api/admin/rush-events/${id}`)).status()).toBe(200);
  });
}

async function expectNoSeriousA11yIssues(page: Page) {
  const results = await axe(page).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const subjectCard = (page: Page, name: string) =>
  page.locator("li.rush-subject").filter({ has: page.getByRole("heading", { name, exact: true }) });

test.describe("Quiz Rush", () => {
  test("without an active event /rush says so and nothing can be started", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/rush");
    await expect(page.getByRole("heading", { name: "Quiz Rush", level: 1 })).toBeVisible();
    await expect(page.getByText("Vinci il tempo: completa più materie possibili.")).toBeVisible();
    const countdown = page.getByRole("region", { name: "Tempo rimanente Quiz Rush" });
    await expect(countdown.getByText("Nessun evento Rush attivo")).toBeVisible();
    await expect(page.getByText("Completate 0 / 5").first()).toBeVisible();
    for (const button of await page.getByRole("button", { name: "Avvia quiz" }).all())
      await expect(button).toBeDisabled();
    // A start link without an event goes back to /rush.
    await page.goto("/quiz-rush/start?subject=1");
    await expect(page).toHaveURL(/\/rush$/);
  });

  test("with an active event: countdown, a graded subject shown as 'Completato' with date and positions, duplicate refused, start goes to /test", async ({
    page,
  }) => {
    const event = await createActiveEvent(page, "Rush e2e");
    try {
      // What grading does for a finished rush quiz: the student (24.5 in 15 min) and the friend (28).
      const finished = Date.now() - 10 * 60_000;
      e2eSql(
        `INSERT INTO rush_progress (event_id, user_id, subject_id, score, time_sec, started_at, finished_at) VALUES ` +
          `(${event.id}, 1, 1, 24.5, 900, ${finished - 900_000}, ${finished}), (${event.id}, 2, 1, 28, 1200, ${finished - 1_200_000}, ${finished})`,
      );

      await login(page, "studente@example.com");
      await page.goto("/rush");
      await expect(page.getByRole("heading", { name: "Quiz Rush", level: 1 })).toBeVisible();

      // Countdown 'days g HH:MM:SS' that ticks, with the elapsed percent.
      const timer = page.getByTestId("rush-countdown");
      await expect(timer).toHaveText(/^2 g 0[23]:\d{2}:\d{2}$/);
      const first = await timer.textContent();
      await expect.poll(() => timer.textContent(), { timeout: 4000 }).not.toBe(first);
      await expect(page.getByRole("progressbar", { name: "Tempo trascorso dell'evento" })).toHaveAttribute(
        "aria-valuenow",
        "2",
      );

      // Subjects: the window, the count, the graded subject with its date, the others startable.
      await expect(page.getByText(/Rush e2e: dal \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} al/)).toBeVisible();
      await expect(page.locator(".rush-subjects__count")).toHaveText("Completate 1 / 5");
      const biologia = subjectCard(page, "Biologia");
      await expect(biologia.getByText("Max 31")).toBeVisible();
      await expect(biologia.getByRole("button", { name: "Completato" })).toBeVisible();
      const date = new Intl.DateTimeFormat("it-IT", {
        timeZone: "Europe/Rome",
        day: "2-digit",
        month: "2-digit",
        year: "numeric",
      }).format(finished);
      await expect(biologia.locator("time")).toContainText(date);
      await expect(biologia).toContainText("24,5 / 31");
      await expect(biologia.locator("svg[data-icon=biology]")).toHaveCount(1);
      await expect(subjectCard(page, "Chimica").getByRole("button", { name: "Avvia quiz" })).toBeEnabled();
      await expect(subjectCard(page, "Ragionamento Logico").locator("svg[data-icon=logic]")).toHaveCount(1);

      // Positions: Biologia #2 of 2 (the friend scored more), overall #2, others a dash.
      const ranking = page.getByRole("region", { name: "Classifica per materia" });
      await expect(ranking.locator("li[data-subject-id='1']")).toContainText("#2");
      await expect(ranking.locator("li[data-subject-id='2']")).toContainText("—");
      const overall = page.getByRole("region", { name: "Posizione totale" });
      await expect(overall.getByTestId("rush-overall-position")).toHaveText("#2");
      await expect(overall).toContainText("su 2");
      await expect(overall).toContainText("Completate 1 / 5");
      await expect(overall.getByRole("progressbar", { name: "Materie completate" })).toHaveAttribute(
        "aria-valuenow",
        "20",
      );
      await expect(
        overall.getByText("La posizione totale potrebbe aggiornarsi dopo la convalida del sistema."),
      ).toBeVisible();
      await expect(overall).not.toContainText("stima");

      // The local cache mirrors the server.
      const cache = await page.evaluate(() => JSON.parse(localStorage.getItem("unicum_qr_results") ?? "{}"));
      expect(cache["1"]).toMatchObject({ score: 24.5, time: 900 });

      await expectNoSeriousA11yIssues(page);

      // Starting the completed subject again: the duplicate message, on the screen and from the server.
      await biologia.getByRole("button", { name: "Completato" }).click();
      await expect(page.getByRole("alert")).toHaveText(DUPLICATE);
      await page.goto("/quiz-rush/start?subject=1");
      await expect(page).toHaveURL(/\/rush$/);
      await expect(page.getByRole("alert")).toHaveText(DUPLICATE);

      // A forged return (rushDone/score) only refreshes: no score appears and the parameters go away.
      await page.goto("/rush?rushDone=1&subject=3&score=31");
      await expect(page).toHaveURL(/\/rush$/);
      await expect(page.locator(".rush-subjects__count")).toHaveText("Completate 1 / 5");
      await expect(subjectCard(page, "Matematica").getByRole("button", { name: "Avvia quiz" })).toBeVisible();

      // Reset clears only the local caches (tooltip 'Svuota punteggi locali'); the server's result stays.
      const reset = page.getByRole("button", { name: "Reset" });
      await reset.hover();
      await expect(page.getByRole("tooltip")).toHaveText("Svuota punteggi locali");
      await reset.click();
      expect(await page.evaluate(() => localStorage.getItem("unicum_qr_results"))).toBeNull();
      await expect(biologia.getByRole("button", { name: "Completato" })).toBeVisible();

      // /quiz-rush/start renders 'Preparazione quiz…' before it moves on (server-rendered page).
      const startHtml = await (await page.request.get("/quiz-rush/start?subject=3")).text();
      expect(startHtml).toContain("Preparazione quiz…");

      // Starting Chimica: "Avvia quiz" posts the subject to /rush's action, which draws the quiz of the active event
      // and claims the slot (issue 28: only a POST from our pages starts a Rush quiz), then opens the runner.
      const drawn = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/rush.data"));
      await subjectCard(page, "Chimica").getByRole("button", { name: "Avvia quiz" }).click();
      expect(new URLSearchParams((await drawn).postData() ?? "").get("subjectId")).toBe("2");
      await expect(page).toHaveURL(/\/test\?id=\d+$/);
      await expect(page.getByText("Domanda 1/31")).toBeVisible({ timeout: 15_000 });
      expect(await page.evaluate(() => sessionStorage.getItem("qr_subject"))).toBe("2");
      await page.goBack();
      await expect(page).toHaveURL(/\/rush$/);
    } finally {
      await deleteEvent(page, event.id);
    }
  });

  test("a Rush link from another site shows the quiz's settings and waits for 'Avvia'; nothing is claimed until then", async ({
    page,
    baseURL,
  }) => {
    const event = await createActiveEvent(page, "Rush link e2e");
    const claimed = async () =>
      ((await (await page.request.get("/api/rush/progress")).json()) as { pending: number[] }).pending;
    try {
      await login(page, "studente@example.com");
      // The attack of issue 28: a page of another site links to a 1-second, 1-question Fisica Rush quiz.
      const links = {
        rush: `${baseURL}/test?subject=4&q=1&time=1&rushEventId=${event.id}`,
        practice: `${baseURL}/test?subject=2&q=3`,
      };
      await page.route("https://evil.example/**", (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<!doctype html><title>Altro sito</title><a href="${links.rush}">Rush</a> <a href="${links.practice}">Esercizio</a>`,
        }),
      );
      await page.goto("https://evil.example/");
      await page.getByRole("link", { name: "Rush" }).click();
      await expect(page.getByRole("heading", { name: "Avvia il quiz Rush", level: 1 })).toBeVisible();
      const settings = page.getByRole("definition");
      await expect(settings).toHaveText(["Quiz Rush", "Fisica", "Tutti i sotto-argomenti", "1", "0:01"]);
      await expect(page.getByRole("button", { name: "Avvia", exact: true })).toBeEnabled();
      expect(await claimed()).toEqual([]);
      await expectNoSeriousA11yIssues(page);
      await page.getByRole("link", { name: "Annulla" }).click();
      await expect(page).toHaveURL(/\/rush$/);
      await expect(subjectCard(page, "Fisica").getByRole("button", { name: "Avvia quiz" })).toBeEnabled();

      // A practice link from another site asks first too; nothing is drawn until "Avvia".
      await page.goto("https://evil.example/");
      await page.getByRole("link", { name: "Esercizio" }).click();
      await expect(page.getByRole("heading", { name: "Avvia il quiz", level: 1 })).toBeVisible();
      await expect(page).toHaveURL(/\/test\?subject=2&q=3$/);
      await page.getByRole("button", { name: "Avvia", exact: true }).click();
      await expect(page).toHaveURL(/\/test\?id=\d+$/);
      await expect(page.getByText("Domanda 1/3")).toBeVisible();

      // The spec's start link (/quiz-rush/start) leads to the same waiting screen; "Avvia" starts and claims.
      await page.goto("/quiz-rush/start?subject=4");
      await expect(page).toHaveURL(new RegExp(`/test\\?subject=4&q=31&rushEventId=${event.id}$`));
      await expect(page.getByRole("heading", { name: "Avvia il quiz Rush", level: 1 })).toBeVisible();
      expect(await claimed()).toEqual([]);
      await page.getByRole("button", { name: "Avvia", exact: true }).click();
      await expect(page).toHaveURL(/\/test\?id=\d+$/);
      await expect(page.getByText("Domanda 1/31")).toBeVisible({ timeout: 15_000 });
      expect(await claimed()).toEqual([4]);
    } finally {
      await deleteEvent(page, event.id);
    }
  });

  test("the countdown runs on server time and the screen closes the event when its window ends", async ({ page }) => {
    test.setTimeout(60_000);
    const event = await asAdmin(page, async (request) => {
      const response = await request.post("/api/admin/rush-events", {
        data: {
          title: "Rush lampo",
          startsAt: new Date(Date.now() - HOUR).toISOString(),
          endsAt: new Date(Date.now() + 20_000).toISOString(),
          published: true,
        },
      });
      expect(response.status()).toBe(201);
      return (await response.json()) as { id: number };
    });
    try {
      await login(page, "studente@example.com");
      // The device clock is five days ahead: the screen must not believe it.
      await page.clock.install({ time: Date.now() + 5 * 24 * HOUR });
      await page.goto("/rush");
      await expect(page.getByTestId("rush-countdown")).toHaveText(/^0 g 00:00:(0[1-9]|1\d)$/);
      await expect(subjectCard(page, "Fisica").getByRole("button", { name: "Avvia quiz" })).toBeEnabled();
      const countdown = page.getByRole("region", { name: "Tempo rimanente Quiz Rush" });
      await expect(countdown.getByText("Nessun evento Rush attivo")).toBeVisible({ timeout: 30_000 });
      await expect(subjectCard(page, "Fisica").getByRole("button", { name: "Avvia quiz" })).toBeDisabled();
      await expect(page.locator(".rush-window")).toHaveText("Nessun evento Rush attivo");
    } finally {
      await deleteEvent(page, event.id);
    }
  });

  test("admin Rush tab: validated form, table with Sì/No badge, edit loads the row, delete after confirmation", async ({
    page,
  }) => {
    await login(page, "admin@example.com");
    await page.goto("/admin?tab=rush");
    const form = page.getByRole("form", { name: "Nuovo evento" });
    await form.getByRole("button", { name: "Salva" }).click();
    await expect(form.getByText("Il titolo è obbligatorio.")).toBeVisible();
    await form.getByLabel("Titolo").fill("Rush di Natale e2e");
    await form.getByLabel("Inizio (ora di Roma)").fill("2030-12-20T18:00");
    await form.getByLabel("Fine (ora di Roma)").fill("2030-12-20T09:00");
    await form.getByRole("button", { name: "Salva" }).click();
    await expect(form.getByText("La fine deve essere successiva all'inizio.")).toBeVisible();
    await form.getByLabel("Fine (ora di Roma)").fill("2030-12-21T09:30");
    await form.getByRole("button", { name: "Salva" }).click();
    await expect(page.getByRole("status").getByText("Salvato")).toBeVisible();

    const row = page.getByRole("row").filter({ hasText: "Rush di Natale e2e" });
    await expect(row.getByRole("cell").nth(1)).toHaveText("20/12/2030, 18:00");
    await expect(row.getByRole("cell").nth(2)).toHaveText("21/12/2030, 09:30");
    await expect(row.getByRole("cell").nth(3)).toHaveText("No");
    for (const header of ["Titolo", "Inizio", "Fine", "Pubblicato"])
      await expect(page.getByRole("columnheader", { name: header })).toBeVisible();

    // Stored as the Rome wall-clock time (CET, UTC+1).
    const list = await (await page.request.get("/api/admin/rush-events")).json();
    expect(list.find((e: { title: string }) => e.title === "Rush di Natale e2e")).toMatchObject({
      startsAt: "2030-12-20T17:00:00.000Z",
      published: false,
    });

    await row.getByRole("button", { name: "Modifica Rush di Natale e2e" }).click();
    const editForm = page.getByRole("form", { name: "Modifica evento" });
    await expect(editForm.getByLabel("Titolo")).toHaveValue("Rush di Natale e2e");
    await expect(editForm.getByLabel("Inizio (ora di Roma)")).toHaveValue("2030-12-20T18:00");
    await editForm.getByLabel("Pubblicato").check();
    await editForm.getByRole("button", { name: "Salva" }).click();
    // The first save's toast may still be showing (1.8 s): look at the newest one.
    await expect(page.getByRole("status").getByText("Salvato").last()).toBeVisible();
    await expect(row.getByRole("cell").nth(3)).toHaveText("Sì");

    await expectNoSeriousA11yIssues(page);

    await row.getByRole("button", { name: "Elimina Rush di Natale e2e" }).click();
    const dialog = page.getByRole("dialog", { name: "Eliminare evento?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Annulla" }).click();
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: "Elimina Rush di Natale e2e" }).click();
    await page.getByRole("dialog", { name: "Eliminare evento?" }).getByRole("button", { name: "Elimina" }).click();
    await expect(page.getByRole("status").getByText("Eliminato")).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  // The whole loop through the practice runner: the start (a POST to /rush) claims the rush slot, grading records the result.
  test("the demo student starts Biologia from /rush, finishes the quiz, sees 'Completato' with date and position, and cannot start it again", async ({
    page,
  }) => {
    const event = await createActiveEvent(page, "Rush completo e2e");
    try {
      await login(page, "studente@example.com");
      await page.goto("/rush");
      await subjectCard(page, "Biologia").getByRole("button", { name: "Avvia quiz" }).click();
      await expect(page).toHaveURL(/\/test\?id=\d+$/);
      // Submit the quiz as it is (blank answers cost nothing).
      await expect(page.getByText("Domanda 1/31")).toBeVisible({ timeout: 15_000 });
      await page.getByRole("button", { name: "Consegna" }).click();
      await expect(page).toHaveURL(/\/test\/riepilogo\/\d+$/);

      await page.goto("/rush");
      const biologia = subjectCard(page, "Biologia");
      await expect(biologia.getByRole("button", { name: "Completato" })).toBeVisible();
      const today = new Intl.DateTimeFormat("it-IT", {
        timeZone: "Europe/Rome",
        day: "2-digit",
        month: "2-digit",
        year: "numeric",
      }).format(new Date());
      await expect(biologia.locator("time")).toContainText(today);
      await expect(
        page.getByRole("region", { name: "Classifica per materia" }).locator("li[data-subject-id='1']"),
      ).toContainText(/#\d+/);
      await expect(
        page.getByRole("region", { name: "Posizione totale" }).getByTestId("rush-overall-position"),
      ).toHaveText(/#\d+/);

      await biologia.getByRole("button", { name: "Completato" }).click();
      await expect(page.getByRole("alert")).toHaveText(DUPLICATE);
      await page.goto("/quiz-rush/start?subject=1");
      await expect(page).toHaveURL(/\/rush$/);
      await expect(page.getByRole("alert")).toHaveText(DUPLICATE);
    } finally {
      await deleteEvent(page, event.id);
    }
  });
});
