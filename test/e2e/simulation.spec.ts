// Live simulation with two students and one admin: synchronized start, autosave across a reload,
// a device clock 10 minutes off that still ends with everyone, rank after the end.
import type { Browser, Page, WebSocketRoute } from "@playwright/test";
import { allowConsoleError, expect, login, passSimulationTime, subjectDeadline, test, axe } from "./fixtures";

const MC_ID = 2001; // Chimica, multiple choice
const GAP_ID = 2005; // Chimica, gap: "neutroni"
/** The runner's notice while its socket is down (app/components/simulation-runner/texts.ts). */
const T_OFFLINE = "Connessione in tempo reale assente";

/** The admin (own context) and a one-question, 5-minute simulation for the student (id 1) alone. */
async function oneQuestionSimulation(browser: Browser, simId: string, title: string) {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await login(admin, "admin@example.com");
  const created = await admin.request.post("/api/admin/simulations", {
    data: { id: simId, title, subjects: [{ subjectId: 2, timeMin: 5, questions: [MC_ID] }], allowedUsers: [1] },
  });
  expect(created.status()).toBe(201);
  return { adminContext, admin };
}

/** Resolves with the Node clock instant at which `testId` becomes visible on the page. */
async function whenVisible(page: Page, testId: string, timeout: number) {
  await page.getByTestId(testId).waitFor({ state: "visible", timeout });
  return Date.now();
}
async function whenHidden(page: Page, testId: string, timeout: number) {
  await page.getByTestId(testId).waitFor({ state: "hidden", timeout });
  return Date.now();
}

