// A class's forms (issue 19: one schema per form): its name (the Classi tab, POST /api/classes and the tab's
// action) and the join code (/profilo, /classi/unisciti/:code, POST /api/classes/join), with their Italian messages.
import { z } from "zod";

export const CLASS_TEXT = {
  nameRequired: "Il nome della classe è obbligatorio.",
  nameTooLong: "Nome della classe troppo lungo (massimo 80 caratteri).",
  badCode: "Codice classe non valido: sono 6 lettere o cifre (senza 0, O, 1, I).",
  unknownCode: "Nessuna classe con questo codice: controlla il codice o chiedi al docente un nuovo link.",
  notFound: "Classe non trovata.",
  notOwner: "Non gestisci questa classe.",
  notMember: "Non fai parte di questa classe.",
  noEmails: "Incolla almeno un indirizzo e-mail.",
  tooManyEmails: "Al massimo 2.000 indirizzi per volta.",
  invitationNotFound: "Invito non trovato: forse hai già risposto, o il docente ha eliminato la classe.",
} as const;

export const CLASS_NAME_MAX = 80;
/** Letters and digits that cannot be confused when read aloud or copied: no 0/O, no 1/I. */
export const JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const JOIN_CODE_LENGTH = 6;
export const JOIN_CODE = /^[A-HJ-NP-Z2-9]{6,12}$/;

export const ClassNameInput = z.object({
  name: z
    .string({ error: CLASS_TEXT.nameRequired })
    .trim()
    .min(1, { error: CLASS_TEXT.nameRequired })
    .max(CLASS_NAME_MAX, { error: CLASS_TEXT.nameTooLong }),
});

/** Spaces and dashes are tolerated (a code read aloud is often typed in pieces); case is ignored. */
export function normalizeJoinCode(raw: string): string {
  return raw.replace(/[\s-]+/g, "").toUpperCase();
}

export const JoinInput = z.object({
  code: z
    .string({ error: CLASS_TEXT.badCode })
    .max(40, { error: CLASS_TEXT.badCode })
    .transform(normalizeJoinCode)
    .refine((c) => JOIN_CODE.test(c), { error: CLASS_TEXT.badCode }),
});
