// The Worker's environment, checked once at start-up (issue 19): a missing binding or a malformed setting stops the
// Worker with one clear message naming it, instead of failing later inside some request.
// Settings: wrangler.jsonc (bindings, vars), .dev.vars locally, `wrangler secret put` deployed (README).
import { z } from "zod";

const binding = (name: string, method: string) =>
  z.custom<unknown>((value) => typeof value === "object" && value !== null && method in value, {
    message: `il binding ${name} manca (wrangler.jsonc)`,
  });

const flag = (name: string) => z.enum(["", "0", "1"], `${name} vale "1" (attivo) oppure resta vuoto`).optional();

export const envSchema = z.object({
  DB: binding("D1 DB", "prepare"),
  SIMULATION_ROOM: binding("Durable Object SIMULATION_ROOM", "idFromName"),
  SESSION_SECRET: z
    .string(`SESSION_SECRET manca: impostalo con "wrangler secret put SESSION_SECRET" (in locale: .dev.vars)`)
    .min(32, "SESSION_SECRET è troppo corto: servono almeno 32 caratteri casuali"),
  /** The master secret before the last rotation: accepted to verify what it signed, never to sign (README). */
  SESSION_SECRET_PREVIOUS: z
    .union([
      z.literal(""),
      z.string().min(32, "SESSION_SECRET_PREVIOUS è troppo corto: servono almeno 32 caratteri (il segreto di prima)"),
    ])
    .optional(),
  DEV_LOGIN: flag("DEV_LOGIN"),
  ALLOW_DB_RESET: flag("ALLOW_DB_RESET"),
  BENCH_D1_USAGE: flag("BENCH_D1_USAGE"),
  OWNER_EMAIL: z.union([z.literal(""), z.email("OWNER_EMAIL non è un indirizzo e-mail valido")]).optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.union([z.literal(""), z.url("GOOGLE_JWKS_URL non è un URL valido")]).optional(),
});

/** Every problem of an environment, one line each ("SESSION_SECRET: …"); empty when it is fine. */
export function envProblems(env: unknown): string[] {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

const checked = new WeakSet<object>();

/**
 * Checks the environment the first time the Worker sees it (one object per isolate) and throws a clear error
 * listing every problem. workers/app.ts calls it before anything else.
 */
export function assertValidEnv(env: Env): void {
  if (checked.has(env)) return;
  const problems = envProblems(env);
  if (problems.length) throw new Error(`Configurazione del Worker non valida:\n- ${problems.join("\n- ")}`);
  checked.add(env);
}
