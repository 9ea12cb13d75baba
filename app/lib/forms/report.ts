// A report of a faulty question (issue 19: one schema, two doors): the body of POST /api/report-question and the
// form the report dialog (runner and summary) posts to /segnalato's action.
import { z } from "zod";
import { withLabels } from "../validation";

/** Both payload forms of the spec: {questionId, message, userAnswerKey} and {attemptId, questionId, note, userAnswerKey}. */
export const reportSchema = withLabels(
  z.object({
    questionId: z.coerce.number("Domanda mancante").int("Domanda non valida").positive("Domanda non valida"),
    attemptId: z.coerce.number().int("Tentativo non valido").positive("Tentativo non valido").nullable().optional(),
    message: z.string().max(2000, "Il messaggio supera i 2000 caratteri").nullable().optional(),
    note: z.string().max(2000, "La nota supera i 2000 caratteri").nullable().optional(),
    userAnswerKey: z.string().max(100, "Risposta indicata troppo lunga").nullable().optional(),
  }),
  {
    questionId: "Domanda",
    attemptId: "Tentativo",
    message: "Messaggio",
    note: "Nota",
    userAnswerKey: "Risposta indicata",
  },
);
export type ReportInput = z.infer<typeof reportSchema>;
