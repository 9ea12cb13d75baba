// Secrets and optional settings (not in wrangler.jsonc "vars"); see README "Environment variables".
declare namespace Cloudflare {
  interface Env {
    SESSION_SECRET?: string;
    GOOGLE_CLIENT_ID?: string;
    GOOGLE_JWKS_URL?: string;
    OWNER_EMAIL?: string;
    DEV_LOGIN?: string;
    ALLOW_DB_RESET?: string;
    /** "1" (with DEV_LOGIN=1) turns on the bench's D1 meter (app/server/db/d1-usage.server.ts); set by the bench's build only. */
    BENCH_D1_USAGE?: string;
  }
}
