// A plan item as a screen shows it (issue 46): its words and the button to the existing screen that does it, with the
// right query parameters (the review of the day, a Test mirato of the subject, the subject's full paper).
import { MAX_QUESTIONS } from "./constants.ts";
import type { PlanItem } from "./study-plan.ts";
import { PLAN_TEXT } from "./study-plan-text.ts";

export type ItemView = { text: string; href: string; action: string };

/** The exam day alone's screen (issue 46, point 2). */
export const SOLO_DAY_HREF = "/giornata";

/** The full paper section of /test/nuovo, for a subject. */
export const paperHref = (subjectId: number) => `/test/nuovo?subject=${subjectId}#prova-completa`;

export function itemView(item: PlanItem & { done?: number }, names: Readonly<Record<number, string>>): ItemView {
  const name = (id: number) => names[id] ?? "";
  switch (item.kind) {
    case "review":
      return { text: PLAN_TEXT.reviews(item.count), href: "/ripasso/errori", action: PLAN_TEXT.goReview };
    case "practice":
      return {
        text: PLAN_TEXT.practice(item.count, name(item.subjectId), item.units),
        href: `/test/nuovo?subject=${item.subjectId}&q=${Math.min(item.count, MAX_QUESTIONS)}&mode=mirato${item.units.length ? `&units=${item.units.join(",")}` : ""}`,
        action: PLAN_TEXT.goPractice,
      };
    case "paper":
      return {
        text: PLAN_TEXT.paper(name(item.subjectId)),
        href: paperHref(item.subjectId),
        action: PLAN_TEXT.goPaper,
      };
    case "exam-day":
      // The whole day alone (issue 46, point 2): its papers in order with the breaks, on /giornata.
      return { text: PLAN_TEXT.examDay(item.subjectIds.map(name)), href: SOLO_DAY_HREF, action: PLAN_TEXT.goExamDay };
  }
}

/** A day's items in one line: "18 ripassi, 20 domande di Fisica (unità 3 e 6), 1 prova completa di Biologia". */
export const dayLine = (items: readonly PlanItem[], names: Readonly<Record<number, string>>) =>
  items.map((i) => itemView(i, names).text).join(", ");
