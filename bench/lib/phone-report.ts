// What bench/phone.ts prints for one server: its figures per page, first and repeat visits, against issue 47's goals,
// and the runner's presses; returns them as the bench's results keep them.
import { loadavg } from "node:os";
import { type AnswerPaints, RUNNER_QUESTIONS } from "./phone-answers.ts";
import { GOALS, PHONE, type PhonePage, phoneVerdict, RUNS } from "./phone-goals.ts";
import { ms, percentile } from "./stats.ts";

/** Prints one server's figures against the goals, and returns them. */
export function report(results: PhonePage[], paints: AnswerPaints) {
  console.log(
    `\nA mid-range phone (Chromium ${PHONE.viewport.width}x${PHONE.viewport.height}, CPU ${PHONE.cpuSlowdown}x slower, ` +
      `${PHONE.latencyMs} ms RTT, 1.6 Mbps down, 750 Kbps up; cold cache, ${RUNS} runs per page):`,
  );
  console.table(
    results.map((r) => ({
      page: r.page,
      "LCP p50": ms(r.lcpP50),
      "LCP p95": ms(r.lcpP95),
      "usable p50": ms(r.usableP50),
      "usable p95": ms(r.usableP95),
      "CLS (worst run)": r.cls.toFixed(3),
      "largest paint": r.lcpElement,
      "LCP before JS": `${r.lcpBeforeUsableRuns}/${RUNS}`,
    })),
  );
  console.log(`Repeat visits (the service worker installed and in control; ${RUNS} runs per page):`);
  console.table(
    results.map((r) => ({
      page: r.page,
      "LCP p50": ms(r.repeat.lcpP50),
      "LCP p95": ms(r.repeat.lcpP95),
      "usable p50": ms(r.repeat.usableP50),
      "usable p95": ms(r.repeat.usableP95),
      "CLS (worst run)": r.repeat.cls.toFixed(3),
      "SW in control": `${r.repeat.controlledRuns}/${RUNS}`,
      "HTML first byte p50": ms(r.repeat.ttfbP50),
    })),
  );
  console.table(
    results.map((r) => ({
      page: r.page,
      [`LCP p50 <= ${GOALS.lcpP50Ms}`]: r.lcpP50 <= GOALS.lcpP50Ms ? "met" : "MISSED",
      [`usable p50 <= ${GOALS.usableP50Ms}`]: r.usableP50 <= GOALS.usableP50Ms ? "met" : "MISSED",
      [`repeat usable p50 <= ${GOALS.usableRepeatP50Ms}`]:
        r.repeat.usableP50 <= GOALS.usableRepeatP50Ms ? "met" : "MISSED",
      [`CLS <= ${GOALS.cls}`]: Math.max(r.cls, r.repeat.cls) <= GOALS.cls ? "met" : "MISSED",
    })),
  );
  const all = [...paints.answer, ...paints.next];
  const answerPaintP95 = percentile(all, 95);
  console.log(
    `Runner at ${PHONE.cpuSlowdown}x CPU, key press to the change painted (${all.length} presses over ${RUNNER_QUESTIONS} questions, PHONE_ANSWER_PRESSES):`,
  );
  const row = (what: string, samples: number[]) => ({
    what,
    n: samples.length,
    p50: ms(percentile(samples, 50)),
    p95: ms(percentile(samples, 95)),
    max: ms(Math.max(...samples)),
  });
  console.table([
    row("answer (key on an option)", paints.answer),
    row("next question (an arrow)", paints.next),
    row("both", all),
  ]);
  console.log(
    `Goal: answering paints within ${GOALS.answerPaintP95Ms} ms (p95 of both): ` +
      `${answerPaintP95 <= GOALS.answerPaintP95Ms ? "met" : "MISSED"} (${ms(answerPaintP95)})`,
  );
  const { verdict, missed } = phoneVerdict(results, answerPaintP95);
  console.log(
    `Phone goals (issue 47): ${verdict}${missed.length ? `: ${missed.join("; ")}` : ""} ` +
      `(load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")})`,
  );
  return {
    profile: PHONE,
    runs: RUNS,
    goals: GOALS,
    verdict,
    missed,
    loadAverage: loadavg(),
    pages: results,
    answerPaintP95Ms: answerPaintP95,
    /** How many presses the p95 is over. */
    answerPaintSamples: all.length,
    answerP95Ms: percentile(paints.answer, 95),
    nextQuestionP95Ms: percentile(paints.next, 95),
  };
}
