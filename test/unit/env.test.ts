// The Worker's environment schema (app/server/env.server.ts): a bad setting is named, in Italian, before any request.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { assertValidEnv, envProblems } from "~/server/env.server";

describe("the environment check", () => {
  it("accepts the test Worker's environment", () => {
    expect(envProblems(env)).toEqual([]);
    expect(() => assertValidEnv(env as Env)).not.toThrow();
  });

  it("names every problem: a short secret, a missing database, a malformed flag and e-mail", () => {
    const problems = envProblems({
      ...env,
      SESSION_SECRET: "corto",
      DB: undefined,
      DEV_LOGIN: "si",
      OWNER_EMAIL: "non-una-mail",
    });
    expect(problems).toEqual([
      "DB: il binding D1 DB manca (wrangler.jsonc)",
      "SESSION_SECRET: SESSION_SECRET è troppo corto: servono almeno 32 caratteri casuali",
      'DEV_LOGIN: DEV_LOGIN vale "1" (attivo) oppure resta vuoto',
      "OWNER_EMAIL: OWNER_EMAIL non è un indirizzo e-mail valido",
    ]);
    expect(() => assertValidEnv({ ...env, SESSION_SECRET: undefined } as unknown as Env)).toThrow(
      /SESSION_SECRET manca/,
    );
  });
});
