// Issue 33, point 2: on a phone the first screenful (the greeting and the next sitting, the Nuovo test form, the
// quiz's first question) is drawn from the HTML before any other file arrives. Each stylesheet <link> in the head
// blocked that paint for a round trip and shared the slow link with the JavaScript, so the page's styles come inside
// its HTML (app/components/PageStyles.tsx); a route reached later by a client-side navigation still gets its own.
import type { Page } from "@playwright/test";
import { expect, login, test } from "./fixtures";

/** The theme's colours (app/app.css): --bg and --surface. */
const BG = "rgb(20, 21, 24)";
const SURFACE = "rgb(31, 33, 38)";

const backgroundOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

test("the landing, the dashboard, Nuovo test and a started quiz are drawn styled from their HTML alone", async ({
  page,
  browser,
}) => {
  await login(page, "studente@example.com");
  const quiz = (await (await page.request.get("/api/quiz?subjectId=1&count=10")).json()) as {
    quizId: number;
    questions: { question_text: string }[];
  };
  // Each page's HTML as the server sends it, in a page that fetches nothing else: no script runs, and as the
  // document has no address of ours (about:blank), no stylesheet or script of /assets can load.
  const bare = await browser.newContext({ javaScriptEnabled: false });
  const htmlOnly = await bare.newPage();
  const open = async (path: string) => {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
    await htmlOnly.setContent(await response.text());
    await expect(htmlOnly.locator("head link[rel=stylesheet]"), `${path}: no stylesheet blocks the paint`).toHaveCount(
      0,
    );
    expect(await backgroundOf(htmlOnly, "body"), `${path}: the dark theme`).toBe(BG);
  };

  await open("/");
  await expect(htmlOnly.getByRole("heading", { level: 1 })).toBeVisible();

  await open("/dashboard");
  await expect(htmlOnly.getByRole("heading", { name: "Ciao, Giulia" })).toBeVisible();
  await expect(htmlOnly.getByTestId("next-sitting")).toBeVisible();
  // The side navigation has its width and the page its padding: the shell's layout, not the browser's defaults.
  expect(await htmlOnly.locator(".app-main").evaluate((el) => getComputedStyle(el).paddingTop)).not.toBe("0px");

  await open("/test/nuovo");
  await expect(htmlOnly.getByRole("heading", { name: "Nuovo test" })).toBeVisible();
  expect(await backgroundOf(htmlOnly, ".practice-card"), "the form's card (quiz.css)").toBe(SURFACE);

  await open(`/test?id=${quiz.quizId}`);
  await expect(htmlOnly.locator("#question-text")).toHaveText(quiz.questions[0]!.question_text);
  expect(await backgroundOf(htmlOnly, ".question-card"), "the question's card (quiz.css)").toBe(SURFACE);
  await bare.close();
});

test("a screen reached by the side navigation gets its own styles, and the first screen keeps its own", async ({
  page,
}) => {
  await login(page, "studente@example.com");
  await page.goto("/dashboard");
  const nav = page.getByRole("navigation", { name: "Navigazione principale" });
  await nav.getByRole("link", { name: "Nuovo test", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Nuovo test" })).toBeVisible();
  await expect
    .poll(() => backgroundOf(page, ".practice-card"), { message: "quiz.css after a navigation" })
    .toBe(SURFACE);
  await nav.getByRole("link", { name: "Dashboard", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Ciao, Giulia" })).toBeVisible();
  await expect
    .poll(() => backgroundOf(page, ".dash__filters"), { message: "dashboard.css after coming back" })
    .toBe(SURFACE);
  expect(await backgroundOf(page, "body")).toBe(BG);
});

// Issue 47, point 4: the files whose functions nearly all run before a page is usable start with V8's compile hint
// (scripts/vite-compile-hints.ts), so a phone compiles them while they download instead of at hydration; a part loaded
// later (the dashboard's charts) is compiled lazily as before.
test("the scripts that hydrate a screen are compiled as they download, the charts are not", async ({ page }) => {
  const HINT = "//# allFunctionsCalledOnLoad\n";
  await login(page, "studente@example.com");
  const startsWithHint = async (href: string) => (await (await page.request.get(href)).text()).startsWith(HINT);
  for (const [path, screen] of [
    ["/dashboard", "dashboard"],
    ["/test/nuovo", "test.nuovo"],
  ] as const) {
    const html = await (await page.request.get(path)).text();
    const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!);
    for (const name of ["entry.client", "framework", "shell", screen]) {
      const href = preloads.find((h) => new RegExp(`/assets/${name.replace(".", "\\.")}-[\\w-]+\\.js$`).test(h));
      expect(href, `${path} preloads its ${name} file`).toBeTruthy();
      expect(await startsWithHint(href!), `${href} carries the hint`).toBe(true);
    }
  }
  await page.goto("/dashboard");
  const charts = await page.waitForFunction(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => e.name)
      .find((n) => /\/assets\/charts\.impl-[\w-]+\.js$/.test(n)),
  );
  const chartsUrl = await charts.jsonValue();
  expect(chartsUrl, "the dashboard loads its charts").toBeTruthy();
  expect(await startsWithHint(new URL(chartsUrl!).pathname), "the lazy charts file").toBe(false);
});

// A build's files are named by their content, so a browser keeps them without asking again (public/_headers); the
// page, the service worker and the files without a hash in their name are asked for again at each visit.
test("a build's hashed files are kept a year, the page and the service worker are asked for again", async ({
  page,
}) => {
  await login(page, "studente@example.com");
  const html = await (await page.request.get("/dashboard")).text();
  const framework = html.match(/<link rel="modulepreload" href="(\/assets\/framework-[\w-]+\.js)"/)?.[1];
  expect(framework, "the dashboard preloads the framework").toBeTruthy();
  const asset = await page.request.get(framework!);
  expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(asset.headers()["x-content-type-options"], "the security headers still apply").toBe("nosniff");
  for (const path of ["/dashboard", "/sw.js", "/favicon.svg", "/consent.js"])
    expect((await page.request.get(path)).headers()["cache-control"] ?? "", path).not.toContain("immutable");
});
