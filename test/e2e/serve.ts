// Serves the production build for the e2e run on its own, freshly seeded local state
// (never the developer's .wrangler/state). Usage: node test/e2e/serve.ts --port 4319 [--state DIR] [--no-build]
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const port = arg("--port", "4319");
const state = arg("--state", join(".wrangler", "e2e-state"));
const bin = (name: string) => join("node_modules", ".bin", name);
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

if (!existsSync(".dev.vars")) copyFileSync(".dev.vars.example", ".dev.vars");
if (!/^DEV_LOGIN=1$/m.test(readFileSync(".dev.vars", "utf8"))) {
  console.error("The e2e run signs in with the development sign-in: set DEV_LOGIN=1 in .dev.vars.");
  process.exit(1);
}

if (!args.includes("--no-build")) {
  execFileSync(bin("react-router"), ["build"], { stdio: "inherit", env });
}
rmSync(state, { recursive: true, force: true });
execFileSync(process.execPath, ["scripts/db-setup.ts", "--persist-to", state], { stdio: "inherit", env });

const preview = spawn(bin("vite"), ["preview", "--port", port, "--strictPort"], {
  stdio: "inherit",
  env: { ...env, UNICUM_STATE_DIR: state },
});
const stop = () => preview.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
preview.on("exit", (code) => process.exit(code ?? 0));
