// A Quiz Rush event as the admin saves it: the Rush tab checks it before saving, and POST / PUT
// /api/admin/rush-events and the tab's action check it again, with the same Italian messages.
import { z } from "zod";
import { isCalendarDay, isClockTime } from "../days";
import { fromRomeInputValue } from "../rush";
import { withLabels } from "../validation";

const ISO_WITH_ZONE = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(\.\d{1,3})?(Z|[+-](\d{2}:\d{2}))$/;

/** An ISO 8601 instant with its zone, when its day, its time and its offset exist (not 2026-02-31T10:00Z, T24:00). */
function isoInstant(value: string): number | null {
  const m = ISO_WITH_ZONE.exec(value);
  if (!m || !isCalendarDay(m[1]!) || !isClockTime(m[2]!) || (m[5] && !isClockTime(m[5]))) return null;
  return Date.parse(value);
}

/** An instant given as epoch ms, as ISO 8601 with a zone, or as a Europe/Rome wall-clock time. */
export function instant(label: string) {
  return z
    .union([z.number(), z.string()], { error: `${label}: data e ora mancanti o non valide.` })
    .transform((value, ctx) => {
      let t: number | null = null;
      if (typeof value === "number") t = Number.isFinite(value) ? value : null;
      else if (ISO_WITH_ZONE.test(value.trim())) t = isoInstant(value.trim());
      else t = fromRomeInputValue(value);
      if (t == null || Number.isNaN(t) || t < Date.UTC(2000, 0, 1) || t > Date.UTC(2100, 0, 1)) {
        ctx.addIssue({
          code: "custom",
          message: `${label}: data e ora non valide (formato atteso AAAA-MM-GGTHH:MM, ora di Roma).`,
        });
        return z.NEVER;
      }
      return t;
    });
}

export const rushEventInputSchema = withLabels(
  z
    .object({
      title: z
        .string({ error: "Il titolo è obbligatorio." })
        .trim()
        .min(1, "Il titolo è obbligatorio.")
        .max(120, "Il titolo può avere al massimo 120 caratteri."),
      startsAt: instant("Inizio"),
      endsAt: instant("Fine"),
      published: z.boolean({ error: "Pubblicato deve essere vero o falso." }).default(false),
    })
    .refine((e) => e.endsAt > e.startsAt, { message: "La fine deve essere successiva all'inizio.", path: ["endsAt"] }),
  { title: "Titolo", startsAt: "Inizio", endsAt: "Fine", published: "Pubblicato" },
);
