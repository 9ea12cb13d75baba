// Answering in the runner under the phone profile (bench/phone.ts, issue 47 point 4): each key press (a letter on an
// option, an arrow to the next or previous question), from its keydown to the last frame that paints the change it
// caused. The p95 of both is judged against 100 ms, so it is taken over many presses (PHONE_ANSWER_PRESSES, default
// 80; 19 before, when one slow press decided it): the student walks the quiz forward and back, changing each
// multiple-choice answer on every visit (another letter each time, so every press changes what is shown).

import type { Page } from "playwright-core";

/** How many presses a run measures, answers and moves together. */
export const ANSWER_PRESSES = Number(process.env.PHONE_ANSWER_PRESSES ?? 80);
/** The runner's quiz: a walk forward and back over it gives the presses. */
export const RUNNER_QUESTIONS = 15;

export type AnswerPaints = { answer: number[]; next: number[] };

/** Observers on the runner of `page` (loaded and hydrated): the keydown's time and the frame after each change. */
async function observe(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __ix: { start: number; frames: number[] } };
    w.__ix = { start: 0, frames: [] };
    document.addEventListener("keydown", (e) => (w.__ix.start = e.timeStamp), { capture: true });
    // The frame after each change, once painted (a task queued from its rAF runs after the paint).
    new MutationObserver(() =>
      requestAnimationFrame(() => setTimeout(() => w.__ix.frames.push(performance.now()))),
    ).observe(document.querySelector(".quiz")!, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
}

/** Presses `key`, waits for `done`, and returns the time from its keydown to the last frame of the change it caused. */
async function press(page: Page, key: string, done: () => Promise<unknown>): Promise<number> {
  await page.evaluate(() => {
    (window as unknown as { __ix: { frames: number[] } }).__ix.frames = [];
  });
  await page.keyboard.press(key);
  await done();
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const ix = (window as unknown as { __ix: { start: number; frames: number[] } }).__ix;
        let seen = -1;
        const tick = () => {
          // Settled: no new frame for 150 ms.
          if (ix.frames.length === seen) resolve(Math.max(...ix.frames) - ix.start);
          else {
            seen = ix.frames.length;
            setTimeout(tick, 150);
          }
        };
        setTimeout(tick, 150);
      }),
  );
}

/** The presses on the runner open in `page` (a stored quiz of `questions` questions, hydrated), ANSWER_PRESSES in all. */
export async function measureAnswerPaints(page: Page, questions: number): Promise<AnswerPaints> {
  await observe(page);
  const answer: number[] = [];
  const next: number[] = [];
  const visits = new Map<number, number>();
  let at = 0;
  let step = 1;
  while (answer.length + next.length < ANSWER_PRESSES) {
    const options = await page.locator(".option").count();
    if (options >= 2) {
      // Another option than the one chosen on the last visit: the press always changes the answer shown.
      const pick = (visits.get(at) ?? 0) % 2;
      visits.set(at, (visits.get(at) ?? 0) + 1);
      answer.push(
        await press(page, "ab"[pick]!, () =>
          page.locator(".option").nth(pick).and(page.locator("[aria-pressed=true]")).waitFor(),
        ),
      );
    }
    if (answer.length + next.length >= ANSWER_PRESSES) break;
    if (at + step < 0 || at + step >= questions) step = -step;
    at += step;
    next.push(
      await press(page, step > 0 ? "ArrowRight" : "ArrowLeft", () =>
        page.waitForFunction(
          (want) => document.querySelector('[data-testid="question-position"]')?.textContent?.startsWith(want),
          `Domanda ${at + 1}/`,
        ),
      ),
    );
  }
  return { answer, next };
}
