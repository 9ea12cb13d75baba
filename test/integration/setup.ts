import { applyD1Migrations, env } from "cloudflare:test";

// Applies only migrations not yet applied, so it is safe for every test file.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
