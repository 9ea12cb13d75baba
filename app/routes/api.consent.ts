import { z } from "zod";
import { api, readJson } from "~/server/api.server";
import { recordConsent } from "~/server/consent.server";
import { getSessionUser } from "~/server/session.server";
import { withLabels } from "~/server/errors.server";

const Consent = withLabels(
  z.object({
    preferences: z.boolean({ error: "Scelta non valida per i cookie di preferenza." }),
    analytics: z.boolean({ error: "Scelta non valida per i cookie statistici." }),
    marketing: z.boolean({ error: "Scelta non valida per i cookie di marketing." }),
    visitorId: z.uuid({ error: "Identificativo del visitatore non valido." }),
  }),
  {
    preferences: "Cookie di preferenza",
    analytics: "Cookie statistici",
    marketing: "Cookie di marketing",
    visitorId: "Identificativo del visitatore",
  },
);

// Proof of the choice (kept up to 10 years); the cookie itself is written by the browser.
export const action = api({
  access: "public",
  async handler({ request, env, db }) {
    const choice = await readJson(request, Consent);
    const user = await getSessionUser(request, env);
    await recordConsent(db, choice, user?.id ?? null);
    return { ok: true };
  },
});
