// The exam day as the real one (issue 29, point 3, "Done when"): a teacher's class simulation from the default
// edition's template (Chimica → Fisica → Biologia, full papers, the edition's real minutes; no breaks), two pupils,
// one with +30 % set by the teacher in the class dialog: different question orders, the +30 % pupil's deadline later
// by 30 % of the subject's minutes and an answer of theirs taken after the other's subject closed, both graded right,
// grades out of 30 on the result. The minutes pass through the room's clock hook (POST
// /api/admin/simulations/{id}/clock, development only: the start moves back, the room tells the candidates), so the
// day takes seconds instead of the 4 minutes that 1-minute subjects waited (issue 33).
import type { Browser, Page } from "@playwright/test";
import { expect, login, passSimulationTime, test } from "./fixtures";

async function signedIn(browser: Browser, email: string) {
  const page = await (await browser.newContext()).newPage();
  const user = await login(page, email);
  return { page, user };
}

type View = { extraTimePct: number; flow: { id: number; questions: { id: number; type: string; text: string }[] }[] };

test.describe("the exam day", () => {
  test("a class simulation from the template: own orders, +30 % deadline, both graded out of 30", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;

    // A teacher and two pupils of our own, created by an admin (a retry makes new ones).
    const { page: admin } = await signedIn(browser, "admin@example.com");
    const people = {
      teacher: { name: `Tina Docente ${stamp}`, email: `docente-giorno-${stamp}@example.com`, role: "docente" },
      a: { name: `Aldo Puntuale ${stamp}`, email: `aldo-${stamp}@example.com` },
      b: { name: `Bice Tempo ${stamp}`, email: `bice-${stamp}@example.com` },
    };
    for (const u of Object.values(people))
      expect((await admin.request.post("/api/admin/users", { data: u })).ok()).toBe(true);

    const { page: teacher } = await signedIn(browser, people.teacher.email);
    const created = await teacher.request.post("/api/classes", { data: { name: `Giorno ${stamp}` } });
    expect(created.status()).toBe(201);
    const cls = (await created.json()) as { id: number; code: string };
    const { page: pageA, user: userA } = await signedIn(browser, people.a.email);
    const { page: pageB, user: userB } = await signedIn(browser, people.b.email);
    for (const page of [pageA, pageB])
      expect((await page.request.post("/api/classes/join", { data: { code: cls.code } })).ok()).toBe(true);

    // The teacher gives B +30 % (DSA) in the class dialog.
    await teacher.goto(`/admin/classi?classe=${cls.id}`);
    const extra = teacher.getByTestId(`extra-time-${userB.id}`);
    await extra.getByRole("combobox").selectOption({ label: "+30 % (DSA)" });
    await extra.getByRole("button", { name: "Salva" }).click();
    await expect(teacher.getByText(`Tempo aggiuntivo di ${people.b.name}: +30 %`)).toBeVisible();

    // The simulation from the template: the default edition's day and minutes, no breaks.
    const { editions } = (await (await teacher.request.get("/api/exam-editions")).json()) as {
      editions: {
        isDefault: boolean;
        format: { questionTotal: number; subjects: { subjectId: number; minutes: number }[] };
      }[];
    };
    const edition = editions.find((e) => e.isDefault)!;
    const minutes = edition.format.subjects.map((s) => s.minutes);
    const MIN = 60_000;
    const simId = `giorno-${stamp}`;
    const saved = await teacher.request.post("/api/admin/simulations", {
      data: {
        id: simId,
        title: `Semestre filtro ${stamp}`,
        subjects: edition.format.subjects.map((s) => ({
          subjectId: s.subjectId,
          timeMin: s.minutes,
          questionCount: edition.format.questionTotal,
          breakAfterMin: 0,
        })),
        allowedClasses: [cls.id],
      },
    });
    expect(saved.status()).toBe(201);

    for (const page of [pageA, pageB]) {
      await page.goto(`/simulazione?id=${simId}`);
      await expect(page.getByTestId("sim-waiting")).toBeVisible();
      await expect(page.getByText(/Connessione in tempo reale assente/)).toHaveCount(0);
    }
    await expect(pageB.getByTestId("sim-extra-time")).toHaveText("Tempo aggiuntivo: +30 %");
    const started = await teacher.request.post(`/api/admin/simulations/${simId}/start`);
    expect(started.status()).toBe(200);
    let { startTime } = (await started.json()) as { startTime: number };
    /** Moves the clock so that `at` ms of the day have passed (the device's clock is the server's here). */
    const passTo = async (at: number) => {
      startTime = await passSimulationTime(admin, simId, at - (Date.now() - startTime));
    };
    for (const page of [pageA, pageB]) {
      await expect(page.getByTestId("sim-exam")).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId("sim-subject")).toHaveText("Chimica");
    }

    // B's Chimica ends 30 % of its minutes after A's (45′ → 13′30″).
    const extraOf = (m: number) => Math.round((m * MIN * 30) / 100);
    const deadline = async (page: Page) => Number(await page.getByTestId("sim-exam").getAttribute("data-deadline"));
    expect((await deadline(pageB)) - (await deadline(pageA))).toBe(extraOf(minutes[0]!));

    // Each candidate has their own order (and the page shows it); the same on a reload.
    const view = async (page: Page) => (await (await page.request.get(`/api/simulations/${simId}`)).json()) as View;
    const [viewA, viewB] = [await view(pageA), await view(pageB)];
    const order = (v: View) => v.flow[0]!.questions.map((q) => q.id);
    expect(order(viewA)).toHaveLength(edition.format.questionTotal);
    expect(order(viewA)).not.toEqual(order(viewB));
    expect([...order(viewA)].sort()).toEqual([...order(viewB)].sort());
    await expect(pageA.locator("#sim-question-text")).toHaveText(viewA.flow[0]!.questions[0]!.text);
    await expect(pageB.locator("#sim-question-text")).toHaveText(viewB.flow[0]!.questions[0]!.text);
    await pageA.reload();
    await expect(pageA.locator("#sim-question-text")).toHaveText(viewA.flow[0]!.questions[0]!.text);
    expect(order(await view(pageA))).toEqual(order(viewA));

    // One multiple-choice question: A answers it right now, B answers it wrong after A's Chimica has closed.
    const mc = viewA.flow[0]!.questions.find((q) => q.type === "mc")!;
    // The editor's lookup lists the correct option first.
    const key = (await (await admin.request.get(`/api/admin/questions/${mc.id}`)).json()) as {
      options: { text: string }[];
    };
    const right = key.options[0]!.text;
    const wrong = key.options[1]!.text;
    const answer = async (page: Page, v: View, text: string) => {
      const position = v.flow[0]!.questions.findIndex((q) => q.id === mc.id);
      await page.getByRole("button", { name: new RegExp(`^Domanda ${position + 1}(,|$)`) }).click();
      // The option's label is its letter (the candidate's order) and its text.
      const option = page
        .getByRole("radiogroup")
        .locator("label")
        .filter({ has: page.getByText(text, { exact: true }) });
      await option.click({ timeout: 10_000 });
      await expect(option.getByRole("radio")).toBeChecked();
      await expect(page.getByTestId("sim-save-state")).toHaveText("Salvata");
    };
    await answer(pageA, viewA, right);
    // A's Chimica is over (a second past its minutes), B's still runs.
    await passTo(minutes[0]! * MIN + 1000);
    await expect(pageA.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", "1");
    await expect(pageB.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", "0");
    await answer(pageB, viewB, wrong);
    await passTo(minutes[0]! * MIN + extraOf(minutes[0]!) + 1000);
    await expect(pageB.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", "1");

    // A finishes first and waits for B; both see their result with grades out of 30.
    const day = minutes.reduce((sum, m) => sum + m * MIN, 0);
    await passTo(day + 1000);
    await expect(pageA.getByText(/Risposte consegnate/)).toBeVisible({ timeout: 30_000 });
    // A waits with the sitting's stored end in view (its latest candidate's: B's, +30 %).
    await expect(pageA.getByTestId("sim-sitting-end")).toContainText("La prova termina per tutti il");
    await expect(pageB.getByTestId("sim-exam")).toHaveAttribute("data-subject-index", String(minutes.length - 1));
    await passTo(day + minutes.reduce((sum, m) => sum + extraOf(m), 0) + 3000);
    for (const page of [pageA, pageB])
      await expect(page.getByRole("heading", { name: "Risultato simulazione" })).toBeVisible({ timeout: 30_000 });
    const grades = async (page: Page) => page.getByTestId("sim-grade").allTextContents();
    // Chimica: A 1 right (1/31 of the paper → 1/30), B 1 wrong (−0,1 → 0); nothing else answered.
    expect(await grades(pageA)).toEqual(["1/30 — non superato", "0/30 — non superato", "0/30 — non superato"]);
    expect(await grades(pageB)).toEqual(["0/30 — non superato", "0/30 — non superato", "0/30 — non superato"]);
    const rowA = pageA.getByRole("row", { name: /Chimica/ });
    await expect(rowA).toContainText("3%");
    // An edition's day reads as the real one (issue 44): each exam on /30 and the section, never a score on 31.
    await expect(rowA).toContainText("1/30 — non superato");
    await expect(rowA).not.toContainText("/31");
    await expect(pageA.getByTestId("sim-section")).toHaveText("Sezione 0");
    await expect(pageB.getByRole("row", { name: /Chimica/ })).toContainText("0%");

    // The teacher's results: both attempts; B's time includes the extra 30 % of each subject.
    const attempts = (await (await teacher.request.get(`/api/admin/simulations/${simId}/attempts`)).json()) as {
      userId: number;
      timeSec: number;
    }[];
    expect(attempts.map((a) => a.userId).sort()).toEqual([userA.id, userB.id].sort());
    // The result names the edition; the teacher's class results carry the grades out of 30 too.
    await expect(pageA.getByTestId("sim-edition")).toContainText("Semestre filtro 2026/27");
    const byClass = (await (await teacher.request.get(`/api/admin/simulations/${simId}/classes`)).json()) as {
      classes: { ranking: { userId: number; subjects: { grade?: { text: string } }[] }[] }[];
    };
    const gradesOf = (userId: number) =>
      byClass.classes
        .flatMap((c) => c.ranking.filter((r) => r.userId === userId))
        .flatMap((r) => r.subjects.map((x) => x.grade?.text));
    expect(gradesOf(userA.id)).toEqual(["1/30 — non superato", "0/30 — non superato", "0/30 — non superato"]);
    for (const page of [admin, teacher, pageA, pageB]) await page.context().close();
  });
});
