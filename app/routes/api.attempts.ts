import { z } from "zod";
import { ATTEMPT_LIST_LIMIT } from "~/lib/constants";
import { api, readQuery } from "~/server/api.server";
import { listAttempts } from "~/server/attempt-reads.server";
import { withLabels } from "~/server/errors.server";

const querySchema = withLabels(
  z.object({
    limit: z.coerce
      .number("Limite non valido")
      .int("Limite non valido")
      .min(1, "Il limite va da 1 a 500")
      .max(ATTEMPT_LIST_LIMIT, "Il limite va da 1 a 500")
      .optional(),
  }),
  { limit: "Limite" },
);

export const loader = api({
  access: "user",
  async handler({ db, request, user }) {
    const { limit } = readQuery(request, querySchema);
    const items = await listAttempts(db, user.id, limit ?? ATTEMPT_LIST_LIMIT);
    return Response.json(items, { headers: { "Cache-Control": "no-store" } });
  },
});
