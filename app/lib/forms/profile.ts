// The profile form (issue 19: one schema for the form on /profilo, its action and POST /api/profile): every editable
// field, each optional (absent = unchanged, empty = cleared), with the Italian messages both sides show.
import { z } from "zod";
import { PRIVACY } from "../constants";
import { isCalendarDay } from "../days";
import { isValidCap, isValidCodiceFiscale, isValidPhone } from "../italian-ids";
import { withLabels } from "../validation";

/** Empty or blank text means "no value"; an absent field stays absent (unchanged), not null (cleared). */
const text = (max: number, label: string) =>
  z
    .string(`${label}: è atteso un testo.`)
    .trim()
    .max(max, `${label}: al massimo ${max} caratteri.`)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v ? v : null));

const checked = (label: string, test: (v: string) => boolean, message: string, max = 40) =>
  text(max, label).refine((v) => v == null || test(v), message);

function isAcceptableBirth(value: string, now = new Date()): boolean {
  if (!isCalendarDay(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  const age = (now.getTime() - date.getTime()) / (365.25 * 24 * 3600 * 1000);
  return age >= PRIVACY.minimumAge && age <= 100;
}

/**
 * POST /api/profile: every editable field, each optional (absent = unchanged). username, email,
 * createdAt and lastLogin are read only and ignored if sent (the email is the sign-in identity).
 */
export const profileUpdateSchema = withLabels(
  z.object({
    phone: checked(
      "Telefono",
      isValidPhone,
      "Numero di telefono non valido: usa solo cifre (da 6 a 15), con + iniziale facoltativo.",
      24,
    ),
    bio: text(500, "Bio"),
    goal: text(200, "Obiettivo"),
    city: text(80, "Città"),
    school: text(120, "Scuola"),
    schoolYear: z
      .union([z.number(), z.string()], "Anno scolastico: è atteso un numero da 1 a 5.")
      .nullish()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        if (v === null || v === "") return null;
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 5) {
          ctx.addIssue({ code: "custom", message: "Anno scolastico non valido: scegli un anno da 1 a 5." });
          return z.NEVER;
        }
        return n;
      }),
    birth: checked(
      "Data di nascita",
      (v) => isAcceptableBirth(v),
      `Data di nascita non valida: usa il formato AAAA-MM-GG; il servizio è per chi ha almeno ${PRIVACY.minimumAge} anni.`,
      10,
    ),
    cf: text(16, "Codice fiscale")
      .transform((v) => (v === undefined ? undefined : v ? v.toUpperCase() : null))
      .refine(
        (v) => v == null || isValidCodiceFiscale(v),
        "Codice fiscale non valido: controlla i 16 caratteri e l'ultima lettera di controllo.",
      ),
    address: text(200, "Indirizzo"),
    zip: checked("CAP", isValidCap, "CAP non valido: servono esattamente 5 cifre.", 5),
  }),
  {
    phone: "Telefono",
    bio: "Bio",
    goal: "Obiettivo",
    city: "Città",
    school: "Scuola",
    schoolYear: "Anno scolastico",
    birth: "Data di nascita",
    cf: "Codice fiscale",
    address: "Indirizzo",
    zip: "CAP",
  },
);

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** Deleting the account: the typed confirmation (checked against DELETE_ACCOUNT_CONFIRMATION by the server). */
export const deleteAccountSchema = withLabels(z.object({ confirm: z.string("Scrivi ELIMINA per confermare.") }), {
  confirm: "Conferma",
});
