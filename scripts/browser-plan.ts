// What `npm test` does about the browser of its end-to-end part (issue 47, point 5), decided from facts about the
// machine and nothing else, so a unit test covers every case without touching the machine's browser
// (test/unit/browser-plan.test.ts). The facts are gathered and the plan carried out by scripts/chromium.ts
// (ensureChromium), which scripts/test.ts calls before any part starts.

/** Debian's packages: the headless shell first (half the CPU of the full browser: scripts/chromium.ts), else Chromium. */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const FULL_CHROMIUM = "/usr/bin/chromium";
export const APT_INSTALL = "apt-get install -y chromium-headless-shell || apt-get install -y chromium";

export type BrowserFacts = {
  /** CHROMIUM_PATH, when set: the browser the project is told to use. */
  chromiumPath?: string;
  /** Whether a file exists and can be run. */
  runnable: (path: string) => boolean;
  /** Running as root (uid 0): apt-get may install. */
  root: boolean;
  /** apt-get is on the PATH (a Debian or Ubuntu machine). */
  apt: boolean;
};

export type BrowserPlan =
  /** Use this browser (the e2e run and the benches find it the same way: scripts/chromium.ts). */
  | { kind: "found"; path: string }
  /** None here, but this machine can install Debian's: run these shell commands, then look again. */
  | { kind: "installable"; commands: string[] }
  /** None here and no way to install it from here: stop before the suite, naming the one command to run. */
  | { kind: "missing"; reason: string; command: string };

/** The browser `npm test` uses, or how it gets one, or the one command the developer has to run. */
export function planBrowser(facts: BrowserFacts): BrowserPlan {
  if (facts.chromiumPath) {
    if (facts.runnable(facts.chromiumPath)) return { kind: "found", path: facts.chromiumPath };
    return {
      kind: "missing",
      reason: `CHROMIUM_PATH names ${facts.chromiumPath}, which is not an executable file.`,
      command: "unset CHROMIUM_PATH",
    };
  }
  for (const path of [HEADLESS_SHELL, FULL_CHROMIUM]) if (facts.runnable(path)) return { kind: "found", path };
  if (facts.apt && facts.root) return { kind: "installable", commands: ["apt-get update -qq", APT_INSTALL] };
  if (facts.apt)
    return {
      kind: "missing",
      reason: "The end-to-end tests need Debian's Chromium headless shell, and installing it needs root.",
      command: "sudo apt-get install -y chromium-headless-shell",
    };
  return {
    kind: "missing",
    reason: "The end-to-end tests need a Chromium, and this machine has neither Debian's packages nor apt-get.",
    command: "CHROMIUM_PATH=/path/to/chromium npm test",
  };
}