test.describe("live simulation", () => {
  test("the admin starts; two students begin within 1 s, one reloads and keeps its answers, one has its clock 10 min ahead and still ends with the other; both are ranked", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const simId = `e2e-${Date.now()}`;

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await login(admin, "admin@example.com");
    const created = await admin.request.post("/api/admin/simulations", {
      data: {
        id: simId,
        title: "Prova dal vivo",
        // Five minutes, ended early by the room's clock hook: a slow machine never runs out of time mid-test.
        subjects: [{ subjectId: 2, timeMin: 5, questions: [MC_ID, GAP_ID] }],
        allowedUsers: [1, 2],
      },
    });
    expect(created.status()).toBe(201);

    const contextA = await browser.newContext();
    const pageA = await contextA.newPage();
    await login(pageA, "studente@example.com");
    const contextB = await browser.newContext();
    // Device B's clock is 10 minutes ahead: countdowns must not trust it.
    await contextB.clock.install({ time: Date.now() + 10 * 60_000 });
    const pageB = await contextB.newPage();
    await login(pageB, "amico@example.com");
    await pageB.goto("/login");
    const skew = (await pageB.evaluate(() => Date.now())) - Date.now();
    expect(skew).toBeGreaterThan(9 * 60_000);

    for (const page of [pageA, pageB]) {
      await page.goto(`/simulazione?id=${simId}`);
      await expect(page.getByTestId("sim-waiting")).toBeVisible();
      await expect(page.getByText("In attesa dell'avvio")).toBeVisible();
      await expect(page.getByText("Non puoi tornare alla materia precedente.").first()).toBeVisible();
    }
    // Both sockets are open (the notice of the polling fallback is gone) before the start.
    for (const page of [pageA, pageB])
      await expect(page.getByText(/Connessione in tempo reale assente/)).toHaveCount(0);

    await admin.goto("/admin?tab=simulazioni");
    const row = admin.getByTestId(`sim-row-${simId}`);
    await row.getByRole("button", { name: "Avvia" }).click();
    await expect(row.getByRole("button", { name: "Avvia" })).toBeDisabled();

    const [startA, startB] = await Promise.all([
      whenVisible(pageA, "sim-exam", 20_000),
      whenVisible(pageB, "sim-exam", 20_000),
    ]);
    expect(Math.abs(startA - startB)).toBeLessThan(1000);
    await expect(pageB.getByTestId("sim-subject")).toHaveText("Chimica");
    // Device B shows the same remaining time as A (about five minutes), not ten minutes less.
    const remaining = async (page: Page) => {
      const [mm, ss] = (await page.getByTestId("sim-countdown").textContent())!.split(":").map(Number);
      return mm! * 60 + ss!;
    };
    expect(Math.abs((await remaining(pageA)) - (await remaining(pageB)))).toBeLessThanOrEqual(1);
    expect(await remaining(pageB)).toBeGreaterThan(40);

    // Each candidate has their own question order (issue 29): where the mc question sits for them.
    const mcPosition = async (page: Page) => {
      const view = await (await page.request.get(`/api/simulations/${simId}`)).json();
      return (view.flow[0].questions as { id: number }[]).findIndex((q) => q.id === MC_ID) + 1;
    };
    const [mcA, mcB] = [await mcPosition(pageA), await mcPosition(pageB)];
    const gapA = 3 - mcA;

    // Student A answers both questions; each is acknowledged by the room.
    await pageA.getByRole("button", { name: `Domanda ${mcA}`, exact: true }).click();
    const mcQuestion = pageA.getByRole("radiogroup");
    await expect(mcQuestion).toBeVisible();
    const chosen = (await mcQuestion.locator("label").first().textContent())!.slice(1).trim();
    await mcQuestion.locator("label").first().click();
    await expect(pageA.getByTestId("sim-save-state")).toHaveText("Salvata");
    await pageA.getByRole("button", { name: `Domanda ${gapA}`, exact: true }).click();
    await expect(pageA.getByText("Scrivi solo la parola o il numero (senza unità di misura)")).toBeVisible();
    // The sheet's 16 boxes (the simulation's edition), in block capitals, counting down.
    await expect(pageA.getByRole("textbox", { name: /^Casella \d+ di 16$/ })).toHaveCount(16);
    await pageA.getByLabel("Casella 1 di 16", { exact: true }).click();
    await pageA.keyboard.type("neutronx");
    await expect(pageA.getByTestId("gap-boxes-left")).toHaveText("Caselle libere: 8 su 16");
    await pageA.keyboard.press("Backspace"); // on the empty 9th box: clears the 'X' and moves back to it
    await expect(pageA.getByTestId("gap-boxes-left")).toHaveText("Caselle libere: 9 su 16");
    await pageA.keyboard.type("i");
    await expect(pageA.getByLabel("Casella 8 di 16", { exact: true })).toHaveValue("I");
    await expect(pageA.getByTestId("sim-save-state")).toHaveText("Salvata");
    await expect(pageA.getByTestId("sim-save-summary")).toHaveText("Tutte le risposte sono salvate");

    // Student B answers the mc question too.
    await pageB.getByRole("button", { name: `Domanda ${mcB}`, exact: true }).click();
    await pageB.getByRole("radiogroup").locator("label").nth(1).click();
    await expect(pageB.getByTestId("sim-save-state")).toHaveText("Salvata");

    // A reloads mid-subject: back at the current subject with the answers filled in.
    await pageA.reload();
    await expect(pageA.getByTestId("sim-exam")).toBeVisible();
    await expect(pageA.getByTestId("sim-completed")).toHaveText("2");
    await pageA.getByRole("button", { name: `Domanda ${mcA}, risposta data` }).click();
    await expect(pageA.getByRole("radiogroup").getByRole("radio", { name: chosen })).toBeChecked();
    await pageA.getByRole("button", { name: `Domanda ${gapA}, risposta data` }).click();
    await expect(pageA.getByLabel("Casella 1 di 16", { exact: true })).toHaveValue("N");
    await expect(pageA.getByLabel("Casella 8 di 16", { exact: true })).toHaveValue("I");

    const scan = await axe(pageA).analyze();
    expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
      [],
    );

    // Both leave the exam together at the room's end (brought to 3 s from now by the room's clock hook, which both
    // hear at once; B's device clock still plays no part), then see their result and rank.
    await passSimulationTime(admin, simId, (await subjectDeadline(pageA)) - Date.now() - 3000);
    const [endA, endB] = await Promise.all([
      whenHidden(pageA, "sim-exam", 90_000),
      whenHidden(pageB, "sim-exam", 90_000),
    ]);
    expect(Math.abs(endA - endB)).toBeLessThan(1500);
    for (const page of [pageA, pageB]) {
      await expect(page.getByRole("heading", { name: "Risultato simulazione" })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText("Scheda riassuntiva")).toBeVisible();
      await expect(page.getByTestId("sim-rank")).toHaveText(/^#[12]$/);
      await expect(page.getByText(/^Utente [12]$/).first()).toBeVisible();
      await expect(page.getByTestId("sim-participants")).toHaveText("su 2 partecipanti");
    }
    // A answered the gap right ("neutroni"): at least half the subject correct.
    await expect(pageA.getByText("Percentuale corrette:", { exact: false })).toContainText(/(50|100)%/);

    // B reloads after the end: its stored result is shown; a failing ranking call shows the spec's alerts.
    allowConsoleError(/status of 500 \(Internal Server Error\)|net::ERR_FAILED/); // the ranking call, failed on purpose
    await pageB.route("**/ranking", (route) => route.fulfill({ status: 500, json: { error: "x" } }));
    await pageB.reload();
    await expect(pageB.getByRole("heading", { name: "Risultato simulazione" })).toBeVisible();
    await expect(pageB.getByRole("alert")).toHaveText("Classifica non disponibile al momento.");
    await expect(pageB.getByTestId("sim-rank")).toHaveText("??");
    await pageB.unroute("**/ranking");
    await pageB.route("**/ranking", (route) => route.abort());
    await pageB.reload();
    await expect(pageB.getByRole("alert")).toHaveText("Errore nel recupero della classifica.");
    await pageB.unroute("**/ranking");
    await pageB.route("**/ranking", (route) => route.fulfill({ status: 200, json: { pos: null, ranking: [] } }));
    await pageB.reload();
    await expect(pageB.getByTestId("sim-rank")).toHaveText("--");
    await expect(pageB.getByText("Classifica non disponibile", { exact: true })).toBeVisible();
    await pageB.unroute("**/ranking");
    // Issue 31: a ranking not final yet (other rooms still grading) shows so, and the page asks again by itself.
    let pending = true;
    await pageB.route("**/ranking", async (route) => {
      if (!pending) return route.continue();
      await route.fulfill({ status: 200, json: { final: false, pos: null, position: null, ranking: [], around: [] } });
    });
    await pageB.reload();
    await expect(pageB.getByRole("status").filter({ hasText: "Classifica in aggiornamento" })).toBeVisible();
    await expect(pageB.getByTestId("sim-rank")).toHaveText("...");
    pending = false;
    await expect(pageB.getByTestId("sim-rank")).toHaveText(/^#[12]$/, { timeout: 15_000 });
    await expect(pageB.getByTestId("sim-participants")).toHaveText("su 2 partecipanti");
    await pageB.unroute("**/ranking");

    // The stored result page of A's attempt.
    const stored = await pageA.evaluate((id) => JSON.parse(localStorage.getItem(`simResult_${id}`) ?? "null"), simId);
    expect(stored.attemptId).toBeGreaterThan(0);
    await pageA.goto(`/simulazione/riepilogo/${simId}/${stored.attemptId}`);
    await expect(pageA.getByRole("heading", { name: "Risultato simulazione" })).toBeVisible();
    await expect(pageA.getByTestId("sim-rank")).toHaveText(/^#[12]$/);
    // B cannot open A's result.
    await pageB.goto(`/simulazione/riepilogo/${simId}/${stored.attemptId}`);
    await expect(pageB.getByText("Risultato non trovato")).toBeVisible();

    // The admin sees both attempts with their positions.
    const attemptsResponse = await admin.request.get(`/api/admin/simulations/${simId}/attempts`);
    expect(attemptsResponse.headers()["x-total-count"]).toBe("2");
    const attempts = await attemptsResponse.json();
    expect(attempts).toHaveLength(2);
    await Promise.all([adminContext.close(), contextA.close(), contextB.close()]);
  });

  test("a 2-subject simulation costs a student's page 3 HTTP requests: no polling while the socket is open, no call at the start, subjects open with the room's key and close on its word, one attempt submission", async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await login(admin, "admin@example.com");
    const simId = `richieste-${Date.now()}`;
    const created = await admin.request.post("/api/admin/simulations", {
      data: {
        id: simId,
        title: "Due materie",
        subjects: [
          { subjectId: 2, timeMin: 5, questions: [MC_ID] },
          { subjectId: 2, timeMin: 5, questions: [2002] },
        ],
        allowedUsers: [1],
      },
    });
    expect(created.status()).toBe(201);
    await login(page, "studente@example.com");
    const requests: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      // Every call to the API (the page-view beacon of the consent script aside) and to the page's own data and
      // action (/simulazione.data); the socket is not a request.
      const own = url.pathname === "/simulazione.data";
      if ((url.pathname.startsWith("/api/") && url.pathname !== "/api/page-view") || own) {
        requests.push(`${request.method()} ${url.pathname}`);
      }
    });
    await page.goto(`/simulazione?id=${simId}`);
    await expect(page.getByTestId("sim-waiting")).toBeVisible();
    await expect(page.getByText(/Connessione in tempo reale assente/)).toHaveCount(0);
    expect((await admin.request.post(`/api/admin/simulations/${simId}/start`)).status()).toBe(200);
    await expect(page.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", "0", { timeout: 20_000 });
    await page.getByRole("radiogroup").locator("label").first().click();
    await expect(page.getByTestId("sim-save-state")).toHaveText("Salvata");
    // Each subject's minute passes through the room's clock hook (the admin's call, not one of the page's).
    await passSimulationTime(admin, simId, (await subjectDeadline(page)) - Date.now() + 500);
    await expect(page.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", "1", { timeout: 30_000 });
    await expect(page.getByRole("radiogroup")).toBeVisible();
    await page.getByRole("radiogroup").locator("label").first().click();
    await expect(page.getByTestId("sim-save-state")).toHaveText("Salvata");
    await passSimulationTime(admin, simId, (await subjectDeadline(page)) - Date.now() + 500);
    await expect(page.getByRole("heading", { name: "Risultato simulazione" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("sim-rank")).toHaveText("#1");
    await expect(page.getByText("Risposte date")).toHaveCount(0);
    const base = `/api/simulations/${simId}`;
    // The flow on load (in the lobby it already carries both subjects sealed; each opens with the key the room sends
    // over the socket, issue 31: no call at the start nor per subject), the attempt once after the room has graded
    // (the page's action: no data reload after it), the ranking.
    expect(requests).toEqual([`GET ${base}`, "POST /simulazione.data", `GET ${base}/ranking`]);
    await adminContext.close();
  });

  test("without an id, with an unknown id, and for a student not enabled: the spec's messages", async ({
    page,
    browser,
  }) => {
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await login(admin, "admin@example.com");
    const simId = `solo-amico-${Date.now()}`;
    await admin.request.post("/api/admin/simulations", {
      data: {
        id: simId,
        title: "Riservata",
        subjects: [{ subjectId: 2, timeMin: 5, questionCount: 3 }],
        allowedUsers: [2],
      },
    });
    await adminContext.close();
    await login(page, "studente@example.com");
    await page.goto(`/simulazione?id=${simId}`);
    await expect(page.getByText("Non sei abilitato a questa simulazione")).toBeVisible();
    await page.goto("/simulazione");
    await expect(page.getByText("ID simulazione mancante")).toBeVisible();
    await page.goto("/simulazione?id=nessuna-simulazione");
    await expect(page.getByText("Simulazione non trovata")).toBeVisible();
    await page.goto("/simulazione/riepilogo/nessuna/999999");
    await expect(page.getByText("Risultato non trovato")).toBeVisible();
  });

  test("with WebSockets blocked, the page starts by polling every 5 s and autosaves over HTTP", async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    const simId = `polling-${Date.now()}`;
    const { adminContext, admin } = await oneQuestionSimulation(browser, simId, "Senza WebSocket");
    await page.routeWebSocket(/\/ws(\?.*)?$/, (ws) => ws.close());
    await login(page, "studente@example.com");
    await page.goto(`/simulazione?id=${simId}`);
    await expect(page.getByTestId("sim-waiting")).toBeVisible();
    await expect(page.getByText("Connessione in tempo reale assente", { exact: false })).toBeVisible();
    expect((await admin.request.post(`/api/admin/simulations/${simId}/start`)).status()).toBe(200);
    await expect(page.getByTestId("sim-exam")).toBeVisible({ timeout: 15_000 });
    await page.getByRole("radiogroup").locator("label").first().click();
    await expect(page.getByTestId("sim-save-state")).toHaveText("Salvata");
    // With the socket back, the room's hello shows that the answer really reached it.
    await page.unrouteAll();
    const fresh = await page.context().newPage();
    await fresh.goto(`/simulazione?id=${simId}`);
    await expect(fresh.getByTestId("sim-completed")).toHaveText("1");
    await adminContext.close();
  });

  test("a socket that drops for a moment: the answer given meanwhile goes on the reconnected socket, no HTTP save; a longer outage saves it over HTTP", async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const simId = `blip-${Date.now()}`;
    const { adminContext, admin } = await oneQuestionSimulation(browser, simId, "Connessione intermittente");
    // Every socket of the page goes through here: what the page sends is recorded, and the test can drop the live
    // socket and refuse new ones while `down`.
    const wire = { down: false, live: null as WebSocketRoute | null, sockets: 0, answers: [] as string[][] };
    await page.routeWebSocket(/\/ws(\?.*)?$/, (ws) => {
      if (wire.down) {
        void ws.close({ code: 1012, reason: "down" });
        return;
      }
      const socket = wire.sockets++;
      wire.live = ws;
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const m = JSON.parse(String(message)) as { type: string; value?: string };
        if (m.type === "answer") (wire.answers[socket] ??= []).push(String(m.value));
        server.send(message);
      });
    });
    let httpSaves = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/simulazione.data")) httpSaves++;
    });
    await login(page, "studente@example.com");
    await page.goto(`/simulazione?id=${simId}`);
    await expect(page.getByTestId("sim-waiting")).toBeVisible();
    expect((await admin.request.post(`/api/admin/simulations/${simId}/start`)).status()).toBe(200);
    await expect(page.getByTestId("sim-exam")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(T_OFFLINE)).toHaveCount(0);
    const options = page.getByRole("radiogroup").locator("label");
    const optionValue = async (n: number) => (await options.nth(n).locator("span").nth(1).textContent())!;

    // A blip: the socket drops and the answer is given before it is back. It waits ("Salvataggio…"), then goes on the
    // reconnected socket; no HTTP save.
    const first = await optionValue(0);
    wire.down = true;
    await wire.live!.close({ code: 1012, reason: "blip" });
    await expect(page.getByText(T_OFFLINE)).toBeVisible();
    await options.nth(0).click();
    await expect(page.getByTestId("sim-save-state")).toHaveAttribute("data-state", "pending");
    const blipSocket = wire.sockets;
    wire.down = false;
    await expect(page.getByTestId("sim-save-state")).toHaveAttribute("data-state", "saved", { timeout: 15_000 });
    expect(wire.answers[blipSocket]).toContain(first);
    expect(httpSaves).toBe(0);

    // A longer outage: past the grace the answer is saved over HTTP, into the same room.
    wire.down = true;
    await wire.live!.close({ code: 1012, reason: "outage" });
    await expect(page.getByText(T_OFFLINE)).toBeVisible();
    await options.nth(1).click();
    await expect(page.getByTestId("sim-save-state")).toHaveAttribute("data-state", "saved", { timeout: 15_000 });
    expect(httpSaves).toBe(1);
    // The room has it: what a fresh page reads back in its hello.
    wire.down = false;
    await page.unrouteAll();
    const fresh = await page.context().newPage();
    await fresh.goto(`/simulazione?id=${simId}`);
    await expect(fresh.getByTestId("sim-completed")).toHaveText("1");
    await fresh.getByRole("radiogroup").waitFor();
    await expect(fresh.getByRole("radiogroup").locator("input").nth(1)).toBeChecked();
    await adminContext.close();
  });

  test("admin form: 'Compila tutti i campi', the semestre filtro template, create, delete with confirmation", async ({
    page,
  }) => {
    await login(page, "admin@example.com");
    await page.goto("/admin?tab=simulazioni");
    await page.getByRole("button", { name: "Crea simulazione" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Compila tutti i campi" })).toBeVisible();
    const id = `form-${Date.now()}`;
    await page.getByLabel("ID (facoltativo)").fill(id);
    await page.getByRole("button", { name: "Modello Semestre filtro" }).click();
    await expect(page.getByLabel("Materia", { exact: true })).toHaveCount(3);
    await expect(page.getByLabel("Materia", { exact: true }).first()).toHaveValue("2");
    await expect(page.getByLabel("Minuti").first()).toHaveValue("50");
    await expect(page.getByLabel("Domande", { exact: true }).first()).toHaveValue("31");
    await expect(page.getByLabel("Pausa dopo (min)").first()).toHaveValue("30");
    await page
      .getByLabel("File domande (JSON)")
      .first()
      .setInputFiles({ name: "domande.json", mimeType: "application/json", buffer: Buffer.from("{}") });
    await expect(page.getByRole("alert").filter({ hasText: "File domande non valido" })).toBeVisible();
    await page
      .getByLabel("File domande (JSON)")
      .first()
      .setInputFiles({ name: "domande.json", mimeType: "application/json", buffer: Buffer.from("[2001, 2002, 2005]") });
    await expect(page.getByLabel("Domande", { exact: true }).first()).toHaveValue("3");
    await expect(page.getByLabel("Domande", { exact: true }).first()).toBeDisabled();
    await page.getByRole("button", { name: "Crea simulazione" }).click();
    await expect(page.getByText("Simulazione creata")).toBeVisible();
    const row = page.getByTestId(`sim-row-${id}`);
    await expect(row).toContainText("Chimica (50 min, 3 dom.)");
    await expect(row).toContainText("Biologia (50 min, 31 dom.)");
    await row.getByRole("button", { name: "Elimina" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Elimina" }).click();
    await expect(page.getByText("Simulazione eliminata")).toBeVisible();
    await expect(row).toHaveCount(0);
  });
});
