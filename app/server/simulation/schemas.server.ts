// Inputs of the simulation calls (zod at the edge; Italian messages).
import { z } from "zod";
import { HttpError, withLabels } from "../errors.server";
import { SIM_TEXT } from "./door.server";

const SIM_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function simulationIdParam(value: string | undefined): string {
  if (!value || !SIM_ID.test(value))
    throw new HttpError(400, "ID simulazione non valido: usa lettere, numeri, '-' o '_' (massimo 64).");
  return value;
}

const intLike = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label}: numero non valido` })
    .int({ error: `${label}: numero intero richiesto` })
    .min(min, { error: `${label}: minimo ${min}` })
    .max(max, { error: `${label}: massimo ${max}` });

export const SimulationSave = withLabels(
  z.object({
    id: z
      .string({ error: SIM_TEXT.missingFields })
      .trim()
      .regex(SIM_ID, { error: "ID simulazione non valido: usa lettere, numeri, '-' o '_' (massimo 64)." }),
    title: z
      .string({ error: SIM_TEXT.missingFields })
      .trim()
      .min(1, { error: SIM_TEXT.missingFields })
      .max(200, { error: "Titolo troppo lungo (massimo 200 caratteri)" }),
    subjects: z
      .array(
        z
          .object({
            subjectId: intLike("Materia", 1, 1_000_000),
            timeMin: intLike("Minuti", 1, 600),
            breakAfterMin: intLike("Pausa", 0, 120).optional(),
            questionCount: intLike("Numero domande", 1, 200).optional(),
            questions: z
              .array(z.unknown(), { error: SIM_TEXT.invalidFile })
              .min(1, { error: SIM_TEXT.invalidFile })
              .max(200, { error: SIM_TEXT.invalidFile })
              .optional(),
          })
          .refine((s) => s.questions !== undefined || s.questionCount !== undefined, { error: SIM_TEXT.missingFields }),
        { error: SIM_TEXT.missingFields },
      )
      .min(1, { error: SIM_TEXT.missingFields })
      .max(10, { error: "Al massimo 10 materie per simulazione" }),
    allowedUsers: z
      .array(intLike("Utente abilitato", 1, Number.MAX_SAFE_INTEGER))
      .max(100_000)
      .default([]),
    allowedClasses: z
      .array(intLike("Classe abilitata", 1, Number.MAX_SAFE_INTEGER))
      .max(1_000, { error: "Al massimo 1.000 classi per simulazione" })
      .default([]),
  }),
  {
    id: "ID simulazione",
    title: "Titolo",
    subjects: "Materia",
    "subjects.subjectId": "Materia",
    "subjects.timeMin": "Minuti",
    "subjects.breakAfterMin": "Pausa",
    "subjects.questionCount": "Numero domande",
    "subjects.questions": "Domande",
    allowedUsers: "Utente abilitato",
    allowedClasses: "Classe abilitata",
  },
);

const answerValue = z.string().max(200, { error: "Risposta troppo lunga" });
export const AttemptSubmit = withLabels(
  z.object({
    answers: z.record(
      z.string().regex(/^\d+$/, { error: "Materia non valida" }),
      z.record(z.string().regex(/^\d+$/, { error: "Domanda non valida" }), answerValue),
      {
        error: "Risposte non valide: è atteso un oggetto materia → domanda → risposta",
      },
    ),
    timeTaken: z
      .number({ error: "Tempo impiegato: è atteso un numero di secondi" })
      .min(0, { error: "Tempo impiegato: non può essere negativo" })
      .max(24 * 3600),
  }),
  { answers: "Risposte", timeTaken: "Tempo impiegato" },
);

/** POST /api/admin/simulations/{id}/clock (development only): how far to move the start back, up to a day. */
export const ClockAdvance = withLabels(z.object({ aheadMs: intLike("Anticipo (ms)", 1, 86_400_000) }), {
  aheadMs: "Anticipo (ms)",
});
