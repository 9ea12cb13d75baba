// Signing in (issue 19: one schema for /login's action and the JSON calls /api/auth/dev and /api/auth/google).
import { z } from "zod";
import { withLabels } from "../validation";

export const devSignInSchema = withLabels(z.object({ email: z.email({ error: "Indirizzo email non valido." }) }), {
  email: "Email",
});

export const googleSignInSchema = withLabels(
  z.object({
    credential: z
      .string({ error: "Manca il token di Google (credential)." })
      .min(1, "Manca il token di Google (credential)."),
  }),
  { credential: "Token di Google" },
);
