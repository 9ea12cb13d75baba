// GET /api/quiz?subjectId=&topicId=&count=[&time=][&rushEventId=]  → a random quiz, stored
// GET /api/quiz?subjectId=&topicId=&count=&mode=mirato              → a targeted quiz (learning engine)
// GET /api/quiz?ids=a,b,c                                           → a redo of those questions
import { z } from "zod";
import { MAX_QUESTIONS } from "~/lib/constants";
import { clampQuestionCount } from "~/lib/timer";
import { api, readQuery } from "~/server/api.server";
import { HttpError, withLabels } from "~/server/errors.server";
import { drawQuiz } from "~/server/quiz.server";

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

const querySchema = withLabels(
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
      .refine((v) => v == null || v === "" || (Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) <= 86_400), "Durata del timer non valida"),
    rushEventId: optionalId("Id dell'evento Rush"),
    ids: z.string().max(2000, "Troppi id di domande").optional(),
    mode: z.enum(["random", "mirato"], "Modalità non valida: usa random o mirato.").optional(),
  }),
  { subjectId: "Materia", topicId: "Sotto-argomento", count: "Numero di domande", time: "Timer", rushEventId: "Evento Rush", ids: "Domande", mode: "Modalità" },
);

export const loader = api({
  access: "user",
  async handler({ db, request, user }) {
    const q = readQuery(request, querySchema);
    const timeLimitSec = q.time ? Number(q.time) || null : null;
    if (q.ids != null) {
      const ids = q.ids.split(",").map((s) => s.trim()).filter(Boolean).map(Number);
      if (ids.length === 0) throw new HttpError(400, "Nessuna domanda per il ripasso");
      if (ids.some((n) => !Number.isInteger(n) || n <= 0)) throw new HttpError(400, "Elenco di domande non valido: sono attesi numeri interi positivi (campo: Domande).");
      if (new Set(ids).size > MAX_QUESTIONS) throw new HttpError(400, `Al massimo ${MAX_QUESTIONS} domande per quiz (campo: Domande).`);
      return drawQuiz(db, { userId: user.id, ids, timeLimitSec });
    }
    if (!q.subjectId) throw new HttpError(400, "Scegli una materia (campo: Materia).");
    return drawQuiz(db, {
      userId: user.id,
      subjectId: q.subjectId,
      topicId: q.topicId,
      count: clampQuestionCount(q.count || undefined, 10),
      timeLimitSec,
      rushEventId: q.rushEventId ?? null,
      mode: q.mode,
    });
  },
});
