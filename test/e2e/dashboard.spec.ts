import { endFriendships, expect, login, test, axe } from "./fixtures";

test.describe("student analytics dashboard", () => {
  test("the demo student sees the KPI cards, small cards, and line, area and bar charts with data", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Ciao, Giulia" })).toBeVisible();
    await expect(page.getByText("Variazione mese:")).toBeVisible();
    await expect(page.getByTestId("month-change")).toHaveText(/^[+-]?\d+(,\d)?%$|^—$/);
    for (const title of [
      "Livello di preparazione",
      "Punt. medio & mediana",
      "Accuratezza & tempo",
      "Copertura argomenti",
      "Ultima simulazione",
      "Momentum (ultimi 3)",
    ]) {
      await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
    }
    await expect(page.locator("[data-tour=preparation] .kpi__value")).toHaveText(/^\d+%$/);
    await expect(page.locator("[data-tour=average] .kpi__value")).toHaveText(/^\d+(,\d)? \/ 31$/);
    await expect(page.locator("[data-tour=coverage]")).toContainText(/\d+\/\d+ coperti/);

    // Line chart: the student's series with several points.
    const trend = page.getByTestId("chart-trend");
    await expect(trend.locator("path.chart-line[data-series=you]")).toHaveAttribute("d", /^M.+C.+/);
    await expect.poll(() => trend.locator("circle.chart-dot").count()).toBeGreaterThan(2);
    // Area chart with percentile lines and the rank sentence.
    const dist = page.getByTestId("chart-distribution");
    await expect(dist.locator(".chart-area path").first()).toHaveAttribute("d", /^M.+/);
    await expect(dist.locator("[data-marker=p80]")).toBeVisible();
    await expect(page.getByTestId("rank")).toHaveText(/^Tu sopra al \d+% degli studenti$/);
    // Bar charts: the comparison of means and the topic accuracy, with non-empty bars.
    const bars = page.getByTestId("chart-compare").locator("rect.chart-bar");
    await expect(bars).toHaveCount(3);
    expect(Number(await bars.first().getAttribute("height"))).toBeGreaterThan(10);
    await expect
      .poll(() => page.getByTestId("chart-topics").locator("rect.chart-hbar").count())
      .toBeGreaterThanOrEqual(6);
    // Labels are cut to 24 characters.
    for (const label of await page.getByTestId("chart-topics").locator("text").allTextContents()) {
      expect(label.length).toBeLessThanOrEqual(24);
    }

    // Suggestions link to a targeted test.
    const review = page.getByRole("link", { name: /^Ripasso mirato/ }).first();
    await expect(review).toHaveAttribute("href", /^\/test\/nuovo\?subject=\d+&topic=\d+$/);
    await expect(page.getByText(/Argomenti sotto il 60%:/)).toBeVisible();
    await expect(page.getByText(/Minuti di studio negli ultimi 7 giorni:/)).toBeVisible();

    const scan = await axe(page).analyze();
    const serious = scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    // No hydration mismatch or script error.
    expect(errors).toEqual([]);
  });

  test("the sub-topic picker resets to all topics when the subject changes", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    const subject = page.getByLabel("Materia");
    const topic = page.getByLabel("Sotto-argomento");
    await subject.selectOption({ label: "Biologia" });
    await expect(topic.locator("option").first()).toHaveText("Tutti i sotto-argomenti");
    await topic.selectOption({ label: "Caratteristiche dei viventi, procarioti ed eucarioti" });
    await expect(topic).toHaveValue("101");
    // Filtered: only that topic's bars.
    await expect(
      page.getByTestId("chart-topics").locator("svg[role=img] text", { hasText: "Biomolecole" }),
    ).toHaveCount(0);
    await subject.selectOption({ label: "Chimica" });
    await expect(topic).toHaveValue("");
    await expect(topic.locator("option:checked")).toHaveText("Tutti i sotto-argomenti");
    // Every Chimica topic is shown again (a stale topic filter would show none).
    await expect(
      page.getByTestId("chart-topics").locator("svg[role=img] text", { hasText: "Legami chimici" }),
    ).toHaveCount(1);
    await expect(
      page.getByTestId("chart-topics").locator("svg[role=img] text", { hasText: "Termodinamica chimica" }),
    ).toHaveCount(1);
    await expect(topic.locator("option", { hasText: "Legami chimici" })).toHaveCount(1);
    await expect(topic.locator("option", { hasText: "Caratteristiche dei viventi" })).toHaveCount(0);
  });

  test("accuracy and suggestions switch from topics to syllabus units", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await page.getByLabel("Materia", { exact: true }).selectOption({ label: "Chimica" });
    await expect(page.getByRole("heading", { name: "Accuratezza per argomento" })).toBeVisible();
    await page.getByRole("button", { name: "Unità del syllabus" }).click();
    await expect(page.getByRole("button", { name: "Unità del syllabus" })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("heading", { name: "Accuratezza per unità" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Suggeriti da ripassare (per unità)" })).toBeVisible();
    // One bar per Chimica unit of the default edition (7 in 2026/27), labelled "U<n> · title".
    await expect
      .poll(() => page.getByTestId("chart-topics").locator("rect.chart-hbar").count())
      .toBeGreaterThanOrEqual(7);
    await expect(page.getByTestId("chart-topics").locator("svg[role=img] text", { hasText: /^U1 · / })).toHaveCount(1);
    // Matematica has no units: no switch, topics only.
    await page.getByLabel("Materia", { exact: true }).selectOption({ label: "Matematica" });
    await expect(page.getByRole("button", { name: "Unità del syllabus" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Accuratezza per argomento" })).toBeVisible();
  });

  test("the tour opens with 'Guida', moves with the arrow keys, ends on 'Fine' and closes with Escape", async ({
    page,
  }) => {
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await expect(page.getByTestId("chart-trend")).toBeVisible();
    await page.getByRole("button", { name: "Guida" }).click();
    const popover = page.getByRole("dialog", { name: "Materia e sotto-argomento" });
    await expect(popover).toBeVisible();
    await expect(popover).toContainText("Passo 1 di 10");
    expect(Math.round((await popover.boundingBox())!.width)).toBe(340);
    // driver.js ignores keys while it moves to a target: press again only if still on the step before.
    const progress = page.locator(".driver-popover-progress-text");
    const press = async (key: "ArrowRight" | "ArrowLeft", from: number, to: number) => {
      await expect(async () => {
        if ((await progress.textContent()) === `Passo ${from} di 10`) await page.keyboard.press(key);
        await expect(progress).toHaveText(`Passo ${to} di 10`, { timeout: 1000 });
      }).toPass({ timeout: 10_000 });
    };
    await press("ArrowRight", 1, 2);
    await expect(page.getByRole("dialog", { name: "Livello di preparazione" })).toContainText("Passo 2 di 10");
    await press("ArrowLeft", 2, 1);
    await expect(page.getByRole("dialog", { name: "Materia e sotto-argomento" })).toBeVisible();
    for (let step = 2; step <= 10; step++) await press("ArrowRight", step - 1, step);
    const last = page.getByRole("dialog", { name: "Accuratezza per argomento" });
    await expect(last).toContainText("Passo 10 di 10");
    await expect(last.getByRole("button", { name: "Fine" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.locator(".driver-popover")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Guida" })).toBeFocused();
  });

  test("the comparison toggle shows the friend's series in the peer colour", async ({ page }) => {
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    await page.getByLabel("Materia").selectOption({ label: "Fisica" });
    await expect(page.getByTestId("chart-compare").locator("rect[data-bar=friend]")).toHaveCount(0);
    await page.getByLabel(/Confronta con Marco Bianchi/).check();
    const friendBar = page.getByTestId("chart-compare").locator("rect[data-bar=friend]");
    await expect(friendBar).toHaveCount(1);
    await expect(friendBar).toHaveAttribute("fill", "#8b8cff");
    await expect(page.getByTestId("chart-topics").locator("rect[data-bar=friend]").first()).toHaveAttribute(
      "fill",
      "#8b8cff",
    );
    await expect(page.getByTestId("chart-trend").getByText("Marco Bianchi")).toBeVisible();
  });

  test("with several friends, a picker chooses whom to compare with", async ({ page }) => {
    for (const who of ["studente04", "studente05", "studente03"]) {
      await login(page, `${who}@demo.unicum.it`);
      await endFriendships(page); // a retry starts from none, whatever step the failed run reached
    }
    for (const handle of ["studente04", "studente05"]) {
      expect((await page.request.post("/api/friends", { data: { handle } })).status()).toBe(201);
    }
    const names: string[] = [];
    for (const email of ["studente04@demo.unicum.it", "studente05@demo.unicum.it"]) {
      const me = await login(page, email);
      names.push(me.name);
      const { incoming } = await (await page.request.get("/api/friends")).json();
      expect((await page.request.post(`/api/friends/${incoming[0].friendshipId}/accept`)).status()).toBe(200);
    }
    await login(page, "studente03@demo.unicum.it");
    try {
      await page.goto("/dashboard");
      const picker = page.getByRole("combobox", { name: /^Amico/ });
      await expect(picker.locator("option")).toHaveCount(2);
      await page.getByLabel("Confronta con un amico").check();
      await picker.selectOption({ label: names[1]! });
      await expect(page.getByTestId("chart-topics").getByText(names[1]!)).toBeVisible();
      await picker.selectOption({ label: names[0]! });
      await expect(page.getByTestId("chart-topics").getByText(names[0]!)).toBeVisible();
      await expect(page.getByTestId("chart-compare").locator("rect[data-bar=friend]")).toHaveCount(1);
    } finally {
      await endFriendships(page);
    }
  });

  test("at 375 px the charts fit the screen", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await login(page, "studente@example.com");
    await page.goto("/dashboard");
    for (const id of ["chart-trend", "chart-distribution", "chart-compare", "chart-topics"]) {
      const svg = page.getByTestId(id).locator("svg[role=img]");
      await expect(svg).toBeVisible();
      const box = (await svg.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
