import { z } from "zod";
import { api, readJson } from "~/server/api.server";
import { signIn, verifyGoogleCredential } from "~/server/auth.server";
import { sessionCookie } from "~/server/session.server";
import { withLabels } from "~/server/errors.server";

const GoogleLogin = withLabels(
  z.object({
    credential: z.string({ error: "Manca il token di Google (credential)." }).min(1, "Manca il token di Google (credential)."),
  }),
  { credential: "Token di Google" },
);

export const action = api({
  access: "public",
  async handler({ request, env }) {
    const { credential } = await readJson(request, GoogleLogin);
    const identity = await verifyGoogleCredential(credential, env);
    const result = await signIn(env, identity, "google", Date.now(), request.headers.get("User-Agent"));
    return Response.json(result, { headers: { "Set-Cookie": sessionCookie(request, result.token) } });
  },
});

export const loader = api({
  access: "public",
  async handler() {
    return Response.json({ error: "Usa POST per accedere con Google." }, { status: 405 });
  },
});
