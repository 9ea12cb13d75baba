// Issue 47: the installable app and practice that survives no signal, in Chromium with its service worker. Each test
// uses its own synthetic students (studente4x@demo.unicum.it: in no other spec), so a retry starts clean on the device
// (a new browser context) and adds only its own rows on the server.
import type { BrowserContext, Page } from "@playwright/test";
import { allowConsoleError, expect, hydrated, login, test } from "./fixtures";

/** Waits until the service worker controls the page (it installs, precaches the build and claims the page). */
async function controlled(page: Page) {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker?.controller != null), {
      message: "the service worker controls the page",
      timeout: 30_000,
    })
    .toBe(true);
}

/** The paths the service worker keeps for the current account. */
function keptPages(page: Page) {
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((n) => n.startsWith("unicum-pages-"));
    const out: Record<string, string[]> = {};
    for (const name of names) out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
    return out;
  });
}

async function offlineDatabases(page: Page) {
  return page.evaluate(async () =>
    (await indexedDB.databases()).map((d) => d.name ?? "").filter((n) => n.startsWith("unicum-offline-")),
  );
}

/** On /test/nuovo: downloads one quiz of Biologia with 3 questions; returns its id. */
async function downloadQuiz(page: Page): Promise<number> {
  await page.getByLabel("Materia").selectOption({ label: "Biologia" });
  const count = page.getByLabel("Numero di domande", { exact: true });
  await count.fill("3");
  await count.blur();
  const before = await page.getByTestId("downloaded-quiz").count();
  const drawn = page.waitForResponse((r) => r.url().endsWith("/api/quiz") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Scarica per l'offline" }).click();
  const body = (await (await drawn).json()) as { quizId: number; offline: boolean; questions: object[] };
  expect(body.offline).toBe(true);
  expect(body.questions).toHaveLength(3);
  await expect(page.getByText("Quiz scaricato: lo trovi qui sotto, anche offline.")).toBeVisible();
  await expect(page.getByTestId("downloaded-quiz")).toHaveCount(before + 1);
  return body.quizId;
}

/** Answers the question on screen: the first option, or a word in the boxes. */
async function answerCurrent(page: Page) {
  const boxes = page.getByRole("textbox", { name: /^Casella 1 di \d+$/ });
  if (await boxes.count()) {
    await boxes.click();
    await page.keyboard.type("acqua");
  } else {
    await page.locator(".option").first().click();
    await expect(page.locator(".option[aria-pressed=true]")).toHaveCount(1);
  }
}

const answered = (page: Page) =>
  page.getByRole("navigation", { name: "Naviga" }).getByRole("button", { name: /risposta data/ });

/** The submissions of a quiz that reached the server (a send with no network fails before it and is tried again). */
function countSubmissions(context: BrowserContext, quizId: number) {
  const sent = { count: 0 };
  context.on("response", (response) => {
    const request = response.request();
    if (request.method() === "POST" && request.url().endsWith(`/api/quiz/${quizId}/attempt`)) sent.count++;
  });
  return sent;
}

test.describe("installable and offline", () => {
  test("serves a valid manifest with its icons and registers the service worker", async ({ page }) => {
    await login(page, "studente46@demo.unicum.it");
    await page.goto("/dashboard");
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    const response = await page.request.get("/manifest.webmanifest");
    expect(response.status()).toBe(200);
    const manifest = await response.json();
    expect(manifest).toMatchObject({
      short_name: "Unicum",
      lang: "it",
      start_url: "/dashboard",
      display: "standalone",
      background_color: "#141518",
      theme_color: "#141518",
    });
    expect(manifest.name).toMatch(/Medicina/);
    const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual([
      "192x192 any",
      "512x512 any",
      "512x512 maskable",
    ]);
    for (const icon of icons) {
      const png = await page.request.get(icon.src);
      expect(png.headers()["content-type"]).toBe("image/png");
    }
    await controlled(page);
    const worker = await page.request.get("/sw.js");
    expect(worker.headers()["content-security-policy"]).toContain("connect-src 'self'");
    // The build's files are precached: the page's own script among them.
    const precached = await page.evaluate(async () => {
      const names = await caches.keys();
      const precache = names.find((n) => n.includes("precache"));
      return precache ? (await (await caches.open(precache)).keys()).map((r) => new URL(r.url).pathname) : [];
    });
    expect(precached).toContain("/offline.html");
    expect(precached.some((p) => /^\/assets\/manifest-[0-9a-f]+\.js$/.test(p))).toBe(true);
  });

  test("a downloaded quiz runs offline, survives a reload and a closed tab, and is graded once back online", async ({
    page,
    context,
  }) => {
    allowConsoleError(/ERR_INTERNET_DISCONNECTED|Failed to fetch|An unknown error occurred when fetching the script/);
    await login(page, "studente47@demo.unicum.it");
    await page.goto("/test/nuovo");
    await controlled(page);
    const quizId = await downloadQuiz(page);
    const sent = countSubmissions(context, quizId);
    await expect.poll(async () => Object.values(await keptPages(page)).flat()).toContain("/test/offline");

    await context.setOffline(true);
    await page.goto(`/test/offline/${quizId}`);
    await expect(page.getByTestId("offline-runner")).toBeVisible();
    await expect(page.getByTestId("question-position")).toHaveText("Domanda 1/3");
    await answerCurrent(page);
    await page.getByRole("button", { name: "Domanda successiva" }).click();
    await answerCurrent(page);
    await expect(answered(page)).toHaveCount(2);

    // A reload with no network: the page from the service worker, the answers from the device.
    await page.reload();
    await expect(page.getByTestId("offline-runner")).toBeVisible();
    await expect(answered(page)).toHaveCount(2);
    // The tab closed and opened again, still offline.
    await page.close();
    const again = await context.newPage();
    await again.goto(`/test/offline/${quizId}`);
    await hydrated(again);
    await expect(answered(again)).toHaveCount(2);
    await again.getByRole("button", { name: "Consegna" }).click();
    await expect(again.getByText(/Consegnato su questo dispositivo/)).toBeVisible();
    expect(sent.count).toBe(0);

    // Back online: sent and graded; two more reconnections send nothing more.
    await context.setOffline(false);
    await expect(again.getByText("Inviato e corretto.")).toBeVisible({ timeout: 25_000 });
    for (let i = 0; i < 2; i++) {
      // Each reconnection, then the page loaded again (its sync runs when it mounts): a condition, not a pause.
      await context.setOffline(true);
      await context.setOffline(false);
      await again.reload();
      await again.waitForLoadState("load");
    }
    expect(sent.count).toBe(1);

    await again.goto("/tentativi");
    const item = again.getByTestId("attempt-item").first();
    await expect(item.getByTestId("offline-chip")).toHaveText("Svolto offline");
    await expect(item.getByText("Completato")).toBeVisible();
    await expect(item.getByText("/3 corrette")).toBeVisible();
  });

  test("a quiz the server refuses says why and keeps its answers on screen", async ({ page }) => {
    await login(page, "studente45@demo.unicum.it");
    await page.goto("/test/nuovo");
    await controlled(page);
    const quizId = await downloadQuiz(page);
    // The server's refusal of an edited quiz (its own test: test/integration/offline-quizzes.test.ts).
    const reason = "Una domanda di questo quiz è stata modificata dopo che l'hai scaricato.";
    await page.route(`**/api/quiz/${quizId}/attempt`, (route) =>
      route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: reason }) }),
    );
    await page.goto(`/test/offline/${quizId}`);
    await answerCurrent(page);
    await expect(answered(page)).toHaveCount(1);
    await page.getByRole("button", { name: "Consegna" }).click();
    await expect(page.getByRole("alert")).toContainText(reason);
    await expect(page.getByRole("alert")).toContainText("Le tue risposte restano qui sotto.");
    await expect(answered(page)).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Consegna" })).toBeDisabled();
    // Still on the device after a reload, listed as not accepted with the reason.
    await page.reload();
    await expect(answered(page)).toHaveCount(1);
    await page.goto("/test/offline");
    await expect(page.getByTestId("downloaded-quiz")).toContainText("Non accettato");
    await expect(page.getByTestId("downloaded-quiz")).toContainText(reason);
  });

  test("offline, a screen opened before shows its data with their date, one never opened the offline page", async ({
    page,
    context,
  }) => {
    allowConsoleError(/ERR_INTERNET_DISCONNECTED|Failed to fetch|An unknown error occurred when fetching the script/);
    await login(page, "studente48@demo.unicum.it");
    await page.goto("/tentativi");
    await controlled(page);
    // Opened with the service worker in control: kept for this account.
    await page.goto("/tentativi");
    await expect.poll(async () => Object.values(await keptPages(page)).flat()).toContain("/tentativi");

    await context.setOffline(true);
    await page.goto("/tentativi");
    await expect(page.getByTestId("offline-banner")).toHaveText(/^Offline · dati di oggi alle \d{1,2}:\d{2}$/);
    await expect(page.getByRole("heading", { name: "Tentativi passati" })).toBeVisible();

    await page.goto("/segnalato");
    await expect(page.getByRole("heading", { name: "Sei offline" })).toBeVisible();
    await expect(page.getByRole("link", { name: "I quiz scaricati per l'offline" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Tentativi" })).toHaveAttribute("href", "/tentativi");
    await context.setOffline(false);
  });

  test("a second account on the same browser sees nothing of the first; signing out empties the device", async ({
    page,
  }) => {
    const first = await login(page, "studente49@demo.unicum.it");
    await page.goto("/test/nuovo");
    await controlled(page);
    await downloadQuiz(page);
    await page.goto("/tentativi");
    await expect.poll(async () => Object.keys(await keptPages(page))).toEqual([`unicum-pages-${first.id}`]);
    expect(await offlineDatabases(page)).toEqual([`unicum-offline-${first.id}`]);

    // Another account signs in without signing out: the first one's pages go, its quizzes stay out of sight.
    const second = await login(page, "studente50@demo.unicum.it");
    await page.goto("/test/offline");
    await expect(page.getByText("Nessun quiz scaricato su questo dispositivo.")).toBeVisible();
    await expect.poll(async () => Object.keys(await keptPages(page))).toEqual([`unicum-pages-${second.id}`]);
    const copies = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("unicum_")));
    expect(copies).not.toContain("unicum_attempts_json");

    // The first account back: its downloaded quiz is still there; signing out empties everything.
    await login(page, "studente49@demo.unicum.it");
    await page.goto("/test/nuovo");
    await expect(page.getByTestId("downloaded-quiz")).toHaveCount(1);
    await page
      .getByRole("navigation", { name: "Navigazione principale" })
      .getByRole("button", { name: "Esci" })
      .click();
    await expect(page).toHaveURL(/\/$/);
    expect(await offlineDatabases(page)).not.toContain(`unicum-offline-${first.id}`);
    expect(await keptPages(page)).toEqual({});
    const left = await page.evaluate(() => Object.keys(localStorage).filter((k) => /^unicum_|^quiz_answers_/.test(k)));
    expect(left).toEqual([]);
  });
});
