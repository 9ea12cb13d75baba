// Prepares a local D1: writes .dev.vars when missing, applies migrations, seeds the demo data when
// the database is empty. Usage: node scripts/db-setup.ts [--reset] [--persist-to DIR]
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSeedSql } from "../seed/seed.ts";

const args = process.argv.slice(2);
const reset = args.includes("--reset");
const persistIndex = args.indexOf("--persist-to");
const persistTo = persistIndex >= 0 ? args[persistIndex + 1] : process.env.UNICUM_STATE_DIR;
const persistArgs = persistTo ? ["--persist-to", persistTo] : [];

// The project's own wrangler.jsonc, named: without it wrangler follows .wrangler/deploy/config.json to the last build's
// config, which a build running at the same time (test/e2e/serve.ts seeds while it builds) has just deleted.
function wrangler(...rest: string[]): string {
  return execFileSync(join("node_modules", ".bin", "wrangler"), [...rest, "--config", "wrangler.jsonc"], {
    encoding: "utf8",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("Created .dev.vars from .dev.vars.example (development sign-in on).");
}

if (reset) {
  const dir = join(persistTo ?? join(".wrangler", "state"), "v3", "d1");
  rmSync(dir, { recursive: true, force: true });
  console.log(`Local database removed (${dir}).`);
}

wrangler("d1", "migrations", "apply", "DB", "--local", ...persistArgs);
console.log("Migrations applied.");

const out = wrangler(
  "d1",
  "execute",
  "DB",
  "--local",
  ...persistArgs,
  "--json",
  "--command",
  "SELECT count(*) AS n FROM subjects",
);
const count = Number(JSON.parse(out)[0]?.results?.[0]?.n ?? 0);
if (count > 0) {
  console.log("Database already seeded.");
} else {
  const dir = mkdtempSync(join(tmpdir(), "unicum-seed-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, buildSeedSql());
  wrangler("d1", "execute", "DB", "--local", ...persistArgs, "--file", file);
  rmSync(dir, { recursive: true, force: true });
  console.log("Demo data seeded: question bank, demo accounts, 60 days of history.");
}
