// GET /api/exam-editions (issue 29): the exam editions, public (no keys in them), the default one flagged.
import { api } from "~/server/api.server";
import { listEditions, publicEdition } from "~/server/editions.server";

export const loader = api({
  access: "public",
  async handler({ db }) {
    const editions = await listEditions(db);
    return { editions: editions.map(publicEdition), defaultId: editions.find((e) => e.isDefault)?.id ?? null };
  },
});
