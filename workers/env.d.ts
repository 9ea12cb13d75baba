// Secrets and optional settings (not in wrangler.jsonc "vars"); see README "Environment variables".
declare namespace Cloudflare {
  interface Env {
    SESSION_SECRET?: string;
    GOOGLE_CLIENT_ID?: string;
    GOOGLE_JWKS_URL?: string;
    OWNER_EMAIL?: string;
    DEV_LOGIN?: string;
    ALLOW_DB_RESET?: string;
  }
}
