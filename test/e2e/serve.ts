// Serves the production build for the e2e run on its own, freshly seeded local state
// (never the developer's .wrangler/state).
// Usage: node test/e2e/serve.ts --port 4319 [--state DIR] [--no-build] [--no-serve] [--keep-seed DIR | --seed-from DIR]
//   --no-serve       build and seed, then exit (the bench serves the build itself: bench/lib/direct-server.ts)
//   --keep-seed DIR  also keep the pristine seeded state in DIR (never served), for other servers of the run
//   --seed-from DIR  start from a copy of DIR (made by another serve.ts with --keep-seed) instead of seeding
// Without either it seeds the state itself. The build and the seeding run side by side: they share nothing.
import { spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const port = arg("--port", "4319");
const state = arg("--state", join(".wrangler", "e2e-state"));
const keepSeed = arg("--keep-seed", "");
const seedFrom = arg("--seed-from", "");
const bin = (name: string) => join("node_modules", ".bin", name);
// The e2e servers bind the room's test hooks (vite.config.ts: the clock of POST /api/admin/simulations/{id}/clock); the
// bench builds through this script with UNICUM_TEST_HOOKS=0, the production room.
const env = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  UNICUM_TEST_HOOKS: process.env.UNICUM_TEST_HOOKS ?? "1",
};

if (!existsSync(".dev.vars")) copyFileSync(".dev.vars.example", ".dev.vars");
if (!/^DEV_LOGIN=1$/m.test(readFileSync(".dev.vars", "utf8"))) {
  console.error("The e2e run signs in with the development sign-in: set DEV_LOGIN=1 in .dev.vars.");
  process.exit(1);
}

function run(command: string, commandArgs: string[]) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: "inherit", env });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${commandArgs.join(" ")} exited with ${code}`)),
    );
  });
}

async function seed() {
  if (seedFrom) {
    if (!existsSync(seedFrom))
      throw new Error(`No seeded state in ${seedFrom}: start the server with --keep-seed first.`);
    rmSync(state, { recursive: true, force: true });
    cpSync(seedFrom, state, { recursive: true });
    return;
  }
  const target = keepSeed || state;
  rmSync(target, { recursive: true, force: true });
  await run(process.execPath, ["scripts/db-setup.ts", "--persist-to", target]);
  if (keepSeed) {
    rmSync(state, { recursive: true, force: true });
    cpSync(keepSeed, state, { recursive: true });
  }
}

try {
  await Promise.all([args.includes("--no-build") ? null : run(bin("react-router"), ["build"]), seed()]);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

if (args.includes("--no-serve")) process.exit(0);

const preview = spawn(bin("vite"), ["preview", "--port", port, "--strictPort"], {
  stdio: "inherit",
  env: { ...env, UNICUM_STATE_DIR: state },
});
const stop = () => preview.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
preview.on("exit", (code) => process.exit(code ?? 0));
