import { z } from "zod";
import { api, readJson } from "~/server/api.server";
import { recordPageView } from "~/server/consent.server";
import { getSessionUser } from "~/server/session.server";
import { withLabels } from "~/server/errors.server";

const PageView = withLabels(
  z.object({
    path: z
      .string({ error: "Percorso mancante." })
      .startsWith("/", "Il percorso deve iniziare con /.")
      .max(300, "Percorso troppo lungo."),
    referrer: z.string().max(500).nullish(),
  }),
  { path: "Percorso", referrer: "Pagina di provenienza" },
);

export const action = api({
  access: "public",
  async handler({ request, env, db }) {
    const view = await readJson(request, PageView);
    const user = await getSessionUser(request, env);
    const stored = await recordPageView(
      db,
      request,
      { path: view.path, referrer: view.referrer ?? null },
      user?.id ?? null,
    );
    return { stored, path: view.path };
  },
});
