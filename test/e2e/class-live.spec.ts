// The teacher's live view of a class simulation (issue 32, "Done when"): two pupils connect and answer in the browser
// while their teacher watches /admin/simulazioni/:id/diretta; two more answer over HTTP. After the first subject
// (1 minute, passed through the room's clock hook as in simulation-day.spec.ts instead of waited for: issue 33) the
// view shows only the top 3 until the teacher asks for the whole class. The view and the class's progress page are
// axe-clean, the progress page on a phone too.
import type { Browser, Page } from "@playwright/test";
import { expect, login, passSimulationTime, subjectDeadline, test, axe } from "./fixtures";

const Q1 = 2001; // Chimica, multiple choice
const Q2 = 2002; // Chimica, multiple choice
const Q3 = 2003;

async function signedIn(browser: Browser, email: string) {
  const page = await (await browser.newContext()).newPage();
  const user = await login(page, email);
  return { page, user };
}

async function noSeriousViolations(page: Page) {
  const results = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
  expect(serious).toEqual([]);
}

test.describe("the teacher's live view", () => {
  test("two pupils connect and answer; after the first subject only the top 3, then the whole class on request", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const { page: admin } = await signedIn(browser, "admin@example.com");
    const people = {
      teacher: { name: `Tea Diretta ${stamp}`, email: `docente-diretta-${stamp}@example.com`, role: "docente" },
      a: { name: `Aldo Primo ${stamp}`, email: `aldo-diretta-${stamp}@example.com` },
      b: { name: `Bice Terza ${stamp}`, email: `bice-diretta-${stamp}@example.com` },
      c: { name: `Ciro Secondo ${stamp}`, email: `ciro-diretta-${stamp}@example.com` },
      d: { name: `Dora Quarta ${stamp}`, email: `dora-diretta-${stamp}@example.com` },
    };
    for (const u of Object.values(people))
      expect((await admin.request.post("/api/admin/users", { data: u })).ok()).toBe(true);
    // The editor's lookup lists the correct option first.
    const options = async (id: number) =>
      ((await (await admin.request.get(`/api/admin/questions/${id}`)).json()) as { options: { text: string }[] })
        .options;
    const [o1, o2] = [await options(Q1), await options(Q2)];

    const { page: teacher } = await signedIn(browser, people.teacher.email);
    const cls = (await (await teacher.request.post("/api/classes", { data: { name: `Diretta ${stamp}` } })).json()) as {
      id: number;
      code: string;
    };
    const pupils = {
      a: await signedIn(browser, people.a.email),
      b: await signedIn(browser, people.b.email),
      c: await signedIn(browser, people.c.email),
      d: await signedIn(browser, people.d.email),
    };
    for (const { page } of Object.values(pupils))
      expect((await page.request.post("/api/classes/join", { data: { code: cls.code } })).ok()).toBe(true);

    const simId = `diretta-${stamp}`;
    const saved = await teacher.request.post("/api/admin/simulations", {
      data: {
        id: simId,
        title: `Diretta ${stamp}`,
        subjects: [
          { subjectId: 2, timeMin: 1, questions: [Q1, Q2] },
          { subjectId: 2, timeMin: 1, questions: [Q3] },
        ],
        allowedClasses: [cls.id],
      },
    });
    expect(saved.status()).toBe(201);

    // The teacher opens the live view from the Simulazioni tab once started; here, straight away: waiting.
    await teacher.goto(`/admin/simulazioni/${simId}/diretta`);
    await expect(teacher.getByTestId("live-phase")).toHaveText("In attesa dell'avvio");
    await expect(teacher.getByTestId("live-connection")).toHaveText("Aggiornamento in tempo reale attivo");
    const row = (key: keyof typeof pupils) => teacher.getByTestId(`live-pupil-${pupils[key].user.id}`);
    await expect(row("a")).toHaveAttribute("data-status", "assente");

    // Two pupils connect: the teacher sees them without reloading.
    for (const key of ["a", "b"] as const) {
      await pupils[key].page.goto(`/simulazione?id=${simId}`);
      await expect(pupils[key].page.getByTestId("sim-waiting")).toBeVisible();
      await expect(row(key)).toHaveAttribute("data-status", "connesso");
      await expect(row(key)).toContainText("Connesso");
    }
    await expect(row("c")).toHaveAttribute("data-status", "assente");

    expect((await teacher.request.post(`/api/admin/simulations/${simId}/start`)).status()).toBe(200);
    await expect(teacher.getByTestId("live-phase")).toHaveText(/In corso: Chimica/, { timeout: 20_000 });
    await expect(teacher.getByTestId("live-countdown")).toHaveText(/^0[01]:\d\d$/);

    // A answers Q1 right, B wrong, in their own order on the page.
    const answer = async (key: "a" | "b", text: string) => {
      const page = pupils[key].page;
      await expect(page.getByTestId("sim-exam")).toBeVisible({ timeout: 20_000 });
      const view = (await (await page.request.get(`/api/simulations/${simId}`)).json()) as {
        flow: { questions: { id: number }[] }[];
      };
      const position = view.flow[0]!.questions.findIndex((q) => q.id === Q1) + 1;
      await page.getByRole("button", { name: new RegExp(`^Domanda ${position}(,|$)`) }).click();
      const option = page
        .getByRole("radiogroup")
        .locator("label")
        .filter({ has: page.getByText(text, { exact: true }) });
      await option.click();
      await expect(page.getByTestId("sim-save-state")).toHaveText("Salvata");
    };
    await answer("a", o1[0]!.text);
    await expect(row("a")).toHaveAttribute("data-status", "risponde");
    await expect(teacher.getByTestId(`live-answered-${pupils.a.user.id}`)).toHaveText("1 / 2");
    await answer("b", o1[1]!.text);
    await expect(row("b")).toHaveAttribute("data-status", "risponde");
    // While it runs the view shows counts only: no option text reaches the teacher's page.
    await expect(teacher.getByText(o1[0]!.text, { exact: true })).toHaveCount(0);

    // Two more pupils answer over HTTP (the runner's fallback): C one right, D one wrong; A and B answer Q2 right.
    const save = async (key: keyof typeof pupils, answers: Record<string, string>) => {
      const response = await pupils[key].page.request.post(`/api/simulations/${simId}/attempt`, {
        data: { answers: { "2": answers }, timeTaken: 0 },
      });
      expect(response.ok(), await response.text()).toBe(true);
    };
    await save("c", { [Q1]: o1[0]!.text });
    await save("d", { [Q1]: o1[1]!.text });
    await save("a", { [Q2]: o2[0]!.text });
    await save("b", { [Q2]: o2[0]!.text });
    await expect(teacher.getByTestId(`live-answered-${pupils.a.user.id}`)).toHaveText("2 / 2");
    await expect(row("c")).toHaveAttribute("data-status", "assente");
    await noSeriousViolations(teacher);

    // Chimica closes for everybody: A 31, C 16, B 15, D 0; the top 3 only. The rest of its minute passes through the
    // room's clock hook (an admin's call): its deadline a second ago, the room closes it once the grace is over.
    await passSimulationTime(admin, simId, (await subjectDeadline(pupils.a.page)) - Date.now() + 1000);
    const board = teacher.getByTestId("live-leaderboard");
    await expect(board.getByRole("heading", { name: "Classifica dopo Chimica" })).toBeVisible({ timeout: 30_000 });
    await expect(board.getByRole("row")).toHaveCount(4);
    await expect(board.getByRole("row").nth(1)).toContainText(people.a.name);
    await expect(board.getByRole("row").nth(1)).toContainText("#1");
    await expect(board.getByRole("row").nth(2)).toContainText(people.c.name);
    await expect(board.getByRole("row").nth(3)).toContainText(people.b.name);
    await expect(board.getByText(people.d.name)).toHaveCount(0);
    await board.getByRole("button", { name: "Mostra tutta la classe" }).click();
    await expect(board.getByRole("row")).toHaveCount(5);
    await expect(board.getByRole("row").nth(4)).toContainText(people.d.name);
    await board.getByRole("button", { name: "Mostra solo i primi 3" }).click();
    await expect(board.getByRole("row")).toHaveCount(4);
    await expect(teacher.getByTestId("live-phase")).toHaveText(/In corso: Chimica/);
    await noSeriousViolations(teacher);

    // Another teacher cannot open it.
    const { page: other } = await signedIn(browser, "docente@example.com");
    expect((await other.request.get(`/admin/simulazioni/${simId}/diretta`)).status()).toBe(403);

    // The class's progress page, axe-clean, readable on a phone.
    await teacher.goto(`/admin/classi/${cls.id}/progressi`);
    await expect(teacher.getByRole("heading", { name: `Progressi della classe «Diretta ${stamp}»` })).toBeVisible();
    await expect(teacher.getByTestId(`pupil-${pupils.a.user.id}`)).toContainText(people.a.name);
    await noSeriousViolations(teacher);
    await teacher.setViewportSize({ width: 375, height: 800 });
    await teacher.reload();
    await expect(teacher.getByTestId("class-progress-units")).toBeVisible();
    const overflow = await teacher.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await noSeriousViolations(teacher);
    for (const page of [admin, teacher, other, ...Object.values(pupils).map((p) => p.page)])
      await page.context().close();
  });
});
