// GET /api/admin/audit: the staff audit log, newest first (read-only). Admins only.
import { unsupportedMethod } from "~/server/admin/route.server";
import { z } from "zod";
import { api, readQuery } from "~/server/api.server";
import { listAudit } from "~/server/audit.server";
import { withLabels } from "~/server/errors.server";

const query = withLabels(
  z.object({
    limit: z.coerce.number().int().min(1, "Limite da 1 a 500").max(500, "Limite da 1 a 500").optional().default(100),
  }),
  { limit: "Limite" },
);

export const loader = api({
  access: "admin",
  async handler({ request, db }) {
    return listAudit(db, readQuery(request, query).limit);
  },
});

// Other methods: the role is checked first, then 405.
export const action = unsupportedMethod("admin");
