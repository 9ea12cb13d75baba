// A practice attempt as the runner submits it (issue 19: one schema, every door): the body of
// POST /api/quiz/{id}/attempt and /api/grade, and the JSON the quiz screen posts to its own action (with the quiz's id).
import { z } from "zod";
import { withLabels } from "../validation";

const MAX_SECONDS = 24 * 60 * 60;

export const answerSchema = z.object({
  question_id: z.coerce.number().int("Id della domanda non valido").positive("Id della domanda non valido"),
  option_id: z.number().int("Opzione non valida").min(0, "Opzione non valida").nullable().optional(),
  answer_text: z.string().max(500, "Risposta troppo lunga").nullable().optional(),
  time_sec: z
    .number()
    .min(0, "Tempo per domanda non valido")
    .max(MAX_SECONDS, "Tempo per domanda non valido")
    .optional(),
});

const SUBMISSION_LABELS = {
  answers: "Risposta",
  "answers.question_id": "Domanda",
  "answers.option_id": "Opzione scelta",
  "answers.answer_text": "Risposta scritta",
  "answers.time_sec": "Tempo per domanda",
  timeTaken: "Tempo impiegato",
  rushEventId: "Evento Rush",
  idempotencyKey: "Chiave di invio",
  deviceStartedAt: "Inizio sul dispositivo",
} as const;

export const submissionSchema = withLabels(
  z.object({
    answers: z.array(answerSchema, "Le risposte devono essere un elenco").max(200, "Troppe risposte"),
    timeTaken: z
      .number("Tempo impiegato mancante")
      .min(0, "Tempo impiegato non valido")
      .max(MAX_SECONDS, "Tempo impiegato non valido"),
    rushEventId: z.number().int().positive().nullable().optional(),
    idempotencyKey: z.string().min(8, "Chiave di invio non valida").max(100, "Chiave di invio non valida").optional(),
    /** A downloaded quiz only (issue 47): when the student started it on the device (epoch ms); ignored otherwise. */
    deviceStartedAt: z.number().int("Inizio non valido").min(0, "Inizio non valido").nullable().optional(),
  }),
  SUBMISSION_LABELS,
);
export type Submission = z.infer<typeof submissionSchema>;

/** The quiz screen's submission: the attempt plus the quiz it belongs to. */
export const runnerSubmissionSchema = withLabels(
  submissionSchema.extend({ quizId: z.number("Quiz mancante").int("Quiz non valido").positive("Quiz non valido") }),
  { ...SUBMISSION_LABELS, quizId: "Quiz" },
);
