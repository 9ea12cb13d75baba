// Sealed questions on screen: while a simulation is running (for every account, in its audience or not), the
// summary of an earlier attempt hides the solution and the student's answer of its questions ('Soluzione
// nascosta'), keeps the others, and says that its result is partial.
// A student made for this test (a retry makes another), so the demo accounts are never sealed.
import { expect, login, test } from "./fixtures";

test("a past summary hides the solution of a running simulation's questions and shows the rest", async ({
  page,
  browser,
}) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await login(admin, "admin@example.com");
  const email = `sigillo.e2e.${Date.now()}@example.com`;
  const made = await admin.request.post("/api/admin/users", { data: { name: "Sigillo Prova", email } });
  expect(made.status()).toBe(200);
  const { id: userId } = await login(page, email);

  // A practice attempt on the whole Algebra topic (3001-3006), submitted blank.
  const quiz = await (await page.request.get("/api/quiz?subjectId=3&topicId=301&count=31")).json();
  const ids: number[] = quiz.questions.map((q: { id: number }) => q.id);
  const submitted = await page.request.post(`/api/quiz/${quiz.quizId}/attempt`, {
    data: { answers: [], timeTaken: 5 },
  });
  expect(submitted.status()).toBe(200);
  const { attemptId } = await submitted.json();

  // A simulation with two of those questions, started, with this student on its list.
  const simId = `sigillo-${Date.now()}`;
  const sealedIds = ids.slice(0, 2);
  const created = await admin.request.post("/api/admin/simulations", {
    data: {
      id: simId,
      title: "Sigillo",
      subjects: [{ subjectId: 3, timeMin: 30, questions: sealedIds }],
      allowedUsers: [userId],
    },
  });
  expect(created.status()).toBe(201);
  expect((await admin.request.post(`/api/admin/simulations/${simId}/start`)).status()).toBe(200);

  await page.goto(`/test/riepilogo/${attemptId}`);
  const cards = page.getByTestId("summary-question");
  await expect(cards).toHaveCount(ids.length);
  await expect(page.locator("[data-testid=summary-question][data-state=sealed]")).toHaveCount(2);
  const sealedCard = page.locator("[data-testid=summary-question][data-state=sealed]").first();
  await expect(sealedCard.getByText("Soluzione nascosta")).toBeVisible();
  await expect(sealedCard.getByText(/la soluzione, la spiegazione e la tua risposta saranno visibili/)).toBeVisible();
  await expect(sealedCard.getByText("Nascosta fino al termine", { exact: true })).toBeVisible();
  const partial = page.getByTestId("summary-partial");
  await expect(partial).toContainText("Risultato parziale fino al termine della simulazione");
  await expect(partial).toContainText("non conta 2 domande");
  await expect(page.getByTestId("summary-counts")).toContainText(`${ids.length - 2} domande`);
  await expect(sealedCard.getByText("Risposta corretta", { exact: true })).toHaveCount(0);
  await expect(sealedCard.getByText("Spiegazione:", { exact: true })).toHaveCount(0);
  // The other questions keep their solution and explanation.
  const open = page.locator("[data-testid=summary-question][data-state=blank]").first();
  await expect(open.getByText("Risposta corretta", { exact: true })).toBeVisible();
  await expect(open.getByText("Spiegazione:", { exact: true })).toBeVisible();

  // The simulation is over for the admin: deleting it lifts the seal.
  expect((await admin.request.delete(`/api/admin/simulations/${simId}`)).status()).toBe(200);
  await page.reload();
  await expect(page.locator("[data-testid=summary-question][data-state=sealed]")).toHaveCount(0);
  await expect(page.getByTestId("summary-partial")).toHaveCount(0);
  await adminContext.close();
});
