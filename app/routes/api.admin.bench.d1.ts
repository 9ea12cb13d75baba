// GET /api/admin/bench/d1: the D1 rows read and written by this server since the last reset (the bench's meter,
// app/server/db/d1-usage.server.ts); DELETE resets it. Admins only, and only on a server started for the bench
// (BENCH_D1_USAGE=1 with the development sign-in on): everywhere else 404, like an address that does not exist.
import { api, methods } from "~/server/api.server";
import { d1Usage, d1UsageEnabled, resetD1Usage } from "~/server/db/d1-usage.server";
import { HttpError } from "~/server/errors.server";

function requireBench(env: Env) {
  if (!d1UsageEnabled(env)) throw new HttpError(404, "Indirizzo non trovato.");
}

export const loader = api({
  access: "admin",
  async handler({ env }) {
    requireBench(env);
    return d1Usage();
  },
});

export const action = methods({
  DELETE: api({
    access: "admin",
    async handler({ env }) {
      requireBench(env);
      resetD1Usage();
      return { ok: true };
    },
  }),
});
