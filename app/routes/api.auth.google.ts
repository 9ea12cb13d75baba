import { api, readJson } from "~/server/api.server";
import { signIn, verifyGoogleCredential } from "~/server/auth.server";
import { sessionCookie } from "~/server/session.server";
import { googleSignInSchema } from "~/lib/forms/sign-in";

export const action = api({
  access: "public",
  async handler({ request, env }) {
    const { credential } = await readJson(request, googleSignInSchema);
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
