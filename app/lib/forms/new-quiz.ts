// The request for a new practice quiz (issue 19: one schema, two doors): the fields of GET /api/quiz's query and
// of the form the quiz screens post to /test (a random or targeted quiz of a subject, a Rush quiz, or a redo of
// given questions). Values arrive as text in both.
import { z } from "zod";
import { withLabels, withParentLabels } from "../validation";

const optionalId = (label: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v == null || v === "" || v === "all") return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message: `${label} non valido` });
        return z.NEVER;
      }
      return n;
    });

export const newQuizSchema = withLabels(
  z.object({
    subjectId: optionalId("Id della materia"),
    topicId: optionalId("Id del sotto-argomento"),
    count: z
      .string()
      .optional()
      .refine((v) => v == null || v === "" || Number.isFinite(Number(v)), "Numero di domande non valido"),
    time: z
      .string()
      .optional()
      .refine(
        (v) => v == null || v === "" || (Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) <= 86_400),
        "Durata del timer non valida",
      ),
    rushEventId: optionalId("Id dell'evento Rush"),
    ids: z.string().max(2000, "Troppi id di domande").optional(),
    mode: z.enum(["random", "mirato"], "Modalità non valida: usa random o mirato.").optional(),
    /** The exam edition whose split a full paper follows (id from GET /api/exam-editions); default edition if absent. */
    edition: optionalId("Id dell'edizione"),
    /**
     * The default edition's syllabus units to draw from, comma-separated ("3,6": a plan's "unità 3 e 6", issue 46);
     * a subject's whole pool when absent.
     */
    units: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v == null || v === "") return undefined;
        const list = v.split(",").map((x) => Number(x.trim()));
        if (list.length > 12 || !list.every((n) => Number.isInteger(n) && n >= 1 && n <= 20)) {
          ctx.addIssue({ code: "custom", message: "Unità non valide: numeri da 1 a 20 separati da virgole (es. 3,6)" });
          return z.NEVER;
        }
        return [...new Set(list)];
      }),
    /** "1": a quiz downloaded for offline use (issue 47: kept a week, run on the device, submitted once back online). */
    offline: z.enum(["1", "0"], "Valore non valido per offline: usa 1 o 0.").optional(),
  }),
  {
    subjectId: "Materia",
    topicId: "Sotto-argomento",
    count: "Numero di domande",
    time: "Timer",
    rushEventId: "Evento Rush",
    ids: "Domande",
    mode: "Modalità",
    edition: "Edizione",
    units: "Unità",
    offline: "Offline",
  },
);

export type NewQuizRequest = z.output<typeof newQuizSchema>;

/**
 * The same request as a JSON body (POST /api/quiz): numbers may come as numbers and `ids` as a list; they are read
 * as the text the query and the form carry, so both doors keep one schema and one set of messages.
 */
export const newQuizBodySchema = withParentLabels(
  z.preprocess((body) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
    const text = (v: unknown) => (typeof v === "number" ? String(v) : typeof v === "boolean" ? (v ? "1" : "0") : v);
    return Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, k === "ids" && Array.isArray(v) ? v.map(text).join(",") : text(v)]),
    );
  }, newQuizSchema),
  newQuizSchema,
  {},
);

/** The /rush screen's "Avvia quiz": only the subject; the server picks the event, the count and no timer. */
export const rushStartSchema = withParentLabels(newQuizSchema.pick({ subjectId: true }), newQuizSchema, {});
