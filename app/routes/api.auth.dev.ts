import { api, readJson } from "~/server/api.server";
import { devLoginEnabled, devSignIn } from "~/server/auth.server";
import { devSignInSchema } from "~/lib/forms/sign-in";
import { HttpError } from "~/server/errors.server";
import { sessionCookie } from "~/server/session.server";

// Development sign-in: exists only when DEV_LOGIN=1 (local dev, tests); otherwise it is a 404.
export const action = api({
  access: "public",
  async handler({ request, env }) {
    if (!devLoginEnabled(env)) throw new HttpError(404, "Indirizzo API inesistente.");
    const { email } = await readJson(request, devSignInSchema);
    const result = await devSignIn(env, email, request.headers.get("User-Agent"));
    return Response.json(result, { headers: { "Set-Cookie": sessionCookie(request, result.token) } });
  },
});
