// The phone profile of bench/phone.ts, issue 47's goals for it, the shape of its figures and their verdict (apart from
// the runs themselves, so that bench/lib/phone-report.ts can print them without importing the bench).

export const PHONE = {
  viewport: { width: 412, height: 823 },
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBytesPerSec: (1.6 * 1_000_000) / 8,
  uploadBytesPerSec: (750 * 1000) / 8,
} as const;

export const RUNS = Number(process.env.PHONE_RUNS ?? 7);
/**
 * Issue 47, point 4: usable (hydrated) within 1.5 s on a first visit with the largest paint within 1.0 s, usable within
 * 1.0 s on a repeat visit with the service worker installed; no layout shift over 0.05 on either; answering paints
 * within 100 ms. (Issue 33 set the largest paint at 1.5 s.)
 */
export const GOALS = {
  lcpP50Ms: 1000,
  usableP50Ms: 1500,
  usableRepeatP50Ms: 1000,
  cls: 0.05,
  answerPaintP95Ms: 100,
} as const;

export type PageRun = {
  lcp: number;
  usable: number;
  cls: number;
  lcpBeforeUsable: boolean;
  lcpElement: string;
  /** Whether a service worker controlled the page (a repeat visit must be). */
  controlled: boolean;
  /** The page's first byte (on a repeat visit it comes through the service worker, throttled as the page is). */
  ttfb: number;
};
/** One visit's figures over its runs (a page's first visit, or its repeat visit). */
export type VisitFigures = {
  lcpP50: number;
  lcpP95: number;
  usableP50: number;
  usableP95: number;
  /** Each run's time to usable, in run order (runs of side-by-side servers pair up: bench/phone-only.ts). */
  usableRuns: number[];
  /** The worst run's CLS. */
  cls: number;
};
export type PhonePage = VisitFigures & {
  page: string;
  /** What the largest paint was (the first run's), and whether it came before the JavaScript made the page usable. */
  lcpElement: string;
  lcpBeforeUsableRuns: number;
  /** The same page on a repeat visit, its service worker installed (see the head of bench/phone.ts). */
  repeat: VisitFigures & { controlledRuns: number; ttfbP50: number };
};

/** Each page's figures against GOALS: the verdict and what missed. */
export function phoneVerdict(pages: PhonePage[], answerPaintP95Ms: number) {
  const missed: string[] = [];
  for (const p of pages) {
    if (p.lcpP50 > GOALS.lcpP50Ms) missed.push(`${p.page}: LCP p50 ${Math.round(p.lcpP50)} ms > ${GOALS.lcpP50Ms}`);
    if (p.usableP50 > GOALS.usableP50Ms)
      missed.push(`${p.page}: usable p50 ${Math.round(p.usableP50)} ms > ${GOALS.usableP50Ms}`);
    if (p.repeat.usableP50 > GOALS.usableRepeatP50Ms)
      missed.push(`${p.page}: repeat usable p50 ${Math.round(p.repeat.usableP50)} ms > ${GOALS.usableRepeatP50Ms}`);
    if (p.repeat.controlledRuns < RUNS)
      missed.push(`${p.page}: the service worker controlled ${p.repeat.controlledRuns}/${RUNS} repeat visits`);
    if (Math.max(p.cls, p.repeat.cls) > GOALS.cls)
      missed.push(`${p.page}: CLS ${Math.max(p.cls, p.repeat.cls).toFixed(3)} > ${GOALS.cls}`);
  }
  if (answerPaintP95Ms > GOALS.answerPaintP95Ms)
    missed.push(`answer-to-next paint p95 ${Math.round(answerPaintP95Ms)} ms > ${GOALS.answerPaintP95Ms}`);
  return { verdict: missed.length ? ("FAIL" as const) : ("PASS" as const), missed };
}
