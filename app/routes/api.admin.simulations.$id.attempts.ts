// GET /api/admin/simulations/{id}/attempts: one page (?page=N, 100 rows) of the attempts with their ranking
// position and percentile, best first; the total in X-Total-Count. ?format=csv: the whole ranking as CSV, read page
// by page (issue 31).
import { z } from "zod";
import { api, readQuery } from "~/server/api.server";
import { withLabels } from "~/server/errors.server";
import { simulationIdParam } from "~/server/simulation/schemas.server";
import { adminAttempts, rankingCsv } from "~/server/simulation/staff-results.server";

const AttemptsQuery = withLabels(
  z.object({
    page: z.coerce
      .number("Pagina non valida")
      .int("Pagina non valida")
      .min(1, "Pagina non valida")
      .max(100_000, "Pagina non valida")
      .optional()
      .default(1),
    format: z.enum(["json", "csv"], "Formato non valido: json o csv").optional().default("json"),
  }),
  { page: "Pagina", format: "Formato" },
);

export const loader = api({
  access: "teacher",
  async handler({ request, params, db, user }) {
    const id = simulationIdParam(params.id);
    const query = readQuery(request, AttemptsQuery);
    if (query.format === "csv") {
      return new Response(await rankingCsv(db, id, user), {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="classifica-${id}.csv"`,
        },
      });
    }
    const page = await adminAttempts(db, id, user, query.page);
    return Response.json(page.rows, { headers: { "X-Total-Count": String(page.total) } });
  },
});
