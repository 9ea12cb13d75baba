// How every tool here starts Chromium: Debian's Chromium (CHROMIUM_PATH to override), headless, with the flags this
// closed-network machine needs. The e2e run (playwright.config.ts), the benchmarks and `npm run check:first-visit`
// share it.
//
// Debian's headless shell (/usr/bin/chromium-headless-shell, package chromium-headless-shell, the same Chromium
// build without the browser's window layers: what Playwright itself runs for headless tests) is used when installed,
// else /usr/bin/chromium. On the two-spec sample of 26 Nov 2026 (dashboard and navigation, 12 tests) it took 26 CPU-
// seconds against 50 for the full browser (its browser process 5 against 15): Chromium was half of `npm test`'s CPU.
// Which one, and what `npm test` does on a machine with neither, is decided in scripts/browser-plan.ts.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { type BrowserFacts, FULL_CHROMIUM, planBrowser } from "./browser-plan.ts";

function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** What the plan reads of this machine (whether it may install only when asked: it starts a shell). */
function facts(canInstall = false): BrowserFacts {
  return {
    chromiumPath: process.env.CHROMIUM_PATH || undefined,
    runnable,
    root: canInstall && process.getuid?.() === 0,
    apt: canInstall && spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0,
  };
}

/** The browser to start: the plan's when one is found (else the full browser's path, for Playwright to report). */
function executablePath(): string {
  const plan = planBrowser(facts());
  return plan.kind === "found" ? plan.path : (process.env.CHROMIUM_PATH ?? FULL_CHROMIUM);
}

export const CHROMIUM_LAUNCH = {
  executablePath: executablePath(),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

/**
 * Before `npm test` runs anything: a browser for its end-to-end part. Installs Debian's headless shell when this
 * machine can (root and apt-get, as .ci/run did alone before); otherwise returns the message naming the one command
 * to run. Returns null when a browser is there.
 */
export function ensureChromium(log: (line: string) => void): string | null {
  let plan = planBrowser(facts(true));
  if (plan.kind === "installable") {
    log("No Chromium here: installing Debian's chromium-headless-shell for the end-to-end tests (apt-get)…");
    for (const command of plan.commands) {
      const result = spawnSync("sh", ["-c", command], {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
      if (result.status !== 0) break;
    }
    plan = planBrowser(facts(true));
    if (plan.kind === "installable")
      return "apt-get could not install chromium-headless-shell (see above). Then run: apt-get install -y chromium-headless-shell";
  }
  if (plan.kind === "missing") return `${plan.reason} Run:\n\n  ${plan.command}\n\nthen npm test again.`;
  return null;
}
