// Classes and teachers (issue 11), end to end: the teacher creates a class, a student joins through the
// link (signing in first), the teacher invites a second student by pasting an e-mail and that student accepts the
// invitation on /profilo (issue 28: nobody is enrolled by address), the teacher creates a simulation
// for the class with the picker (no id typed), starts it, the student's countdown starts, a student outside
// the class is refused, and after the end the teacher sees the class result and exports it as CSV.
// Every row is the test's own (a new class, new students, a new simulation), so a retry passes.
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "@playwright/test";
import { expect, login, passSimulationTime, subjectDeadline, test, axe } from "./fixtures";

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, email);
  return page;
}

test.describe("classes and teachers", () => {
  test("a teacher runs a class simulation without knowing any id", async ({ browser }) => {
    test.setTimeout(240_000);
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const className = `Classe e2e ${stamp}`;
    const title = `Verifica e2e ${stamp}`;

    // Two new students of our own, created by an admin.
    const admin = await signedIn(browser, "admin@example.com");
    const pupil = { name: `Ilaria Pupilla ${stamp}`, email: `pupilla-${stamp}@example.com` };
    const absentee = { name: `Zeno Assente ${stamp}`, email: `assente-${stamp}@example.com` };
    for (const u of [pupil, absentee]) {
      expect((await admin.request.post("/api/admin/users", { data: u })).ok()).toBe(true);
    }
    await admin.context().close();

    // The teacher sees only Classi and Simulazioni, and creates the class.
    const teacher = await signedIn(browser, "docente@example.com");
    await teacher.goto("/admin");
    await expect(teacher.getByRole("tablist", { name: "Sezioni" }).getByRole("tab")).toHaveText([
      "Classi",
      "Simulazioni",
      "Compiti",
    ]);
    await teacher.getByRole("button", { name: "Crea classe" }).click();
    await expect(teacher.getByRole("alert").filter({ hasText: "Il nome della classe è obbligatorio." })).toBeVisible();
    await teacher.getByLabel("Nome della classe").fill(className);
    await teacher.getByRole("button", { name: "Crea classe" }).click();
    const dialog = teacher.getByRole("dialog", { name: className });
    await expect(dialog).toBeVisible();
    const code = (await dialog.getByTestId("class-code").textContent())!.trim();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    const link = await dialog.getByTestId("class-link").inputValue();
    expect(link).toMatch(new RegExp(`/classi/unisciti/${code}$`));

    // The student opens the link signed out: sign-in first, then back to the link, then one button.
    const studentContext = await browser.newContext();
    const student = await studentContext.newPage();
    await student.goto(new URL(link).pathname);
    await expect(student).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/classi/unisciti/${code}`)}`));
    await login(student, pupil.email);
    await student.goto(new URL(link).pathname);
    await expect(student.getByText(`Il docente Anna Moretti ti invita nella classe «${className}».`)).toBeVisible();
    await student.getByRole("button", { name: "Entra nella classe" }).click();
    await expect(
      student.getByRole("status").filter({ hasText: `Ora fai parte della classe «${className}».` }),
    ).toBeVisible();
    await student.goto("/profilo");
    await expect(student.locator("#classi")).toContainText(className);

    // The teacher pastes the second student's e-mail (and one that has no account): the same answer for both.
    await dialog
      .getByLabel(/Invita studenti incollando/)
      .fill(`${absentee.name} <${absentee.email}>\nnessuno-${stamp}@example.com`);
    await dialog.getByRole("button", { name: "Invia inviti" }).click();
    await expect(
      dialog.getByRole("status").filter({ hasText: "Inviti inviati: 2 · già nella classe: 0" }),
    ).toBeVisible();
    await expect(dialog.getByRole("cell", { name: absentee.email, exact: true })).toBeVisible();
    await expect(dialog.getByRole("cell", { name: `nessuno-${stamp}@example.com`, exact: true })).toBeVisible();
    await expect(dialog.getByRole("cell", { name: absentee.name, exact: true })).toHaveCount(0);

    // The second student accepts the invitation on /profilo.
    const invited = await signedIn(browser, absentee.email);
    await invited.goto("/profilo");
    const invitations = invited.locator("#classi");
    await expect(invitations).toContainText(`Anna Moretti ti invita nella classe «${className}».`);
    await invitations.getByRole("button", { name: `Accetta: ${className}` }).click();
    await expect(
      invited.getByRole("status").filter({ hasText: `Ora fai parte della classe «${className}».` }),
    ).toBeVisible();
    await expect(invitations.getByRole("listitem").filter({ hasText: className })).toContainText(
      "Docente: Anna Moretti",
    );
    await invited.context().close();

    // The teacher's dialog (still open through ?classe=) now lists both pupils.
    await teacher.reload();
    await expect(dialog.getByRole("cell", { name: pupil.name, exact: true })).toBeVisible();
    await expect(dialog.getByRole("cell", { name: absentee.name, exact: true })).toBeVisible();
    await dialog.getByRole("button", { name: "Chiudi" }).first().click();
    await expect(teacher.getByRole("row").filter({ hasText: className })).toContainText("2");

    // A simulation for the class, with the picker: the class from the list, a student found by name
    // (then removed again with the chip's button). No id typed anywhere.
    await teacher.getByRole("tab", { name: "Simulazioni" }).click();
    await teacher.getByLabel("Titolo").fill(title);
    await teacher.getByLabel("Materia", { exact: true }).selectOption({ label: "Biologia" });
    await teacher.getByLabel("Minuti").fill("5"); // ended early by the room's clock hook, below
    await teacher.getByLabel("Domande", { exact: true }).fill("2");
    await teacher.getByLabel(new RegExp(`^${className}`)).check();
    await teacher.getByLabel("Cerca studenti (nome, username o email)").fill(pupil.name);
    await teacher.getByRole("button", { name: new RegExp(pupil.name) }).click();
    const chips = teacher.getByRole("list", { name: "Partecipanti scelti" });
    await expect(chips).toContainText(className);
    await expect(chips).toContainText(pupil.name);
    await chips.getByRole("button", { name: new RegExp(`Rimuovi ${pupil.name}`) }).click();
    await expect(chips).not.toContainText(pupil.name);
    await teacher.getByRole("button", { name: "Crea simulazione" }).click();
    await expect(teacher.getByText("Simulazione creata")).toBeVisible();
    const row = teacher.getByRole("row").filter({ hasText: title });
    await expect(row).toContainText(`Classi: ${className}`);
    const simId = (await row.getByRole("cell").first().textContent())!.trim();

    // The student waits in the room; a student outside the class is refused by the page itself.
    await student.goto(`/simulazione?id=${simId}`);
    await expect(student.getByTestId("sim-waiting")).toBeVisible();
    await expect(student.getByText(/Connessione in tempo reale assente/)).toHaveCount(0);
    const outsider = await signedIn(browser, "amico@example.com");
    const refused = await outsider.goto(`/simulazione?id=${simId}`);
    expect(refused?.status()).toBe(403);
    await expect(outsider.getByRole("alert")).toHaveText("Non sei abilitato a questa simulazione");
    await outsider.context().close();

    // The teacher starts it; the student's countdown starts.
    await row.getByRole("button", { name: "Avvia" }).click();
    await expect(row.getByRole("button", { name: "Avvia" })).toBeDisabled();
    await expect(student.getByTestId("sim-exam")).toBeVisible({ timeout: 20_000 });
    await expect(student.getByTestId("sim-subject")).toHaveText("Biologia");
    const first = await student.getByTestId("sim-countdown").textContent();
    await expect(student.getByTestId("sim-countdown")).not.toHaveText(first!);
    // One answer, acknowledged by the room.
    const options = student.getByRole("radiogroup");
    if (await options.count()) {
      await options.locator("label").first().click();
    } else {
      await student.getByLabel("Casella 1 di 16", { exact: true }).click();
      await student.keyboard.type("ATP");
    }
    await expect(student.getByTestId("sim-save-state")).toHaveText("Salvata");
    // The rest of the five minutes (and the grace) pass through the room's clock hook, an admin's call.
    const clock = await signedIn(browser, "admin@example.com");
    await passSimulationTime(clock, simId, (await subjectDeadline(student)) - Date.now() + 3000);
    await clock.context().close();

    // After the end the teacher sees the class result: the pupil ranked, the absentee listed, a CSV.
    await expect(async () => {
      await teacher.reload();
      await teacher.getByRole("tab", { name: "Simulazioni" }).click();
      await expect(teacher.getByRole("row").filter({ hasText: title })).toContainText("Conclusa", { timeout: 3_000 });
    }).toPass({ timeout: 150_000, intervals: [5_000] });
    await teacher
      .getByRole("row")
      .filter({ hasText: title })
      .getByRole("button", { name: "Risultati per classe" })
      .click();
    const results = teacher.getByRole("dialog", { name: `Risultati per classe - ${title}` });
    const block = results.getByRole("region", { name: className, exact: true });
    await expect(block).toContainText("1 partecipante su 2 studenti");
    await expect(block.getByRole("row").filter({ hasText: pupil.name })).toContainText("#1");
    await expect(block).toContainText("Media per materia (0-31)");
    await expect(block.getByRole("row").filter({ hasText: "Biologia" })).toBeVisible();
    await expect(block.locator("li").filter({ hasText: absentee.name })).toBeVisible();
    const download = teacher.waitForEvent("download");
    await block.getByRole("button", { name: "Esporta CSV" }).click();
    const file = await (await download).path();
    const csv = await readFile(file!, "utf8");
    expect(csv).toContain("Posizione,Studente,Email,Presente");
    expect(csv).toContain(`1,${pupil.name},${pupil.email},sì`);
    expect(csv).toContain(`,${absentee.name},${absentee.email},no`);
    const scan = await axe(teacher).include(".modal__card").analyze();
    expect(scan.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);

    await studentContext.close();
    await teacher.context().close();
  });

  test("a student joins with the code in /profilo, sees the class and its teacher, and leaves it", async ({
    browser,
    page,
  }) => {
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const className = `Classe profilo ${stamp}`;
    const teacher = await signedIn(browser, "docente@example.com");
    const created = await teacher.request.post("/api/classes", { data: { name: className } });
    expect(created.status()).toBe(201);
    const { code } = (await created.json()) as { code: string };
    await teacher.context().close();
    const admin = await signedIn(browser, "admin@example.com");
    const email = `profilo-${stamp}@example.com`;
    expect(
      (await admin.request.post("/api/admin/users", { data: { name: `Paola Profilo ${stamp}`, email } })).ok(),
    ).toBe(true);
    await admin.context().close();

    await login(page, email);
    await page.goto("/profilo");
    const section = page.locator("#classi");
    await expect(section).toContainText("Non fai parte di nessuna classe.");
    await section.getByLabel("Codice classe").fill("ZZZZZZZZZZ");
    await section.getByRole("button", { name: "Entra con il codice" }).click();
    await expect(section.getByRole("alert")).toContainText("Nessuna classe con questo codice");
    // Typed in pieces and lowercase, as a code read aloud often is.
    await section.getByLabel("Codice classe").fill(`${code.slice(0, 3).toLowerCase()} ${code.slice(3).toLowerCase()}`);
    await section.getByRole("button", { name: "Entra con il codice" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: `Ora fai parte della classe «${className}».` }),
    ).toBeVisible();
    await expect(section.getByRole("listitem").filter({ hasText: className })).toContainText("Docente: Anna Moretti");
    await section.getByRole("button", { name: `Esci dalla classe ${className}` }).click();
    await expect(section).toContainText("Non fai parte di nessuna classe.");
  });
});
