// `npm test`: every check and test of the project, the parts side by side (issue 33). The browser tests are the long
// pole (the build, then two servers and two workers: test/e2e/servers.ts) and spend most of their time waiting on
// pages and timers (about 300 s of CPU in a 6-minute run), so vitest (about 300 s of CPU on one worker) and the
// static checks run while they do, instead of before them.
//   TEST_PLAN=together (default)  bank:check, lint, typecheck, test:unit and test:e2e all at once
//   TEST_PLAN=phased              the static checks first, then test:unit and test:e2e side by side
//   TEST_PLAN=serial              one after the other, as `npm test` used to (a machine with one core)
// Each part's output is printed as it comes, every line prefixed with the part's name, and kept whole in
// test-results/npm-test/<part>.log. A failed part fails the run (after the parts running with it have finished; a
// later phase does not start); the summary at the end lists each part's time and result.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ensureChromium } from "./chromium.ts";

/** `nice`: a scheduling priority for the part and everything it starts (lower runs first; below 0 needs root). */
type Part = { name: string; script: string; nice?: number };

const bank = { name: "bank", script: "bank:check" };
const lint = { name: "lint", script: "lint" };
const types = { name: "types", script: "typecheck" };
// vitest is one worker (one workerd thread and its node host) on the run's critical path, while the browser tests
// start a dozen processes (two browsers, two servers, their proxies); the kernel shares the cores per thread, so
// side by side vitest got less than half a core and finished last (541 s in a 542-s run). A higher priority gives
// it the core it can use; the browser tests take the rest and have slack (they ended at 516 s in that run).
const vitest = { name: "vitest", script: "test:unit", nice: -5 };
const e2e = { name: "e2e", script: "test:e2e" };
// Each inner list runs side by side, the lists one after the other.
const PLANS: Record<string, Part[][]> = {
  together: [[bank, lint, types, vitest, e2e]],
  phased: [
    [bank, lint, types],
    [vitest, e2e],
  ],
  serial: [[bank], [lint], [types], [vitest], [e2e]],
};
const plan = process.env.TEST_PLAN ?? "together";
const PHASES = PLANS[plan];
if (!PHASES) {
  console.error(`TEST_PLAN=${plan}: unknown; one of ${Object.keys(PLANS).join(", ")}`);
  process.exit(2);
}

// The end-to-end part needs a browser: installed here when the machine can (root and apt-get), else the run stops at
// once, before any part starts, naming the one command to run (issue 47: a fresh machine failed the suite's e2e part
// after minutes of the others).
const noBrowser = ensureChromium((line) => console.log(line));
if (noBrowser) {
  console.error(`npm test: no browser for the end-to-end tests. ${noBrowser}`);
  process.exit(1);
}

const LOGS = join("test-results", "npm-test");
mkdirSync(LOGS, { recursive: true });
const width = Math.max(...PHASES.flat().map((p) => p.name.length));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const children = new Set<ReturnType<typeof spawn>>();

type Outcome = { part: Part; code: number; seconds: number };

function run(part: Part): Promise<Outcome> {
  const started = performance.now();
  const log = createWriteStream(join(LOGS, `${part.name}.log`));
  const prefix = `[${part.name.padEnd(width)}] `;
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", part.script], { stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    // Set before npm starts the part's own processes (they inherit it); without the right to raise it, as is.
    if (part.nice !== undefined && child.pid !== undefined) {
      try {
        setPriority(child.pid, part.nice);
      } catch {
        process.stdout.write(`${prefix}(priority ${part.nice} not allowed here: left as it is)\n`);
      }
    }
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        log.write(`${line}\n`);
        process.stdout.write(`${prefix}${line}\n`);
      });
    }
    const done = (code: number) => {
      children.delete(child);
      log.end();
      resolve({ part, code, seconds: (performance.now() - started) / 1000 });
    };
    child.on("error", (error) => {
      process.stdout.write(`${prefix}${error.message}\n`);
      done(1);
    });
    child.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

// Ctrl-C: stop the parts too (each is its own npm process; Playwright stops its web servers itself).
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

const started = performance.now();
const outcomes: Outcome[] = [];
for (const phase of PHASES) {
  const results = await Promise.all(phase.map(run));
  outcomes.push(...results);
  if (results.some((r) => r.code !== 0)) break;
}

const failed = outcomes.filter((o) => o.code !== 0);
const skipped = PHASES.flat().filter((p) => !outcomes.some((o) => o.part === p));
console.log("\nnpm test:");
for (const o of outcomes)
  console.log(`  ${o.part.name.padEnd(width)}  ${o.code === 0 ? "ok    " : "FAILED"}  ${o.seconds.toFixed(1)} s`);
for (const p of skipped) console.log(`  ${p.name.padEnd(width)}  not run (an earlier phase failed)`);
console.log(`  total ${((performance.now() - started) / 1000).toFixed(1)} s; each part's whole output: ${LOGS}/`);
if (failed.length) {
  console.log(`Failed: ${failed.map((o) => `${o.part.name} (npm run ${o.part.script})`).join(", ")}`);
  process.exit(1);
}
