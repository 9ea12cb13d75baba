// The writes of the road to the sitting (issue 46) as the server reads them, from /piano's action and the JSON calls:
// a plan (a sitting of the default edition, minutes a day, optional minutes per weekday) and the grades received at a
// sitting. Which edition and sitting are allowed, and the edition's grade bounds, are checked against the edition:
// `sittingGradesSchema(format)` is built from it, so 31 is 30 e lode only where the edition says so.
import { z } from "zod";
import { isCalendarDay } from "../days";
import type { EditionFormat } from "../edition";
import { PLAN_MINUTES_MAX, PLAN_MINUTES_MIN } from "../study-plan";
import { PLAN_TEXT } from "../study-plan-text";
import { withLabels } from "../validation";

const E = PLAN_TEXT.errors;

const editionId = z.number({ error: E.edition }).int({ error: E.edition }).positive({ error: E.edition });
const sittingDate = z.string({ error: E.sitting }).refine(isCalendarDay, { error: E.sitting });

const minutes = z
  .number({ error: E.minutes })
  .int({ error: E.minutes })
  .min(PLAN_MINUTES_MIN, { error: E.minutes })
  .max(PLAN_MINUTES_MAX, { error: E.minutes });

const weekdayMinutes = z
  .number({ error: E.weekday })
  .int({ error: E.weekday })
  .min(0, { error: E.weekday })
  .max(PLAN_MINUTES_MAX, { error: E.weekday })
  .nullable();

export const planInputSchema = withLabels(
  z.strictObject({
    editionId,
    sittingDate,
    minutesPerDay: minutes,
    /** Monday first; null: the minutes a day. */
    weekdays: z.array(weekdayMinutes, { error: E.weekdays }).length(7, { error: E.weekdays }).nullable().optional(),
  }),
  { editionId: "Edizione", sittingDate: "Appello", minutesPerDay: "Minuti al giorno", weekdays: "Minuti per giorno" },
);
export type PlanInputBody = z.output<typeof planInputSchema>;

/** The grades of one sitting, one per exam of the edition: a number in the edition's bounds, or null (non sostenuto). */
export function sittingGradesSchema(format: Pick<EditionFormat, "maxGrade" | "lode" | "passMark" | "subjects">) {
  const bad = E.grade(format.maxGrade, format.lode);
  const grade = z
    .number({ error: bad })
    .min(0, { error: bad })
    .max(format.lode, { error: bad })
    .refine((g) => g < format.passMark || Number.isInteger(g), { error: E.gradeWhole(format.passMark) })
    .refine((g) => Math.abs(g * 100 - Math.round(g * 100)) < 1e-6, { error: E.gradeDecimals })
    .nullable();
  const ids = format.subjects.map((s) => s.subjectId);
  return withLabels(
    z.strictObject({
      editionId,
      sittingDate,
      grades: z
        .array(z.strictObject({ subjectId: z.number().int(), grade }), { error: E.gradesSubjects })
        .refine(
          (rows) =>
            rows.length === ids.length &&
            new Set(rows.map((r) => r.subjectId)).size === rows.length &&
            rows.every((r) => ids.includes(r.subjectId)),
          { error: E.gradesSubjects },
        ),
    }),
    { editionId: "Edizione", sittingDate: "Appello", grades: "Voti" },
  );
}
export type SittingGradesBody = z.output<ReturnType<typeof sittingGradesSchema>>;
