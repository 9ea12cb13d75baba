// `npm test` on a machine with no browser (issue 47, point 5): the decision of scripts/browser-plan.ts in every case,
// on made-up machines (the real one's browser is never touched).
import { describe, expect, it } from "vitest";
import { APT_INSTALL, FULL_CHROMIUM, HEADLESS_SHELL, planBrowser } from "../../scripts/browser-plan";

const machine = (files: string[], more: { root?: boolean; apt?: boolean; chromiumPath?: string } = {}) => ({
  runnable: (path: string) => files.includes(path),
  root: more.root ?? false,
  apt: more.apt ?? false,
  chromiumPath: more.chromiumPath,
});

describe("planBrowser", () => {
  it("uses the headless shell when installed, before the full browser", () => {
    expect(planBrowser(machine([FULL_CHROMIUM, HEADLESS_SHELL]))).toEqual({ kind: "found", path: HEADLESS_SHELL });
    expect(planBrowser(machine([FULL_CHROMIUM]))).toEqual({ kind: "found", path: FULL_CHROMIUM });
  });

  it("installs Debian's headless shell as root with apt-get, the full browser as a fallback", () => {
    expect(planBrowser(machine([], { root: true, apt: true }))).toEqual({
      kind: "installable",
      commands: ["apt-get update -qq", APT_INSTALL],
    });
    expect(APT_INSTALL).toBe("apt-get install -y chromium-headless-shell || apt-get install -y chromium");
  });

  it("names the one command to run when it cannot install", () => {
    const notRoot = planBrowser(machine([], { apt: true }));
    expect(notRoot).toMatchObject({ kind: "missing", command: "sudo apt-get install -y chromium-headless-shell" });
    const noApt = planBrowser(machine([], { root: true }));
    expect(noApt).toMatchObject({ kind: "missing", command: "CHROMIUM_PATH=/path/to/chromium npm test" });
  });

  it("takes CHROMIUM_PATH as given, and says so when it names nothing runnable", () => {
    expect(planBrowser(machine(["/opt/chrome"], { chromiumPath: "/opt/chrome" }))).toEqual({
      kind: "found",
      path: "/opt/chrome",
    });
    // Even where Debian's browser is installed: the developer asked for another one.
    const wrong = planBrowser(machine([HEADLESS_SHELL], { chromiumPath: "/opt/none", root: true, apt: true }));
    expect(wrong).toMatchObject({ kind: "missing", command: "unset CHROMIUM_PATH" });
  });
});
