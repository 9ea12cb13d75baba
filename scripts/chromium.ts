// How every tool here starts Chromium: Debian's Chromium (CHROMIUM_PATH to override), headless, with the flags this
// closed-network machine needs. The e2e run (playwright.config.ts), the benchmarks and `npm run check:first-visit`
// share it.
//
// Debian's headless shell (/usr/bin/chromium-headless-shell, package chromium-headless-shell, the same Chromium
// build without the browser's window layers: what Playwright itself runs for headless tests) is used when installed,
// else /usr/bin/chromium. On the two-spec sample of 26 Nov 2026 (dashboard and navigation, 12 tests) it took 26 CPU-
// seconds against 50 for the full browser (its browser process 5 against 15): Chromium was half of `npm test`'s CPU.
// `.ci/run` installs both.
import { existsSync } from "node:fs";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
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
